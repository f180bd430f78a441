"""广东麻将抢杠 `qianggang` in money (docs/RULES.md "Rule set 4", seed 003): each 番 doubles the chicken stake; flowers
and kongs are flat stakes per payer; horses multiply the hand part; 包 and 截胡. One row per worked example of
docs/RULES.md, then one per seed rule, each quoting the seed 003 line it follows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fanshot.scoring import ScoringError, score
from fanshot.scoring import tiles as t

SEEDS = Path(__file__).resolve().parents[2] / "../shared/seeds"
STAKE_123 = {"flower": 1, "kong": 2, "chicken": 3}  # 「常见的有1 2 3 、3个5、10 20 30等」 (seed 003 line 3)
CHICKEN = "123m456p789s555s11z"  # 鸡胡: no wind or dragon pung, mixed suits, a chow (no 大哥)
ELEVEN = "123m456p789s11z"  # beside a kong
ALL_PUNGS = "111m222p333s444m99m"
HALF_FLUSH = "123m456m789m333z11z"  # 杂色; the West pung is nobody's wind here
FULL_FLUSH = "123m456m789m234m11m"
ORPHANS = "19m19p19s1234567z1m"


def pay(**amounts) -> dict:
    """Payments of all four seats: pay(z1=-2, z2=6) -> {'1z': -2, '2z': 6, '3z': 0, '4z': 0}."""
    return {seat: amounts.get(f"z{seat[0]}", 0) for seat in t.SEATS}


def parts(hand, horses=0, flowers=0, kongs=0) -> dict:
    return {"hand": hand, "horses": horses, "flowers": flowers, "kongs": kongs}


def case(rid: str, seed: str, concealed: str, fans: dict, fan_total: int, per_payer_parts: dict, payments: dict, *,
         liable: str | None = None, melds=(), flowers: str | None = None, options: dict | None = None,
         stake: dict = STAKE_123, **context):
    hand = {"concealed": concealed, "melds": list(melds), **({"flowers": flowers} if flowers else {})}
    request = {"ruleset": "qianggang", "hand": hand, "context": {**context, "stake": stake}}
    if options:
        request["options"] = options
    return pytest.param(request, fans, fan_total, per_payer_parts, payments, liable, seed, id=rid)


def discard(by: str = "3z") -> dict:
    return {"win": "discard", "discarder": by}


def pung(tiles: str, by: str) -> dict:
    return {"kind": "pung", "tiles": tiles, "fed_by": by}


CASES = [
    # ---- the worked examples of docs/RULES.md rule set 4 (stake 1 2 3 unless said) ----
    case("worked_chicken_self_draw", "「1、自摸：在爆胡以内自摸+1番」; 「番是2倍的意思」",
         CHICKEN, {"chicken": 0, "self_draw": 1}, 1, parts(6), pay(z1=-6, z2=18, z3=-6, z4=-6), seat_wind="2z"),
    case("worked_two_flowers", "「第一个数是指花多少」",
         CHICKEN, {"chicken": 0, "self_draw": 1}, 1, parts(6, flowers=2), pay(z1=-8, z2=24, z3=-8, z4=-8),
         flowers="26f", seat_wind="2z"),
    case("worked_concealed_kong", "「第二个数是共杠或者暗杠是多少」",
         ELEVEN, {"chicken": 0, "self_draw": 1}, 1, parts(6, kongs=2), pay(z1=-8, z2=24, z3=-8, z4=-8),
         melds=[{"kind": "kong", "tiles": "2222s", "concealed": True}], seat_wind="2z"),
    case("worked_half_flush_discard", "「胡法分(由小到大)：鸡胡、杂色、清一色、夶哥、十三幺」",
         HALF_FLUSH, {"half_flush": 1}, 1, parts(6), pay(z2=6, z3=-6), seat_wind="2z", **discard()),
    case("worked_full_flush_self_draw_10_20_30", "「10 20 30等…第三个数是指最小的鸡胡是多少。其他胡法就是按倍数计算」",
         FULL_FLUSH, {"full_flush": 2, "self_draw": 1}, 3, parts(240), pay(z1=-240, z2=720, z3=-240, z4=-240),
         stake={"flower": 10, "kong": 20, "chicken": 30}, seat_wind="2z"),
    case("worked_chicken_robbing_kong",
         "「抢杠胡等同杠开，当自摸被抢杠者(欲开杠者)包三家牌…不满3番牌型，按照3番满计算」",
         CHICKEN, {"chicken": 0, "self_draw": 1, "robbing_kong": 3}, 3, parts(24), pay(z2=72, z3=-72),
         liable="3z", special=["robbing_kong"], seat_wind="2z", **discard()),
    # ---- extras 附加, only within the cap ----
    case("seat_wind_pung", "「2、风位：拿到本盘门风的刻子+1番，爆胡以外不加番」",
         "123m456p789s222z11m", {"chicken": 0, "seat_wind": 1}, 1, parts(6), pay(z2=6, z3=-6),
         seat_wind="2z", **discard()),
    case("prevalent_wind_pung", "「3、风圈：拿到该风圈局的刻子，+1番爆胡以外不加番」",
         "123m456p789s333z11m", {"chicken": 0, "prevalent_wind": 1}, 1, parts(6), pay(z2=6, z4=-6),
         seat_wind="2z", prevalent_wind="3z", **discard("4z")),
    case("dragon_pungs", "「4、三元牌：红中、白板、发财任意一个刻子为1番，两个刻子为2番」",
         "123m456p555z777z11m", {"chicken": 0, "dragon_pung": 2}, 2, parts(12), pay(z2=12, z3=-12),
         seat_wind="2z", **discard()),
    case("extras_never_past_the_cap", "「爆胡内牌型加附加牌型不能冲破爆胡嘚上限」",
         ALL_PUNGS, {"all_pungs": 3, "self_draw": 1}, 3, parts(24), pay(z1=-24, z2=72, z3=-24, z4=-24),
         seat_wind="2z"),
    case("thirteen_orphans_self_draw_no_extra", "「十三幺，可突破爆胡限制这些特殊牌型不再叠加其他番种」",
         ORPHANS, {"thirteen_orphans": 4}, 4, parts(48), pay(z1=-48, z2=144, z3=-48, z4=-48), seat_wind="2z"),
    # ---- special wins ----
    case("heavenly", "「天和：只有庄家独有的权利，庄家起牌后即成和牌牌型按6番计算」",
         CHICKEN, {"heavenly": 6}, 6, parts(192), pay(z1=576, z2=-192, z3=-192, z4=-192),
         special=["heavenly"], seat_wind="1z"),
    case("earthly", "「地和：起牌后第一圈里闲家自摸的第一张牌和牌。按6番计算」",
         CHICKEN, {"earthly": 6}, 6, parts(192), pay(z1=-192, z2=-192, z3=576, z4=-192),
         special=["earthly"], seat_wind="3z"),
    case("human", "「人和：起牌后庄家打出的第一张牌，闲家吃和按6番计算」",
         CHICKEN, {"human": 6}, 6, parts(192), pay(z1=-192, z4=192), special=["human"], seat_wind="4z",
         **discard("1z")),
    case("kong_replacement_fed_kong_liable",
         "「杠上开花包杠：开暗刻明杠补牌后胡牌，计自摸点杠者包三家牌。不满3番牌型按照3番满计算」",
         ELEVEN, {"chicken": 0, "self_draw": 1, "kong_replacement": 3}, 3, parts(24, kongs=2), pay(z2=78, z3=-78),
         liable="3z", melds=[{"kind": "kong", "tiles": "2222s", "fed_by": "3z"}], special=["kong_replacement"],
         seat_wind="2z"),
    case("last_tile", "「海底捞月：摸最后一张牌胡牌不满3番牌型，按照3番满计算」",
         CHICKEN, {"chicken": 0, "self_draw": 1, "last_tile": 3}, 3, parts(24), pay(z1=-24, z2=72, z3=-24, z4=-24),
         special=["last_tile"], seat_wind="2z"),
    case("multi_win_option", "「一炮多响：允许一炮多响」; 「一炮三响…胡牌者不满3番牌型，按照3番满计算」",
         CHICKEN, {"chicken": 0, "multi_win": 3}, 3, parts(24), pay(z2=24, z3=-24),
         options={"multi_win": True}, special=["multi_win"], seat_wind="2z", **discard()),
    case("twelve_tiles_down_liable", "「包自摸规则：十二张落地包自摸，包先不包后」",
         "99p", {"all_pungs": 3, "self_draw": 1}, 3, parts(24), pay(z2=72, z4=-72), liable="4z",
         melds=[pung("111m", "1z"), pung("222p", "3z"), pung("333s", "1z"), pung("777s", "4z")], seat_wind="2z"),
    # ---- horses multiply the hand part only ----
    case("horses_flowers_kongs", "「买马者就可以拿与赢家一样的数」 (the hand); flowers and kongs are flat",
         ELEVEN, {"chicken": 0, "self_draw": 1}, 1, parts(6, horses=18, flowers=2, kongs=2),
         pay(z1=84, z2=-28, z3=-28, z4=-28), melds=[{"kind": "kong", "tiles": "2222s", "concealed": True}],
         flowers="15f", horses="1m5m9m2p3p4p", seat_wind="1z"),
]


@pytest.mark.parametrize(("request_", "fans", "fan_total", "per_payer_parts", "payments", "liable", "seed"), CASES)
def test_qianggang_money(request_, fans, fan_total, per_payer_parts, payments, liable, seed) -> None:
    response = score(request_)
    assert {item["id"]: item["fan"] for item in response["fans"]} == fans
    assert all(item["zh"] and item["en"] for item in response["fans"])
    assert response["fan_total"] == fan_total
    assert response["points"] == 2 ** fan_total
    assert response["per_payer_parts"] == per_payer_parts
    assert response["per_payer"] == sum(per_payer_parts.values())
    assert response["payments"] == payments
    assert response["liable"] == liable
    assert response["kong_payments"] == {}  # the kong stake rides on the hand
    assert response["stake"] == {"unit": 1, "fee": 0, **request_["context"]["stake"]}
    assert response["warnings"] == []
    assert sum(response["payments"].values()) == 0


def test_jiehu_refuses_a_multi_win_by_default() -> None:
    # 「同时有多家吃胡时，只有胡大牌的一家才算胡而剩下的一家也就被称为截胡」 (seed 003 line 3): one winner per discard
    request = {"ruleset": "qianggang", "hand": {"concealed": CHICKEN},
               "context": {"seat_wind": "2z", "special": ["multi_win"], **discard()}}
    with pytest.raises(ScoringError) as caught:
        score(request)
    assert caught.value.code == "not_allowed"
    assert "截胡" in caught.value.message and "options.multi_win" in caught.value.message


def test_quotes_are_seed_003_verbatim() -> None:
    """Every 「…」 quoted above is seed 003's own text (… marks a cut)."""
    found = sorted(SEEDS.glob("003_*.txt")) if SEEDS.is_dir() else []
    if not found:
        pytest.skip(f"no seed 003 under {SEEDS} (CI provides ../shared)")
    text = found[0].read_text(encoding="utf-8")
    quotes = [q for param in CASES for q in re.findall(r"「(.+?)」", param.values[-1])]
    assert len(quotes) >= len(CASES)
    for quote in quotes:
        for fragment in quote.split("…"):
            assert fragment in text, fragment
