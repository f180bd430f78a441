"""推倒胡's two unit tables (docs/RULES.md "Rule set 2", "Two unit tables"): seed 000 describes 推倒胡 twice. Option
`units` = "xingchen" (the default, the second description) | "qq" (the first, QQ description). One row per seed rule,
each quoting seed 000; each row is scored both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from fanshot.scoring import rules, score
from fanshot.scoring import tiles as t

SEED = next((Path(__file__).resolve().parents[2] / "../shared/seeds").glob("000_*.txt"), None)
PLAIN = "123m456p789s123m55z"  # 平胡 小胡: no big hand
PUNGS = "111m222p333s444s99m"  # 碰碰胡, a 大胡
ELEVEN = "123m456p789s11z"


def pay(**amounts) -> dict:
    return {seat: amounts.get(f"z{seat[0]}", 0) for seat in t.SEATS}


def request(concealed: str, units: str, *, melds=(), options=None, **context) -> dict:
    return {"ruleset": "tuidaohu", "options": {"units": units, **(options or {})},
            "hand": {"concealed": concealed, "melds": list(melds)}, "context": {"seat_wind": "2z", **context}}


ROWS = [
    # (id, seed 000 quote, request args, per payer under xingchen, per payer under qq, who pays: "each" | seat)
    ("small_hand_self_draw", "「自摸：基础分*2 ，小胡：基础分*1」 / 「自摸：1个」", (PLAIN,), {}, 1, 2, "each"),
    ("big_hand_self_draw", "「小胡：基础分*1 ，大胡：基础分*2 」 (QQ); xingchen's big hand x2 (docs/RULES.md)",
     (PUNGS,), {}, 2, 4, "each"),
    ("no_ghost_is_no_qq_doubler", "「无鬼：X2」 (xingchen only; the QQ text names no 无鬼)", ("123m456p789s123m66z",),
     {"options": {"ghosts": "white"}}, 2, 2, "each"),
    # the concealed kong is paid apart: 「暗杠，同自摸原理…其余三家每人均赔给杠牌者2 分」
    ("kong_replacement_is_no_qq_doubler", "「杠开：X2」 (xingchen only); 「杠上开花，如玩家为自摸杠…同自摸原理」",
     (ELEVEN,), {"melds": [{"kind": "kong", "tiles": "2222s", "concealed": True}], "special": ["kong_replacement"]},
     2 + 2, 2 + 2, "each"),
    ("robbing_kong_three_shares_from_the_robbed",
     "「抢杠胡，当玩家抢杠胡牌时将赢得3 份分数（相当于自摸胡）。…但这3 份全部由杠牌者全全承担」",
     (PLAIN,), {"win": "discard", "discarder": "3z", "special": ["robbing_kong"]}, 1, 2, "3z"),
]


def quoted(quote: str) -> list[str]:
    """The seed's words in a row's quote: each 「…」, cut at the ellipses."""
    return [part for fragment in quote.split("「")[1:] for part in fragment.split("」")[0].split("…")]


@pytest.mark.parametrize(("units", "column"), [("xingchen", 0), ("qq", 1)])
@pytest.mark.parametrize(("args", "given", "xingchen", "qq", "payer", "quote"),
                         [pytest.param(r[2], r[3], r[4], r[5], r[6], r[1], id=r[0]) for r in ROWS])
def test_units(units, column, args, given, xingchen, qq, payer, quote) -> None:
    if SEED:
        text = SEED.read_text(encoding="utf-8")
        assert all(part in text for part in quoted(quote)), quote
    response = score(request(*args, units, **given))
    per_payer = (xingchen, qq)[column]
    expected = pay(z1=-per_payer, z2=3 * per_payer, z3=-per_payer, z4=-per_payer) if payer == "each" else \
        pay(z2=3 * per_payer, **{f"z{payer[0]}": -3 * per_payer})
    assert response["payments"] == expected, quote


def test_the_seed_coin_example() -> None:
    """Seed 000: 「例如：N（房间系数）＝600，玩家A自摸X为12，A为370。
    失败玩家B、C、D的X均为4，各消耗的游戏币＝600×4＝2400游戏币玩家A奖励的游戏币＝600×12＝7200游戏币
    系统在该盘游戏结束时自动回收了每位玩家370游戏币」: a self-drawn big hand under the QQ units, X = 12 from three
    payers of 4."""
    response = score({**request(PUNGS, "qq"), "context": {"seat_wind": "2z", "stake": {"unit": 600, "fee": 370}}})
    assert response["per_payer"] == 2400
    assert response["payments"] == pay(z1=-2400 - 370, z2=7200 - 370, z3=-2400 - 370, z4=-2400 - 370)


def test_horses_multiply_either_table() -> None:
    """「平胡+马数*平胡番数」: each horse on the winner adds one more win, under either table."""
    horses = {"horses": "2m6m1p3p4p9p"}  # two horses on South (2, 6)
    assert score(request(PLAIN, "xingchen", **horses))["per_payer"] == 3
    assert score(request(PLAIN, "qq", **horses))["per_payer"] == 6


def test_the_default_is_xingchen_and_the_option_is_listed() -> None:
    assert rules.load("tuidaohu").options["units"] == "xingchen"
    qq = rules.load("tuidaohu", {"units": "qq"})
    assert (qq.table("hands"), qq.table("bonuses")) == ({"plain_win": 1}, {})
    assert qq.table("fixed_points") == {"four_ghosts": 6}  # 满鬼 is the same in both
    assert rules.load("tuidaohu", {"units": "qq", "fans": {"all_pungs": 3}}).table("specials")["all_pungs"] == 3


@pytest.mark.parametrize(("variants", "problem"), [
    ({"units": {"qq": {"hands": {"nope": 1}}}}, "variants.units.qq.hands.nope: unknown pattern"),
    ({"units": {"qq": {"hands": {"plain_win": -1}}}}, "variants.units.qq.hands.plain_win"),
    ({"units": {"other": {"hands": {}}}}, "variants.units.other: values are"),
    ({"units": {"qq": {"tables": {}}}}, "variants.units.qq: values are"),
    ({"cap": {"qq": {}}}, "variants.cap: not a string option"),
])
def test_a_bad_variant_is_a_file_error(variants, problem) -> None:
    raw = {"name": "tuidaohu", "zh": "推倒胡", "en": "x", "points": "doubling", "options": {"units": "qq", "cap": 3},
           "variants": variants}
    with pytest.raises(ValueError, match=problem):
        rules._check_file("tuidaohu", raw)
