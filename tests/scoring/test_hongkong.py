"""香港舊章 `hongkong` (docs/RULES.md "Rule set 5"): every row of its faan table, how patterns combine, the points
table and who pays, liability 包, and each option both ways. The section takes its rules from public sources
(letters A-Y in docs/RULES.md); each row quotes the source it follows. Payments are seat -> amount at stake unit 1,
South (2z) winning unless said, in an East round."""

from __future__ import annotations

import pytest

from fanshot.scoring import ScoringError, rules, score
from fanshot.scoring import tiles as t
from fanshot.scoring.game import check_setup, replay

CHICKEN = "123m456p789s555s11z"  # 雞糊: mixed suits, a pung that is nobody's wind or dragon
ELEVEN = "123m456p789s11z"  # beside a kong or a claimed meld
ALL_CHOWS = "123m456p789s234s11z"
HALF_FLUSH = "123m456m789m333z11z"  # West pung: nobody's wind for South in an East round
FULL_FLUSH = "123m456m789m234m11m"  # four chows of one suit
MIXED_TERMINALS = "111m999m111p333z22z"
LITTLE_DRAGONS = "555z666z77z123m456p"
BIG_DRAGONS = "555z666z777z123m11p"
LITTLE_WINDS = "111z333z444z22z123m"
FOUR_PUNGS = "111m222p333s444s99m"
ALL_HONOURS = "111z333z555z666z22z"
ALL_TERMINALS = "111m999m111p999p11s"
NINE_GATES = "11123456789999m"
ORPHANS = "19m19p19s1234567z1m"
BIG_WINDS = "111z222z333z444z11m"
SEVEN_PAIRS = "1122m3344p5566s77z"
THIRTEEN = "123m456p789s55s11z"  # 13 standing tiles: an instant win needs no shape


def pay(**amounts) -> dict:
    """Payments of all four seats: pay(z1=-2, z2=6) -> {'1z': -2, '2z': 6, '3z': 0, '4z': 0}."""
    return {seat: amounts.get(f"z{seat[0]}", 0) for seat in t.SEATS}


def discard(by: str = "3z") -> dict:
    return {"win": "discard", "discarder": by}


def meld(kind: str, tiles: str, by: str | None = "3z", **flags) -> dict:
    return {"kind": kind, "tiles": tiles, **({"fed_by": by} if by else {}), **flags}


def kong(tiles: str) -> dict:
    return {"kind": "kong", "tiles": tiles, "concealed": True}


def request(concealed: str, *, melds=(), flowers: str | None = None, winning_tile: str | None = None,
            options: dict | None = None, **context) -> dict:
    hand = {"concealed": concealed, "melds": list(melds)}
    if flowers:
        hand["flowers"] = flowers
    if winning_tile:
        hand["winning_tile"] = winning_tile
    return {"ruleset": "hongkong", "hand": hand, "context": {"seat_wind": "2z", **context},
            **({"options": options} if options else {})}


def case(rid: str, source: str, concealed: str, fans: dict, total: int, points: float, payments: dict, *,
         capped: bool = False, limit: bool = False, liable: str | None = None, **given):
    return pytest.param(request(concealed, **given), fans, total, points, payments, capped, limit, liable, source,
                        id=rid)


CASES = [
    # ---- [hands]: hand shape and suit, additive ----
    case("chicken_self_draw", "A 「三番起糊」: 雞糊 0 + 門前清 + 無花 + 自摸 = 3",
         CHICKEN, {"chicken": 0, "concealed": 1, "no_flowers": 1, "self_draw": 1}, 3, 8,
         pay(z1=-8, z2=24, z3=-8, z4=-8)),
    case("all_chows_discard", "A, C: 平糊 1 (any pair); 全銃 「由出銃者包付」: the discarder pays 2 shares",
         ALL_CHOWS, {"all_chows": 1, "concealed": 1, "no_flowers": 1}, 3, 8, pay(z2=16, z3=-16), **discard()),
    case("all_pungs", "A, C, E: 對對糊 3",
         "222p333s444s99m", {"all_pungs": 3, "no_flowers": 1, "self_draw": 1}, 5, 24,
         pay(z1=-24, z2=72, z3=-24, z4=-24), melds=[meld("pung", "111m")]),
    case("half_flush", "A, C, E: 混一色 3",
         HALF_FLUSH, {"half_flush": 3, "concealed": 1, "no_flowers": 1}, 5, 24, pay(z2=48, z3=-48), **discard()),
    case("full_flush_with_all_chows", "A, E: 清一色 7, stacked with 平糊 (E \"stacked\")",
         FULL_FLUSH, {"full_flush": 7, "all_chows": 1, "concealed": 1, "no_flowers": 1}, 10, 128,
         pay(z2=256, z3=-256), **discard()),
    case("mixed_terminals_stacks_with_all_pungs", "A 「花幺本身計一番，再加對對糊三番…寫成四番」",
         MIXED_TERMINALS, {"all_pungs": 3, "mixed_terminals": 1, "concealed": 1, "no_flowers": 1}, 6, 32,
         pay(z2=64, z3=-64), winning_tile="1p", **discard()),
    case("little_dragons_holds_its_dragon_pungs", "A: 小三元 5 = 3 + the two 番子, which do not count again",
         LITTLE_DRAGONS, {"little_dragons": 5, "concealed": 1, "no_flowers": 1}, 7, 48, pay(z2=96, z3=-96),
         **discard()),
    case("big_dragons_holds_its_dragon_pungs", "A: 大三元 8 = 5 + the three 番子",
         BIG_DRAGONS, {"big_dragons": 8, "concealed": 1, "no_flowers": 1}, 10, 128, pay(z2=256, z3=-256),
         **discard()),
    case("little_winds_holds_its_half_flush", "A 「本身單計三番…寫成六番」; 圈風 still adds (A)",
         LITTLE_WINDS, {"little_winds": 6, "prevalent_wind": 1, "concealed": 1, "no_flowers": 1}, 9, 96,
         pay(z2=192, z3=-192), **discard()),
    case("concealed_pungs_on_the_pair", "S, R: 坎坎糊 8 on a discard only when the discard completes the pair",
         FOUR_PUNGS, {"concealed_pungs": 8, "concealed": 1, "no_flowers": 1}, 10, 128, pay(z2=256, z3=-256),
         winning_tile="9m", **discard()),
    case("concealed_pungs_discard_completes_a_pung", "S, R: a claimed pung is no 暗刻: 對對糊",
         FOUR_PUNGS, {"all_pungs": 3, "concealed": 1, "no_flowers": 1}, 5, 24, pay(z2=48, z3=-48),
         winning_tile="1m", **discard()),
    case("concealed_pungs_self_draw_capped", "A, H, R, S 坎坎糊 8; C 「以10番為上限」: 11 clamps to 10",
         FOUR_PUNGS, {"concealed_pungs": 8, "concealed": 1, "no_flowers": 1, "self_draw": 1}, 10, 128,
         pay(z1=-128, z2=384, z3=-128, z4=-128), capped=True),
    # ---- [extras] ----
    case("dragon_pung", "A, C, E: 番子 1 each",
         "123m456p789s777z11m", {"chicken": 0, "dragon_pung": 1, "concealed": 1, "no_flowers": 1}, 3, 8,
         pay(z2=16, z3=-16), **discard()),
    case("double_east", "A, C: 雙番東, seat and prevalent wind both",
         "123m456p789s111z11m", {"chicken": 0, "seat_wind": 1, "prevalent_wind": 1, "concealed": 1,
                                 "no_flowers": 1}, 4, 16, pay(z1=32, z2=-32), seat_wind="1z", **discard("2z")),
    case("concealed_not_with_a_concealed_kong", "A 「沒有上、碰、槓（包括暗槓）」; C 「暗槓屬於明章」",
         "123m456p789s11z", {"chicken": 0, "dragon_pung": 1, "no_flowers": 1, "self_draw": 1}, 3, 8,
         pay(z1=-8, z2=24, z3=-8, z4=-8), melds=[kong("7777z")]),
    case("seat_flowers", "A, H: 正花 1 each, South's are 蘭 2f and 夏 6f",
         CHICKEN, {"chicken": 0, "concealed": 1, "seat_flower": 2, "self_draw": 1}, 4, 16,
         pay(z1=-16, z2=48, z3=-16, z4=-16), flowers="26f"),
    case("other_seats_flowers_are_worth_nothing", "A: only 正花 count; no 無花 once a flower is held",
         CHICKEN, {"chicken": 0, "concealed": 1, "self_draw": 1}, 2, 4, pay(z1=-4, z2=12, z3=-4, z4=-4),
         flowers="37f", options={"min_fan": 0}),
    case("flower_set_replaces_its_seat_flower", "A 「不再計同系列的正花」: 一台花 2, the season 夏 still 正花",
         CHICKEN, {"chicken": 0, "concealed": 1, "flower_set": 2, "seat_flower": 1, "self_draw": 1}, 5, 24,
         pay(z1=-24, z2=72, z3=-24, z4=-24), flowers="12346f"),
    # ---- [bonuses]: win circumstances ----
    case("kong_replacement", "A 「外加自摸另計共兩番」: 槓上開花 1 + 自摸 1",
         ELEVEN, {"chicken": 0, "no_flowers": 1, "self_draw": 1, "kong_replacement": 1}, 3, 8,
         pay(z1=-8, z2=24, z3=-8, z4=-8), melds=[kong("2222s")], special=["kong_replacement"]),
    case("double_kong_replacement", "P, S: 槓上槓 9 with the 自摸; it replaces 槓上開花",
         "123m456p11z", {"chicken": 0, "no_flowers": 1, "self_draw": 1, "double_kong_replacement": 8}, 10, 128,
         pay(z1=-128, z2=384, z3=-128, z4=-128), melds=[kong("2222s"), kong("3333s")],
         special=["kong_replacement", "double_kong_replacement"]),
    case("last_tile", "A, C, R, S: 海底撈月 1 (+ 自摸)",
         CHICKEN, {"chicken": 0, "concealed": 1, "no_flowers": 1, "self_draw": 1, "last_tile": 1}, 4, 16,
         pay(z1=-16, z2=48, z3=-16, z4=-16), special=["last_tile"]),
    case("last_discard_counts_nothing_by_default", "河底撈魚 \"is 1 on some tables\" (docs/RULES.md): 0 by default",
         ALL_CHOWS, {"all_chows": 1, "concealed": 1, "no_flowers": 1, "last_discard": 0}, 3, 8, pay(z2=16, z3=-16),
         special=["last_discard"], **discard()),
    case("last_discard_on_tables_that_count_it", "河底撈魚 1 on some tables: options.fans.last_discard",
         ALL_CHOWS, {"all_chows": 1, "concealed": 1, "no_flowers": 1, "last_discard": 1}, 4, 16, pay(z2=32, z3=-32),
         special=["last_discard"], options={"fans": {"last_discard": 1}}, **discard()),
    case("robbing_kong_is_no_self_draw_and_paid_as_a_discard", "R, A: 搶槓 1, no 自摸; A: the robbed player pays "
         "as a discard (全銃: 2 shares)",
         CHICKEN, {"chicken": 0, "concealed": 1, "no_flowers": 1, "robbing_kong": 1}, 3, 8, pay(z2=16, z3=-16),
         special=["robbing_kong"], **discard()),
    # ---- [specials]: 例牌, win circumstances still add, then the cap ----
    case("all_honours_with_self_draw_capped", "A 十番例牌; E: limit = min(cap, hand + winning condition)",
         ALL_HONOURS, {"all_honours": 10, "self_draw": 1}, 10, 128, pay(z1=-128, z2=384, z3=-128, z4=-128),
         capped=True, limit=True),
    case("all_terminals", "A, C, H: 清么九 10",
         ALL_TERMINALS, {"all_terminals": 10}, 10, 128, pay(z2=256, z3=-256), limit=True, **discard()),
    case("nine_gates_takes_no_self_draw", "A, C, H: 九子連環 10; R precedence: no 自摸",
         NINE_GATES, {"nine_gates": 10}, 10, 128, pay(z1=-128, z2=384, z3=-128, z4=-128), limit=True,
         options={"cap": 13}),
    case("thirteen_orphans_at_cap_13", "all sources: 十三么 13; with 自摸 14 clamps to 13 (E)",
         ORPHANS, {"thirteen_orphans": 13, "self_draw": 1}, 13, 384, pay(z1=-384, z2=1152, z3=-384, z4=-384),
         capped=True, limit=True, options={"cap": 13}),
    case("thirteen_orphans_at_the_default_cap", "C 「以10番為上限」",
         ORPHANS, {"thirteen_orphans": 13}, 10, 128, pay(z2=256, z3=-256), capped=True, limit=True, **discard()),
    case("big_winds", "A, H, R, S: 大四喜 13",
         BIG_WINDS, {"big_winds": 13}, 13, 384, pay(z2=768, z3=-768), limit=True, options={"cap": 13},
         **discard()),
    case("all_kongs", "A, H, R, S: 十八羅漢 13",
         "99m", {"all_kongs": 13, "self_draw": 1}, 13, 384, pay(z1=-384, z2=1152, z3=-384, z4=-384), capped=True,
         limit=True, melds=[kong("1111m"), kong("2222p"), kong("3333s"), kong("4444s")], options={"cap": 13}),
    case("heavenly", "A, H, R, S: 天糊 13, no 自摸",
         CHICKEN, {"heavenly": 13}, 13, 384, pay(z1=1152, z2=-384, z3=-384, z4=-384), limit=True,
         seat_wind="1z", special=["heavenly"], options={"cap": 13}),
    case("human_is_hk_earthly_hand", "H 「閒家食莊家第一張」: HK's 地糊 13",
         CHICKEN, {"human": 13}, 13, 384, pay(z1=-768, z2=768), limit=True, special=["human"],
         options={"cap": 13}, **discard("1z")),
    case("earthly_is_hk_human_hand", "A: 人糊 13 (「部份規例僅計三番」: options.fans)",
         CHICKEN, {"earthly": 13}, 13, 384, pay(z1=-384, z2=1152, z3=-384, z4=-384), limit=True,
         special=["earthly"], options={"cap": 13}),
    case("seven_flowers_on_13_tiles", "A 「計兩番加自摸一番」: 花糊 2 + 自摸, an instant win on any tiles",
         THIRTEEN, {"seven_flowers": 2, "self_draw": 1}, 3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), limit=True,
         flowers="1234567f"),
    case("eight_flowers_on_13_tiles", "A 「計八番自摸」: 八仙過海 8, the 自摸 included",
         THIRTEEN, {"eight_flowers": 8}, 8, 64, pay(z1=-64, z2=192, z3=-64, z4=-64), limit=True,
         flowers="12345678f"),
    case("seven_flowers_on_a_complete_hand_takes_the_better", "A: 花糊 is worth 3; the complete hand scores more",
         FOUR_PUNGS, {"concealed_pungs": 8, "concealed": 1, "flower_set": 2, "seat_flower": 1, "self_draw": 1}, 10,
         128, pay(z1=-128, z2=384, z3=-128, z4=-128), capped=True, flowers="2345678f"),
]


@pytest.mark.parametrize(("request_", "fans", "total", "points", "payments", "capped", "limit", "liable", "source"),
                         CASES)
def test_hongkong_row(request_, fans, total, points, payments, capped, limit, liable, source) -> None:
    response = score(request_)
    assert {item["id"]: item["fan"] for item in response["fans"]} == fans, source
    assert len(response["fans"]) == len(fans)
    assert (response["fan_total"], response["points"]) == (total, points), source
    assert (response["capped"], response["limit"]) == (capped, limit)
    assert response["payments"] == payments, source
    assert response["liable"] == liable
    assert sum(response["payments"].values()) == 0


# ---- the points table (A, C 「分數按100底半辣上計算」, Y, R, S) ----

HALF_SPICY = [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]
FULL_SPICY = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]


@pytest.mark.parametrize(("spicy", "table"), [("half", HALF_SPICY), ("full", FULL_SPICY)])
def test_points_table(spicy, table) -> None:
    """A 「傳統蔴雀以四番為滿糊，隨後以半辣上，每兩番先至跳一倍」; 辣辣上 doubles every faan."""
    ruleset = rules.load("hongkong", {"spicy": spicy})
    assert [ruleset.points_of(fan) for fan in range(14)] == table


def test_stake_unit_is_one_share() -> None:
    """A, Y: 二五雞 is a chicken share of 0.25; one share = T x stake.unit."""
    response = score({**request(CHICKEN), "context": {"seat_wind": "2z", "stake": {"unit": 0.25}}})
    assert response["payments"] == pay(z1=-2, z2=6, z3=-2, z4=-2)


# ---- each option both ways: (option, its default's outcome, the other value's outcome) ----

def outcome(req: dict) -> tuple:
    """(fan total, points, payments, liable), or the refusal's code."""
    try:
        response = score(req)
    except ScoringError as error:
        return (error.code,)
    return response["fan_total"], response["points"], response["payments"], response["liable"]


PUNG_FROM_3 = meld("pung", "777z")  # a claimed 番子: no 門前清
EXPOSED_FOUR = [meld("chow", "123m", "1z"), meld("pung", "555s", "3z"), meld("pung", "777z", "4z"),
                meld("chow", "789s", "1z")]  # 十二張落地: the fourth meld was fed by East
OPTION_ROWS = [
    # option, other value, request, outcome at the default, outcome with the other value, source
    ("cap", 13, request(ORPHANS, **discard()), (10, 128, pay(z2=256, z3=-256), None),
     (13, 384, pay(z2=768, z3=-768), None), "C 「以10番為上限」; E, Y, R, P, S 13"),
    ("cap", 8, request(ORPHANS, **discard()), (10, 128, pay(z2=256, z3=-256), None),
     (8, 64, pay(z2=128, z3=-128), None), "H 「設定最多是八番或十番」"),
    ("min_fan", 1, request(ELEVEN, melds=[meld("pung", "555s")], **discard()), ("below_minimum_fan",),
     (1, 2, pay(z2=4, z3=-4), None), "A 「三番起糊」; tables play 0 or 1"),
    ("min_fan", 0, request(ELEVEN, melds=[meld("pung", "555s")], flowers="3f", **discard()),
     ("below_minimum_fan",), (0, 1, pay(z2=2, z3=-2), None), "A 「三番起糊」"),
    ("bonus_count_to_min", False, request(ELEVEN, melds=[PUNG_FROM_3], flowers="26f", **discard()),
     (3, 8, pay(z2=16, z3=-16), None), ("below_minimum_fan",),
     "R, P, S count 正花 toward the minimum; E: \"bonus tiles … are not included in the minimum\""),
    ("spicy", "full", request(BIG_DRAGONS, **discard()), (10, 128, pay(z2=256, z3=-256), None),
     (10, 1024, pay(z2=2048, z3=-2048), None), "A, C 半辣上; 辣辣上 doubles"),
    ("discard_payment", "half", request(ALL_CHOWS, **discard()), (3, 8, pay(z2=16, z3=-16), None),
     (3, 8, pay(z1=-4, z2=16, z3=-8, z4=-4), None), "A/D 半銃: the discarder 1 share, the others ½ each"),
    ("seven_pairs", True, request(SEVEN_PAIRS, **discard()), ("not_winning",),
     (6, 32, pay(z2=64, z3=-64), None), "L/A 「並唔係標準清章牌型」; R, S 七對 4"),
    ("all_chows_suited_pair", True, request(ALL_CHOWS, **discard()), (3, 8, pay(z2=16, z3=-16), None),
     ("below_minimum_fan",), "A, C: 平糊 any pair; E: a suited pair"),
    ("concealed_kong_ok", True, request(ELEVEN, melds=[kong("7777z")]), (3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
     (4, 16, pay(z1=-16, z2=48, z3=-16, z4=-16), None), "A 「包括暗槓」; R: a concealed kong keeps 門前清"),
    ("flowers", False, request(CHICKEN, flowers="2f"), (3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
     ("not_allowed",), "A, E, H 「一副麻將有144隻」; false: 136 tiles"),
    ("flowers", False, request(CHICKEN, options={"min_fan": 0}), (3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
     (2, 4, pay(z1=-4, z2=12, z3=-4, z4=-4), None), "無花 only where flowers are played"),
    ("chow", False, request(ELEVEN, melds=[meld("chow", "345s", "1z")], flowers="2f"),
     (3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), None), ("not_allowed",), "E, R: chow from the left player only"),
    ("discard_win", False, request(ALL_CHOWS, **discard()), (3, 8, pay(z2=16, z3=-16), None), ("not_allowed",),
     "A, E: 食糊 on a discard"),
    ("multi_win", False, request(ALL_CHOWS, special=["multi_win"], **discard()), (3, 8, pay(z2=16, z3=-16), None),
     ("not_allowed",), "A: 一炮多響 (no faan); false: 截糊"),
    ("liability_twelve_tiles", False, request("11p", melds=EXPOSED_FOUR),
     (3, 8, pay(z1=-24, z2=24), "1z"), (3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
     "A, C 「十二章包」: the feeder of the fourth meld pays the whole self-draw"),
    ("liability_big_hands", False, request("123m11p", melds=[meld("pung", "555z", "4z"), meld("pung", "666z", "4z"),
                                                             meld("pung", "777z", "1z")]),
     (10, 128, pay(z1=-384, z2=384), "1z"), (10, 128, pay(z1=-128, z2=384, z3=-128, z4=-128), None),
     "A 「中發白落地包自摸」, C 「大三元包」"),
    ("liability_nine_tiles_flush", True, request("11m", melds=[meld("chow", "123m", "1z"), meld("pung", "555m", "3z"),
                                                               meld("pung", "777m", "4z"), meld("chow", "789m", "1z")],
                                                 options={"liability_twelve_tiles": False}),
     (9, 96, pay(z1=-96, z2=288, z3=-96, z4=-96), None), (9, 96, pay(z1=-288, z2=288), "1z"),
     "A, uptogo: 清一色 九張落地, the fourth meld's feeder pays"),
    ("liability_kong_replacement", True, request(ELEVEN, melds=[meld("kong", "2222s", "3z")], flowers="2f",
                                                 special=["kong_replacement"]),
     (3, 8, pay(z1=-8, z2=24, z3=-8, z4=-8), None), (3, 8, pay(z2=24, z3=-24), "3z"),
     "A \"some tables\": 槓上開花 on a 明槓, the kong's discarder pays all"),
    ("robbing_kong_pays", "self_draw", request(CHICKEN, special=["robbing_kong"], **discard()),
     (3, 8, pay(z2=16, z3=-16), None), (3, 8, pay(z2=24, z3=-24), "3z"),
     "A: paid as a discard; C 搶槓當自摸, the robbed player pays three shares"),
]


@pytest.mark.parametrize(("option", "value", "req", "default", "other", "source"), OPTION_ROWS,
                         ids=[f"{r[0]}={r[1]}" for r in OPTION_ROWS])
def test_option_both_ways(option, value, req, default, other, source) -> None:
    assert outcome(req) == default, source
    assert outcome({**req, "options": {**req.get("options", {}), option: value}}) == other, source


def test_every_option_of_the_section_is_in_the_file() -> None:
    """docs/RULES.md rule set 5 "Options": every option with its documented default."""
    assert {key: value for key, value in rules.load("hongkong").options.items() if not key.startswith("horse")} == {
        "cap": 10, "min_fan": 3, "chow": True, "discard_win": True, "flowers": True, "seven_pairs": False,
        "seven_pairs_quads": True, "all_chows_suited_pair": False, "ghosts": "none", "multi_win": True,
        "liability_twelve_tiles": True, "liability_big_hands": True, "spicy": "half", "discard_payment": "full",
        "bonus_count_to_min": True, "concealed_kong_ok": False, "liability_nine_tiles_flush": False,
        "liability_kong_replacement": False, "robbing_kong_pays": "discard", "rotation_draw": "dealer_stays"}
    assert rules.load("hongkong").options["horses"] is False


def test_half_responsibility_multi_win_and_robbing_kong() -> None:
    """半銃 under 搶槓 paid as a discard: the robbed player pays one share, the others half each (A)."""
    response = score(request(CHICKEN, special=["robbing_kong"], options={"discard_payment": "half"}, **discard()))
    assert response["payments"] == pay(z1=-4, z2=16, z3=-8, z4=-4)


def test_names_are_traditional_with_糊() -> None:
    """Traditional names as Hong Kong players say them; HK's 地糊 is the project's `human`, 人糊 its `earthly`."""
    names = rules.load("hongkong").names
    named = (names["human"], names["earthly"], names["chicken"], names["all_pungs"])
    assert named == ("地糊", "人糊", "雞糊", "對對糊")
    assert not any("胡" in zh for zh in names.values())
    response = score(request(CHICKEN, special=["human"], options={"cap": 13}, **discard("1z")))
    assert response["fans"][0]["zh"] == "地糊"
    assert response["ruleset_names"] == {"zh": "香港舊章", "en": "Hong Kong old style"}


@pytest.mark.parametrize(("hand", "message"), [
    (request(ELEVEN, melds=[kong("2222s")], special=["double_kong_replacement"]), "needs 2 kong"),
    (request(THIRTEEN, flowers="1234567f", **discard()), "小相公"),  # an instant win is self-drawn
    (request(THIRTEEN, flowers="123456f"), "小相公"),  # six flowers: no instant win
    (request(CHICKEN, special=["last_discard"]), "only with win 'discard'"),
])
def test_refusals(hand, message) -> None:
    with pytest.raises(ScoringError, match=message):
        score(hand)


@pytest.mark.parametrize(("rotation_draw", "dealers"), [("dealer_stays", [0, 1, 1, 1]), ("next_deals", [0, 1, 2, 2])])
def test_who_deals_after_a_draw(rotation_draw, dealers) -> None:
    """L: the dealer keeps the deal on a draw; C passes it (option rotation_draw). A non-dealer's win passes the deal
    either way, a dealer's win keeps it."""
    setup = check_setup("hongkong", {"rotation_draw": rotation_draw}, ["Ann", "Bo", "Cai", "Dee"], {})
    chicken = {"hand": {"concealed": CHICKEN}}
    hands = [{"kind": "win", "discarder": None, "wins": [{"winner": 1, "request": chicken}]}, {"kind": "draw"},
             {"kind": "win", "discarder": None, "wins": [{"winner": dealers[2], "request": chicken}]},
             {"kind": "draw"}]
    replayed = replay(setup, hands)
    assert [hand["dealer"] for hand in replayed["hands"]] == dealers


def test_a_file_names_the_deal_after_a_draw_once() -> None:
    raw = {"name": "x", "zh": "x", "en": "x", "points": "doubling", "options": {"rotation_draw": "next_deals"},
           "rotation": {"draw": "dealer_stays"}}
    with pytest.raises(ValueError, match="option rotation_draw chooses it"):
        rules._check_file("x", raw)


def test_the_hk_model_needs_its_options() -> None:
    with pytest.raises(ValueError, match="options.spicy: the hk points model needs it"):
        rules._check_file("x", {"name": "x", "zh": "x", "en": "x", "points": "hk", "options": {
            "discard_payment": "full"}})


def test_random_hands_square_and_stay_under_the_cap() -> None:
    """300 random hongkong requests (the synthetic corpus): the payments sum to zero, the total never passes the cap
    (clamped after every item), and every item is named in Traditional with 糊."""
    from fanshot.datasets.synth.hands import corpus

    for req in corpus(300, 3, "hongkong"):
        response = score(req)
        assert sum(response["payments"].values()) == -4 * response["fees"]["1z"], req
        assert response["fan_total"] <= response["options"]["cap"], req
        assert all("胡" not in item["zh"] for item in response["fans"]), req
