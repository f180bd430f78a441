"""Every row of every table in docs/RULES.md, for all four rule sets: fan values, caps, extras only within the cap,
special hands not stacking, special-win floors, first-turn wins, min_fan, tuidaohu units / doublers / 满鬼 /
ghosts / horses, qianggang 番. Payments are in test_settle.py, qianggang money in test_qianggang.py."""

from __future__ import annotations

import pytest

from fanshot.scoring import ScoringError, score, tiles

CHICKEN = "123m456p789s555s11z"  # 鸡胡: mixed suits, one pung that is no wind or dragon
ELEVEN = "123m456p789s11z"  # beside a kong
ALL_CHOWS = "123m456p789s234s11z"
ALL_PUNGS = "111m222p333s444s99m"
HALF_FLUSH = "123m456m789m333z11z"  # one chow suit plus honours (a West pung: no wind extra for South seat)
HALF_FLUSH_CHOWS = "123m456m789m234m11z"
FULL_FLUSH = "123m456m789m234m11m"
MIXED_PUNGS = "111m333m555m333z22z"
PURE_PUNGS = "111m333m555m777m99m"
MIXED_TERMINALS = "111m999m111p333z22z"
LITTLE_DRAGONS = "555z666z77z123m456p"
LITTLE_WINDS = "111z333z444z22z123m"
ALL_HONOURS = "111z333z555z666z22z"
ALL_TERMINALS = "111m999m111p999p11s"
BIG_DRAGONS = "555z666z777z123m11p"
BIG_WINDS = "111z222z333z444z11m"
NINE_GATES = "11123456789999m"
NINE_GATES_5 = "11123455678999m"
ORPHANS = "19m19p19s1234567z1m"
SEVEN_PAIRS = "1122m3344p5566s77z"

DISCARD = {"win": "discard", "discarder": "3z", "seat_wind": "2z"}  # South wins on West's discard, East round
SELF = {"seat_wind": "2z"}


def concealed_kong(tiles: str) -> dict:
    return {"kind": "kong", "tiles": tiles, "concealed": True}


def row(rid: str, ruleset: str, concealed: str, fans: dict[str, int], total: int, points, *, melds=(),
        options=None, capped: bool = False, limit: bool = False, bug: str | None = None, **context):
    request = {"ruleset": ruleset, "hand": {"concealed": concealed, "melds": list(melds)},
               "context": context or dict(DISCARD)}
    if options:
        request["options"] = options
    marks = [pytest.mark.xfail(reason=bug, strict=True)] if bug else []
    return pytest.param(request, fans, total, capped, limit, points, id=f"{ruleset}-{rid}", marks=marks)


def check(request, fans, total, capped, limit, points) -> dict:
    response = score(request)
    got = {item["id"]: item["fan"] for item in response["fans"]}
    assert got == fans
    assert len(response["fans"]) == len(fans)
    assert response["fan_total"] == total
    assert response["capped"] is capped
    assert response["limit"] is limit
    assert response["points"] == points
    for item in response["fans"]:
        assert item["zh"] and item["zh_hant"] and item["en"]  # every item names itself in both scripts and English
    return response


J, X, T, Q = "jipinghu", "xinzhang", "tuidaohu", "qianggang"
S = dict(SELF)

JIPINGHU = [
    # within-cap hand types (seed table), additive, clamped to the cap of 3
    row("chicken", J, CHICKEN, {"chicken": 0}, 0, 1),
    row("all_chows", J, ALL_CHOWS, {"all_chows": 1}, 1, 2),
    row("all_chows_honour_pair_default", J, "123m456p789s234s55z", {"all_chows": 1}, 1, 2),
    row("all_chows_suited_pair_option_refuses_honour_pair", J, ALL_CHOWS, {"chicken": 0}, 0, 1,
        options={"all_chows_suited_pair": True}),
    row("all_chows_suited_pair_option_suited_pair", J, "123m456p789s234s99m", {"all_chows": 1}, 1, 2,
        options={"all_chows_suited_pair": True}),
    row("all_pungs", J, ALL_PUNGS, {"all_pungs": 2}, 2, 4),
    row("all_pungs_with_kong", J, "222p333s444s99m", {"all_pungs": 2}, 2, 4,
        melds=[{"kind": "kong", "tiles": "1111m", "fed_by": "3z"}]),
    row("half_flush", J, HALF_FLUSH, {"half_flush": 2}, 2, 4),
    row("half_flush_plus_all_chows", J, HALF_FLUSH_CHOWS, {"half_flush": 2, "all_chows": 1}, 3, 8),
    # extras 附加
    row("self_draw", J, CHICKEN, {"chicken": 0, "self_draw": 1}, 1, 2, **S),
    row("seat_wind", J, "123m456p789s222z11m", {"chicken": 0, "seat_wind": 1}, 1, 2),
    row("prevalent_wind", J, "123m456p789s111z11m", {"chicken": 0, "prevalent_wind": 1}, 1, 2),
    row("seat_is_prevalent_both_count", J, "123m456p789s222z11m", {"chicken": 0, "seat_wind": 1,
                                                                     "prevalent_wind": 1}, 2, 4,
        win="discard", discarder="3z", seat_wind="2z", prevalent_wind="2z"),
    row("wind_pair_is_no_pung", J, "123m456p789s555s22z", {"chicken": 0}, 0, 1),
    row("dragon_pung_each", J, "123m456p555z777z11m", {"chicken": 0, "dragon_pung": 2}, 2, 4),
    row("dragon_kong_counts", J, "123m456p555z11m", {"chicken": 0, "dragon_pung": 2}, 2, 4,
        melds=[{"kind": "kong", "tiles": "7777z", "fed_by": "3z"}]),
    # the cap: hand types and extras together never pass 3
    row("cap_hands_and_self_draw", J, HALF_FLUSH_CHOWS, {"half_flush": 2, "all_chows": 1, "self_draw": 1}, 3, 8,
        capped=True, **S),
    row("cap_extras_never_past_cap", J, "123m456m555z666z11m", {"half_flush": 2, "dragon_pung": 2}, 3, 8,
        capped=True),
    row("cap_exactly_reached_not_capped", J, "123m456m789m555z11z", {"half_flush": 2, "dragon_pung": 1}, 3, 8),
    # special hands 特殊牌型: beyond the cap, no extras
    row("full_flush", J, FULL_FLUSH, {"full_flush": 4}, 4, 16, limit=True),
    row("full_flush_self_draw_no_extra", J, FULL_FLUSH, {"full_flush": 4}, 4, 16, limit=True, **S),
    row("mixed_pungs", J, MIXED_PUNGS, {"mixed_pungs": 4}, 4, 16, limit=True),
    row("pure_pungs", J, PURE_PUNGS, {"pure_pungs": 5}, 5, 32, limit=True),
    row("pure_pungs_self_draw", J, PURE_PUNGS, {"pure_pungs": 5}, 5, 32, limit=True, **S),
    row("mixed_terminals", J, MIXED_TERMINALS, {"mixed_terminals": 5}, 5, 32, limit=True),
    row("little_dragons", J, LITTLE_DRAGONS, {"little_dragons": 5}, 5, 32, limit=True),
    row("little_winds", J, LITTLE_WINDS, {"little_winds": 5}, 5, 32, limit=True),
    row("all_honours", J, ALL_HONOURS, {"all_honours": 6}, 6, 64, limit=True),
    row("all_terminals", J, ALL_TERMINALS, {"all_terminals": 6}, 6, 64, limit=True),
    row("big_dragons", J, BIG_DRAGONS, {"big_dragons": 6}, 6, 64, limit=True),
    row("big_dragons_self_draw_no_extras", J, BIG_DRAGONS, {"big_dragons": 6}, 6, 64, limit=True, **S),
    row("big_winds", J, BIG_WINDS, {"big_winds": 6}, 6, 64, limit=True),
    row("nine_gates", J, NINE_GATES, {"nine_gates": 6}, 6, 64, limit=True),
    row("nine_gates_middle_tile", J, NINE_GATES_5, {"nine_gates": 6}, 6, 64, limit=True),
    row("nine_gates_needs_concealed", J, "23455678999m",
        {"full_flush": 4}, 4, 16, limit=True, melds=[{"kind": "pung", "tiles": "111m", "fed_by": "1z"}]),
    row("thirteen_orphans", J, ORPHANS, {"thirteen_orphans": 6}, 6, 64, limit=True),
    # special wins: under 3 fan counts as 3; a larger hand counts as it is
    row("kong_replacement_floor", J, ELEVEN, {"chicken": 0, "self_draw": 1, "kong_replacement": 3}, 3, 8,
        melds=[concealed_kong("2222s")], special=["kong_replacement"], **S),
    # ... and then lists no floor item: the items explain the total
    row("kong_replacement_larger_hand", J, "111m234m567m99m", {"full_flush": 4}, 4, 16,
        limit=True, melds=[concealed_kong("8888m")], special=["kong_replacement"], **S),
    row("last_tile_floor", J, CHICKEN, {"chicken": 0, "self_draw": 1, "last_tile": 3}, 3, 8,
        special=["last_tile"], **S),
    row("last_tile_at_floor_after_cap", J, HALF_FLUSH_CHOWS, {"half_flush": 2, "all_chows": 1, "self_draw": 1},
        3, 8, capped=True, special=["last_tile"], **S),
    row("robbing_kong_floor_counts_as_self_draw", J, CHICKEN, {"chicken": 0, "self_draw": 1, "robbing_kong": 3},
        3, 8, special=["robbing_kong"], **DISCARD),
    row("robbing_kong_larger_hand", J, FULL_FLUSH, {"full_flush": 4}, 4, 16, limit=True, special=["robbing_kong"],
        **DISCARD),
    row("multi_win_floor", J, CHICKEN, {"chicken": 0, "multi_win": 3}, 3, 8, special=["multi_win"], **DISCARD),
    row("multi_win_at_floor", J, HALF_FLUSH_CHOWS, {"half_flush": 2, "all_chows": 1}, 3, 8,
        special=["multi_win"], **DISCARD),
    row("multi_win_larger_hand", J, PURE_PUNGS, {"pure_pungs": 5}, 5, 32, limit=True,
        special=["multi_win"], **DISCARD),
    # first-turn wins: 6 fan
    row("heavenly", J, CHICKEN, {"heavenly": 6}, 6, 64, limit=True, seat_wind="1z", special=["heavenly"]),
    row("earthly", J, CHICKEN, {"earthly": 6}, 6, 64, limit=True, seat_wind="3z", special=["earthly"]),
    row("human", J, CHICKEN, {"human": 6}, 6, 64, limit=True, win="discard", discarder="1z", seat_wind="4z",
        special=["human"]),
    row("seven_pairs_option", J, SEVEN_PAIRS, {"seven_pairs": 0}, 0, 1, options={"seven_pairs": True}),
    # 鸡平胡 has no ghost tiles (issue 35); a house that plays them sets a ghost mode: 9p stands in for the missing 2m
    row("named_ghost_plays_with_a_mode", J, "13m456p789s555s11z9p", {"chicken": 0, "self_draw": 1}, 1, 2,
        ghosts="9p", options={"ghosts": "flip"}, **S),
    row("seven_pairs_option_quads", J, "1111m3344p5566s77z", {"seven_pairs": 0}, 0, 1,
        options={"seven_pairs": True}),
]

XINZHANG = [
    # seed table: 鸡糊 0, 平胡 1, 碰碰胡 3, 混一色 3 (min_fan 0 to see the small ones)
    row("chicken", X, CHICKEN, {"chicken": 0}, 0, 1, options={"min_fan": 0}),
    row("all_chows", X, ALL_CHOWS, {"all_chows": 1}, 1, 2, options={"min_fan": 0}),
    row("all_pungs", X, ALL_PUNGS, {"all_pungs": 3}, 3, 8),
    row("half_flush", X, HALF_FLUSH, {"half_flush": 3}, 3, 8),
    # extras as in jipinghu
    row("self_seat_prevalent", X, "123m456p789s222z11m", {"chicken": 0, "self_draw": 1, "seat_wind": 1,
                                                          "prevalent_wind": 1}, 3, 8,
        seat_wind="2z", prevalent_wind="2z"),
    row("dragon_pungs_self_draw", X, "123m456p555z777z11m", {"chicken": 0, "dragon_pung": 2, "self_draw": 1},
        3, 8, **S),
    # the cap of 5
    row("cap", X, "123m456m555z666z11m", {"half_flush": 3, "dragon_pung": 2, "self_draw": 1}, 5, 32,
        capped=True, **S),
    row("half_flush_all_pungs_capped", X, MIXED_PUNGS, {"half_flush": 3, "all_pungs": 3}, 5, 32, capped=True),
    row("half_flush_all_chows_self_draw_at_cap", X, HALF_FLUSH_CHOWS,
        {"half_flush": 3, "all_chows": 1, "self_draw": 1}, 5, 32, **S),
    # 清一色 5 at the cap; special hands break the cap by +1/+2/+3 and do not stack
    row("full_flush", X, FULL_FLUSH, {"full_flush": 5}, 5, 32, limit=True),
    row("full_flush_self_draw", X, FULL_FLUSH, {"full_flush": 5}, 5, 32, limit=True, **S),
    row("little_dragons", X, LITTLE_DRAGONS, {"little_dragons": 6}, 6, 64, limit=True),
    row("little_winds", X, LITTLE_WINDS, {"little_winds": 6}, 6, 64, limit=True),
    row("big_dragons", X, BIG_DRAGONS, {"big_dragons": 7}, 7, 128, limit=True),
    row("all_honours", X, ALL_HONOURS, {"all_honours": 7}, 7, 128, limit=True),
    row("all_terminals", X, ALL_TERMINALS, {"all_terminals": 7}, 7, 128, limit=True),
    row("big_winds", X, BIG_WINDS, {"big_winds": 8}, 8, 256, limit=True),
    row("nine_gates", X, NINE_GATES, {"nine_gates": 8}, 8, 256, limit=True),
    row("thirteen_orphans", X, ORPHANS, {"thirteen_orphans": 8}, 8, 256, limit=True),
    row("cap_option_moves_specials", X, LITTLE_DRAGONS, {"little_dragons": 5}, 5, 32, limit=True,
        options={"cap": 4}),
    row("cap_option_moves_full_flush", X, FULL_FLUSH, {"full_flush": 4}, 4, 16, limit=True, options={"cap": 4}),
    row("cap_option_clamps_hands", X, MIXED_PUNGS, {"half_flush": 3, "all_pungs": 3}, 4, 16, capped=True,
        options={"cap": 4}),
    # first-turn wins 6, special-win floors 3 (reach min_fan 3)
    row("heavenly", X, CHICKEN, {"heavenly": 6}, 6, 64, limit=True, seat_wind="1z", special=["heavenly"]),
    row("earthly", X, CHICKEN, {"earthly": 6}, 6, 64, limit=True, seat_wind="2z", special=["earthly"]),
    row("human", X, CHICKEN, {"human": 6}, 6, 64, limit=True, win="discard", discarder="1z", seat_wind="2z",
        special=["human"]),
    row("kong_replacement_floor", X, ELEVEN, {"chicken": 0, "self_draw": 1, "kong_replacement": 3}, 3, 8,
        melds=[concealed_kong("2222s")], special=["kong_replacement"], **S),
    row("multi_win_floor", X, CHICKEN, {"chicken": 0, "multi_win": 3}, 3, 8, special=["multi_win"], **DISCARD),
    row("min_fan_1_self_drawn_chicken", X, CHICKEN, {"chicken": 0, "self_draw": 1}, 1, 2,
        options={"min_fan": 1}, **S),
]

TUIDAOHU = [
    # every self-drawn win 平胡 = 1 unit
    row("plain_win_one_unit", T, "123m456p789s123m55z", {"plain_win": 0}, 0, 1, **S),
    # 大胡 x2: each big hand on the default list; they do not stack with each other
    row("seven_pairs", T, SEVEN_PAIRS, {"seven_pairs": 1}, 1, 2, limit=True, **S),
    row("all_pungs", T, ALL_PUNGS, {"all_pungs": 1}, 1, 2, limit=True, **S),
    row("full_flush", T, FULL_FLUSH, {"full_flush": 1}, 1, 2, limit=True, **S),
    row("all_honours", T, ALL_HONOURS, {"all_honours": 1}, 1, 2, limit=True, **S),
    row("thirteen_orphans", T, ORPHANS, {"thirteen_orphans": 1}, 1, 2, limit=True, **S),
    row("big_dragons", T, BIG_DRAGONS, {"big_dragons": 1}, 1, 2, limit=True, **S),
    row("big_winds", T, BIG_WINDS, {"big_winds": 1}, 1, 2, limit=True, **S),
    row("little_winds", T, LITTLE_WINDS, {"little_winds": 1}, 1, 2, limit=True, **S),
    row("all_terminals", T, ALL_TERMINALS, {"all_terminals": 1}, 1, 2, limit=True, **S),
    # not on the default list: a half flush or 小三元 is a plain win
    row("half_flush_is_plain", T, HALF_FLUSH, {"plain_win": 0}, 0, 1, **S),
    row("little_dragons_is_plain", T, LITTLE_DRAGONS, {"plain_win": 0}, 0, 1, **S),
    # doublers: 无鬼 x2 (ghosts in play, none held), 杠上开花 x2; they stack with a big hand
    row("no_ghost", T, "123m456p789s123m66z", {"plain_win": 0, "no_ghost": 1}, 1, 2, options={"ghosts": "white"}, **S),
    row("no_ghost_big_hand", T, "111m222p333s444m66z", {"all_pungs": 1, "no_ghost": 1}, 2, 4, limit=True,
        options={"ghosts": "white"}, **S),
    row("no_ghost_needs_ghosts_in_play", T, "123m456p789s123m66z", {"plain_win": 0}, 0, 1, **S),
    row("ghost_held_no_doubler", T, "123m456p789s123m6z5z", {"plain_win": 0}, 0, 1, options={"ghosts": "white"}, **S),
    row("kong_replacement", T, ELEVEN, {"plain_win": 0, "kong_replacement": 1}, 1, 2, melds=[concealed_kong("2222s")],
        special=["kong_replacement"], **S),
    row("all_doublers_stack", T, "111m222p333s66z", {"all_pungs": 1, "no_ghost": 1, "kong_replacement": 1}, 3, 8,
        limit=True, melds=[concealed_kong("4444m")], options={"ghosts": "white"}, special=["kong_replacement"], **S),
    # ghosts take the value that scores best
    row("ghost_completes_big_hand", T, "111m222p333s44m99s5z", {"all_pungs": 1}, 1, 2, limit=True,
        options={"ghosts": "white"}, **S),
    row("ghost_in_seven_pairs", T, "1122m3344p5566s7z5z", {"seven_pairs": 1}, 1, 2, limit=True,
        options={"ghosts": "white"}, **S),
    row("ghost_in_thirteen_orphans", T, "19m19p19s123467z1m5z", {"thirteen_orphans": 1}, 1, 2, limit=True,
        options={"ghosts": "white"}, **S),
    row("flip_ghost_names_tile", T, "12m456p789s555z11z3m", {"plain_win": 0}, 0, 1, options={"ghosts": "flip"},
        ghosts="3m", **S),
    row("flip_white_is_plain_tile_no_ghost", T, "111m222p444s555z11z", {"all_pungs": 1, "no_ghost": 1}, 2, 4,
        limit=True, options={"ghosts": "flip"}, ghosts="3m", **S),
    row("flip2_two_ghosts", T, "12m456p789s555z1z3m7m", {"plain_win": 0}, 0, 1, options={"ghosts": "flip2"},
        ghosts="3m7m", **S),
    # a context that names ghost tiles plays with them, whatever options.ghosts says (docs/RULES.md rule set 2; seed
    # 000: 「鬼牌：也就是赖子的意思，换种说法就是任意牌或者万能牌」): 9p stands in for the missing 2m ...
    row("named_ghost_plays_without_option", T, "13m456p789s555z11z9p", {"plain_win": 0}, 0, 1, ghosts="9p", **S),
    # ... and 「无鬼：X2，胡牌时手中无鬼牌」: ghosts are in play, the hand holds none
    row("named_ghost_no_ghost_doubler", T, "111m222p444s555z11z", {"all_pungs": 1, "no_ghost": 1}, 2, 4,
        limit=True, ghosts="3m", **S),
    row("named_two_ghosts_without_option", T, "12m456p789s555z1z3m7m", {"plain_win": 0}, 0, 1, ghosts="3m7m", **S),
    # 满鬼: four ghosts is an instant win worth 6
    row("four_ghosts_white", T, "5555z123m456p789s1m", {"four_ghosts": 6}, 0, 6, limit=True,
        options={"ghosts": "white"}, **S),
    row("four_ghosts_flip", T, "5555m123p456s789s1z", {"four_ghosts": 6}, 0, 6, limit=True,
        options={"ghosts": "flip"}, ghosts="5m", **S),
    row("four_ghosts_flip2_mixed", T, "55m77m123p456s789s1z", {"four_ghosts": 6}, 0, 6, limit=True,
        options={"ghosts": "flip2"}, ghosts="5m7m", **S),
    row("four_ghosts_any_shape", T, "5555z13m2p6p9p1s5s9s1z2z", {"four_ghosts": 6}, 0, 6, limit=True,
        options={"ghosts": "white"}, **S),
    # 抢杠 counts as self-draw in a self-draw-only rule set
    row("robbing_kong", T, CHICKEN, {"plain_win": 0}, 0, 1, special=["robbing_kong"], **DISCARD),
]

QIANGGANG = [
    # 番 (seed 003 line 33: 「番是2倍的意思」): 鸡胡 0, 杂色 1, 清一色 2, 大哥 (碰碰胡) 3, 十三幺 4 (docs/RULES.md)
    row("chicken", Q, CHICKEN, {"chicken": 0}, 0, 1),
    row("half_flush", Q, HALF_FLUSH, {"half_flush": 1}, 1, 2),
    row("full_flush", Q, FULL_FLUSH, {"full_flush": 2}, 2, 4),
    row("all_pungs_da_ge", Q, ALL_PUNGS, {"all_pungs": 3}, 3, 8),
    row("thirteen_orphans", Q, ORPHANS, {"thirteen_orphans": 4}, 4, 16, limit=True),
    # 爆胡 3 番: 杂色 + 大哥 clamp to the cap
    row("half_flush_pungs_capped", Q, MIXED_PUNGS, {"half_flush": 1, "all_pungs": 3}, 3, 8, capped=True),
    row("all_chows_is_chicken", Q, ALL_CHOWS, {"chicken": 0}, 0, 1),  # no 平胡 in the seed's hand order
    row("self_draw", Q, CHICKEN, {"chicken": 0, "self_draw": 1}, 1, 2, **S),
    row("fan_option", Q, HALF_FLUSH, {"half_flush": 2}, 2, 4, options={"fans": {"half_flush": 2}}),
    row("cap_option", Q, MIXED_PUNGS, {"half_flush": 1, "all_pungs": 3}, 4, 16, options={"cap": 5}),
    # the stake numbers change the money (test_qianggang.py), not the 番
    row("stake_10_20_30", Q, HALF_FLUSH, {"half_flush": 1}, 1, 2,
        win="discard", discarder="3z", seat_wind="2z", stake={"flower": 10, "kong": 20, "chicken": 30}),
    row("stake_3_fives", Q, FULL_FLUSH, {"full_flush": 2}, 2, 4,
        win="discard", discarder="3z", seat_wind="2z", stake={"flower": 5, "kong": 5, "chicken": 5}),
]


@pytest.mark.parametrize(("request_", "fans", "total", "capped", "limit", "points"),
                         JIPINGHU + XINZHANG + TUIDAOHU + QIANGGANG)
def test_table_row(request_, fans, total, capped, limit, points) -> None:
    check(request_, fans, total, capped, limit, points)


# ---- special hands do not stack: one item, the highest value ----------------------------------------------------

NO_STACK_ROWS = [
    # (id, ruleset, concealed, fan_total, points)
    ("jipinghu-big_winds_all_honours", J, "111z222z333z444z55z", 6, 64),
    ("jipinghu-big_dragons_all_honours", J, "555z666z777z111z22z", 6, 64),
    ("jipinghu-little_winds_all_honours", J, "111z222z333z44z555z", 6, 64),
    ("jipinghu-all_terminals_pure_pungs", J, "111m999m111p999p11s", 6, 64),
    ("jipinghu-thirteen_orphans_not_mixed_terminals", J, ORPHANS, 6, 64),
    ("xinzhang-big_winds_all_honours", X, "111z222z333z444z55z", 8, 256),
    ("xinzhang-big_dragons_little_winds", X, "555z666z777z111z22z", 7, 128),
    ("tuidaohu-pure_pungs", T, PURE_PUNGS, 1, 2),
    ("tuidaohu-big_winds_all_honours", T, "111z222z333z444z55z", 1, 2),
    ("tuidaohu-seven_pairs_full_flush", T, "11223344556677m", 1, 2),
]


@pytest.mark.parametrize(("ruleset", "concealed", "total", "points"),
                         [pytest.param(*r[1:], id=r[0]) for r in NO_STACK_ROWS])
def test_special_hands_do_not_stack(ruleset, concealed, total, points) -> None:
    response = score({"ruleset": ruleset, "hand": {"concealed": concealed}, "context": dict(SELF)})
    specials = [item for item in response["fans"] if item["kind"] == "specials"]
    assert len(specials) == 1
    assert [item["kind"] for item in response["fans"]] == ["specials"]  # no hand types, no extras
    assert response["fan_total"] == total
    assert response["points"] == points


def test_heavenly_with_a_big_hand_does_not_stack() -> None:
    response = score({"hand": {"concealed": BIG_DRAGONS}, "context": {"seat_wind": "1z", "special": ["heavenly"]}})
    assert len(response["fans"]) == 1 and response["fan_total"] == 6 and response["points"] == 64


# ---- min_fan 起胡 ------------------------------------------------------------------------------------------------

MIN_FAN_ROWS = [
    # (id, ruleset, options, concealed, melds, context, wins)
    ("jipinghu-default_0_chicken_discard", J, None, CHICKEN, [], DISCARD, True),
    ("jipinghu-1_chicken_discard", J, {"min_fan": 1}, CHICKEN, [], DISCARD, False),
    ("jipinghu-1_chicken_self_draw", J, {"min_fan": 1}, CHICKEN, [], SELF, True),
    ("jipinghu-3_all_chows_self_draw", J, {"min_fan": 3}, ALL_CHOWS, [], SELF, False),
    ("jipinghu-3_half_flush_all_chows", J, {"min_fan": 3}, HALF_FLUSH_CHOWS, [], DISCARD, True),
    ("jipinghu-3_special_hand", J, {"min_fan": 3}, FULL_FLUSH, [], DISCARD, True),
    ("jipinghu-3_floor_reaches_it", J, {"min_fan": 3}, CHICKEN, [], {**SELF, "special": ["last_tile"]}, True),
    ("xinzhang-default_3_chicken_self_draw", X, None, CHICKEN, [], SELF, False),
    ("xinzhang-default_3_all_chows_self_draw", X, None, ALL_CHOWS, [], SELF, False),
    ("xinzhang-default_3_half_flush", X, None, HALF_FLUSH, [], DISCARD, True),
    ("xinzhang-default_3_kong_replacement", X, None, ELEVEN, [concealed_kong("2222s")],
     {**SELF, "special": ["kong_replacement"]}, True),
    ("xinzhang-1_chicken_discard", X, {"min_fan": 1}, CHICKEN, [], DISCARD, False),
    ("xinzhang-0_chicken_discard", X, {"min_fan": 0}, CHICKEN, [], DISCARD, True),
]


@pytest.mark.parametrize(("ruleset", "options", "concealed", "melds", "context", "wins"),
                         [pytest.param(*r[1:], id=r[0]) for r in MIN_FAN_ROWS])
def test_min_fan(ruleset, options, concealed, melds, context, wins) -> None:
    request = {"ruleset": ruleset, "hand": {"concealed": concealed, "melds": melds}, "context": dict(context)}
    if options:
        request["options"] = options
    if wins:
        assert score(request)["fan_total"] >= (options or {}).get("min_fan", 3 if ruleset == X else 0)
    else:
        with pytest.raises(ScoringError) as caught:
            score(request)
        assert caught.value.code == "below_minimum_fan"


# ---- what each rule set allows, and impossible contexts (docs/RULES.md "What every rule set shares") ----------

REFUSAL_ROWS = [
    # (id, request, code)
    ("jipinghu-seven_pairs_not_a_shape_by_default", {"hand": {"concealed": SEVEN_PAIRS}}, "not_winning"),
    ("jipinghu-no_flowers", {"hand": {"concealed": CHICKEN, "flowers": "1f"}}, "not_allowed"),
    ("jipinghu-no_horses", {"hand": {"concealed": CHICKEN}, "context": {"horses": "123456m"}}, "not_allowed"),
    ("jipinghu-seven_pairs_quads_off", {"options": {"seven_pairs": True, "seven_pairs_quads": False},
                                        "hand": {"concealed": "1111m3344p5566s77z"}}, "not_winning"),
    ("tuidaohu-discard_win", {"ruleset": T, "hand": {"concealed": CHICKEN}, "context": dict(DISCARD)},
     "not_allowed"),
    ("tuidaohu-exposed_chow", {"ruleset": T, "hand": {"concealed": "456p789s555s11z", "melds": [
        {"kind": "chow", "tiles": "123m"}]}}, "not_allowed"),
    ("tuidaohu-seven_pairs_option_off", {"ruleset": T, "options": {"seven_pairs": False},
                                         "hand": {"concealed": SEVEN_PAIRS}}, "not_winning"),
    ("tuidaohu-horse_count_without_ghost", {"ruleset": T, "hand": {"concealed": CHICKEN},
                                            "context": {"horses": "1234m"}}, "bad_context"),
    ("tuidaohu-horse_count_with_ghost", {"ruleset": T, "options": {"ghosts": "white"},
                                         "hand": {"concealed": "123m456p789s555s1z5z"},
                                         "context": {"horses": "123456m"}}, "bad_context"),
    ("tuidaohu-white_ghost_is_5z", {"ruleset": T, "options": {"ghosts": "white"},
                                    "hand": {"concealed": CHICKEN}, "context": {"ghosts": "6z"}}, "bad_context"),
    ("tuidaohu-flip_names_one_ghost", {"ruleset": T, "options": {"ghosts": "flip"},
                                       "hand": {"concealed": CHICKEN}}, "bad_context"),
    ("tuidaohu-flip2_names_two_ghosts", {"ruleset": T, "options": {"ghosts": "flip2"},
                                         "hand": {"concealed": CHICKEN}, "context": {"ghosts": "3m"}},
     "bad_context"),
    # only a named set that contradicts the mode is an error: flip names one ghost, and no mode names three
    ("tuidaohu-flip_named_two", {"ruleset": T, "options": {"ghosts": "flip"}, "hand": {"concealed": CHICKEN},
                                 "context": {"ghosts": "3m7m"}}, "bad_context"),
    ("tuidaohu-three_named_ghosts", {"ruleset": T, "hand": {"concealed": CHICKEN}, "context": {"ghosts": "3m5m7m"}},
     "bad_context"),
    ("jipinghu-three_named_ghosts", {"hand": {"concealed": CHICKEN}, "context": {"ghosts": "3m5m7m"}}, "bad_context"),
    # issue 35: 鸡平胡, 新章 and 抢杠 have no ghost tiles (docs/RULES.md: ghosts are rule set 2's, 推倒胡's); naming one
    # is refused unless the options choose a ghost mode
    *[(f"{name}-a_named_ghost_without_a_mode", {"ruleset": name, "hand": {"concealed": CHICKEN},
                                                "context": {"ghosts": "5m"}}, "bad_context")
      for name in ("jipinghu", "xinzhang", "qianggang")],
    ("qianggang-no_chow", {"ruleset": Q, "hand": {"concealed": "456p789s555s11z", "melds": [
        {"kind": "chow", "tiles": "123m"}]}}, "not_allowed"),
    ("qianggang-one_of_each_flower", {"ruleset": Q, "hand": {"concealed": CHICKEN, "flowers": "11f"}},
     "too_many_copies"),
    ("qianggang-horse_count", {"ruleset": Q, "hand": {"concealed": CHICKEN}, "context": {"horses": "1234m"}},
     "bad_context"),
    ("robbing_kong_with_self_draw", {"hand": {"concealed": CHICKEN}, "context": {"special": ["robbing_kong"]}},
     "bad_context"),
    ("kong_replacement_without_kong", {"hand": {"concealed": CHICKEN},
                                       "context": {"special": ["kong_replacement"]}}, "bad_context"),
    ("kong_replacement_on_discard", {"hand": {"concealed": ELEVEN, "melds": [concealed_kong("2222s")]},
                                     "context": {**DISCARD, "special": ["kong_replacement"]}}, "bad_context"),
    ("kong_fed_by_without_fed_kong", {"hand": {"concealed": ELEVEN, "melds": [concealed_kong("2222s")]},
                                      "context": {"special": ["kong_replacement"], "kong_fed_by": "3z"}},
     "bad_context"),
    ("heavenly_non_dealer", {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "2z",
                                                                         "special": ["heavenly"]}}, "bad_context"),
    ("heavenly_on_discard", {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "1z", "win": "discard",
                                                                         "discarder": "2z",
                                                                         "special": ["heavenly"]}}, "bad_context"),
    ("earthly_dealer", {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "1z", "special": ["earthly"]}},
     "bad_context"),
    ("earthly_on_discard", {"hand": {"concealed": CHICKEN}, "context": {**DISCARD, "special": ["earthly"]}},
     "bad_context"),
    ("human_not_dealer_discard", {"hand": {"concealed": CHICKEN}, "context": {**DISCARD, "special": ["human"]}},
     "bad_context"),
    ("human_dealer_wins", {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "1z", "win": "discard",
                                                                       "discarder": "2z", "special": ["human"]}},
     "bad_context"),
    ("human_self_draw", {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "2z", "special": ["human"]}},
     "bad_context"),
    ("first_turn_with_meld", {"hand": {"concealed": ELEVEN, "melds": [{"kind": "pung", "tiles": "555s",
                                                                        "fed_by": "3z"}]},
                              "context": {"seat_wind": "1z", "special": ["heavenly"]}}, "bad_context"),
    ("multi_win_self_draw", {"hand": {"concealed": CHICKEN}, "context": {"special": ["multi_win"]}}, "bad_context"),
    ("last_tile_on_discard", {"hand": {"concealed": CHICKEN}, "context": {**DISCARD, "special": ["last_tile"]}},
     "bad_context"),
    ("discard_without_discarder", {"hand": {"concealed": CHICKEN}, "context": {"win": "discard"}}, "bad_context"),
    ("discarder_is_winner", {"hand": {"concealed": CHICKEN}, "context": {"win": "discard", "discarder": "1z"}},
     "bad_context"),
    ("self_draw_with_discarder", {"hand": {"concealed": CHICKEN}, "context": {"discarder": "2z"}}, "bad_context"),
    ("winner_liable", {"hand": {"concealed": CHICKEN}, "context": {"liable": "1z"}}, "bad_context"),
    ("robbing_kong_liable_not_robbed", {"hand": {"concealed": CHICKEN},
                                        "context": {**DISCARD, "special": ["robbing_kong"], "liable": "4z"}},
     "bad_context"),
    ("winning_tile_not_in_hand", {"hand": {"concealed": CHICKEN, "winning_tile": "9m"}}, "winning_tile_missing"),
    ("winning_tile_only_in_meld", {"hand": {"concealed": ELEVEN, "winning_tile": "5s",
                                            "melds": [{"kind": "pung", "tiles": "555s", "fed_by": "3z"}]}},
     "winning_tile_missing"),
    ("chow_not_from_previous_player", {"hand": {"concealed": "456p789s555s11z", "melds": [
        {"kind": "chow", "tiles": "123m", "fed_by": "3z"}]}}, "bad_meld"),
    ("meld_fed_by_winner", {"hand": {"concealed": "456p789s555s11z", "melds": [
        {"kind": "pung", "tiles": "111m", "fed_by": "1z"}]}}, "bad_meld"),
    ("five_copies_across_melds", {"hand": {"concealed": "1m456p789s555s1z", "melds": [
        {"kind": "kong", "tiles": "1111m", "concealed": True}]}}, "too_many_copies"),
    ("five_copies_with_horses", {"ruleset": T, "hand": {"concealed": "111m456p789s555s11z"},
                                 "context": {"horses": "11m3456p"}}, "too_many_copies"),
]


@pytest.mark.parametrize(("request_", "code"), [pytest.param(*r[1:], id=r[0]) for r in REFUSAL_ROWS])
def test_refused(request_, code) -> None:
    with pytest.raises(ScoringError) as caught:
        score(request_)
    assert caught.value.code == code


def test_response_names_ruleset_and_every_option() -> None:
    response = score({"ruleset": X, "options": {"min_fan": 1}, "hand": {"concealed": CHICKEN}})
    assert response["ruleset"] == X
    assert response["ruleset_names"] == {"zh": "广东新麻将", "zh_hant": "廣東新章",
                                         "en": "Guangdong new rules (5-fan cap)"}
    assert response["options"]["min_fan"] == 1  # the override is in force
    assert response["options"]["cap"] == 5
    assert {"cap", "min_fan", "chow", "discard_win", "flowers", "seven_pairs", "ghosts", "horses"} <= set(
        response["options"])
    assert response["fan_values"]["specials"]["little_dragons"] == 6  # cap+1 resolved


def test_default_ruleset_is_jipinghu() -> None:
    assert score({"hand": {"concealed": CHICKEN}})["ruleset"] == J


# ---- tuidaohu horses and kongs, qianggang kongs (docs/RULES.md rule sets 2 and 4) -------------------------------

HORSE_COUNT_ROWS = [
    # (id, ruleset, options, concealed, ghosts, horses, hits, per-payer amount)
    ("tuidaohu_6_without_ghost", T, None, CHICKEN, None, "159m2p3s4z", 3, 4),
    ("tuidaohu_4_with_ghost", T, {"ghosts": "white"}, "123m456p789s555s1z5z", None, "1p5s9m4z", 3, 4),
    ("tuidaohu_option_8", T, {"horses_without_ghost": 8}, CHICKEN, None, "1111p9999p", 8, 9),
    ("tuidaohu_option_2_with_ghost", T, {"ghosts": "flip", "horses_with_ghost": 2}, "123m456p789s555s1z9p",
     "9p", "1z3z", 1, 2),
    ("qianggang_6", Q, None, CHICKEN, None, "2p3p4p6p7p8p", 0, 2),  # 鸡胡 + 自摸 = 1 番 = 2 chicken stakes
    # seed 000 「有鬼抓4马、无鬼抓6马」 also when the ghost is only named by the context
    ("tuidaohu_named_ghost_4_horses", T, None, "13m456p789s555z11z9p", "9p", "1p5s9m4z", 3, 4),
    ("tuidaohu_big_hand_times_horses", T, None, ALL_PUNGS, None, "1z9p5m2m3m4m", 3, 8),
]


@pytest.mark.parametrize(("ruleset", "options", "concealed", "ghosts", "horses", "hits", "per_payer"),
                         [pytest.param(*r[1:], id=r[0]) for r in HORSE_COUNT_ROWS])
def test_horses(ruleset, options, concealed, ghosts, horses, hits, per_payer) -> None:
    context = {"seat_wind": "1z", "horses": horses, **({"ghosts": ghosts} if ghosts else {})}
    request = {"ruleset": ruleset, "hand": {"concealed": concealed}, "context": context}
    if options:
        request["options"] = options
    response = score(request)
    assert response["horses"] == {"tiles": tiles.to_string(tiles.parse(horses)), "hits": hits}
    assert response["per_payer"] == per_payer
    assert response["payments"]["1z"] == 3 * per_payer


KONG_ROWS = [
    # (id, ruleset, kong meld, stake, kong payments by seat) -- the winner is 2z, self-draw
    ("tuidaohu_concealed_each_2", T, {"kind": "kong", "tiles": "2222s", "concealed": True}, {},
     {"1z": 2, "3z": 2, "4z": 2}),
    ("tuidaohu_fed_discarder_3", T, {"kind": "kong", "tiles": "2222s", "fed_by": "4z"}, {}, {"4z": 3}),
    ("tuidaohu_added_each_1", T, {"kind": "kong", "tiles": "2222s", "added": True}, {}, {"1z": 1, "3z": 1, "4z": 1}),
    ("tuidaohu_times_unit", T, {"kind": "kong", "tiles": "2222s", "fed_by": "4z"}, {"unit": 5}, {"4z": 15}),
    # qianggang's kong stake rides on the hand (per_payer_parts.kongs, test_qianggang.py): nothing apart
    ("qianggang_kong_stake_rides_on_the_hand", Q, {"kind": "kong", "tiles": "2222s", "concealed": True},
     {"kong": 20}, {}),
    ("jipinghu_no_kong_payments", J, {"kind": "kong", "tiles": "2222s", "concealed": True}, {}, {}),
    ("xinzhang_no_kong_payments", X, {"kind": "kong", "tiles": "2222s", "fed_by": "4z"}, {}, {}),
]


@pytest.mark.parametrize(("ruleset", "meld", "stake", "kong_payments"),
                         [pytest.param(*r[1:], id=r[0]) for r in KONG_ROWS])
def test_kong_payments(ruleset, meld, stake, kong_payments) -> None:
    request = {"ruleset": ruleset, "options": {"min_fan": 0} if ruleset == X else {},
               "hand": {"concealed": ELEVEN, "melds": [meld]}, "context": {"seat_wind": "2z", "stake": stake}}
    response = score(request)
    assert response["kong_payments"] == kong_payments
    assert sum(response["payments"].values()) == 0


# ---- special wins: every one the seeds value is scored, in every rule set -----------------------------------------

SPECIAL_WIN_CASES = {
    # special -> (concealed, melds, context): a valid context for it
    "kong_replacement": (ELEVEN, [concealed_kong("2222s")], {**SELF, "special": ["kong_replacement"]}),
    "last_tile": (CHICKEN, [], {**SELF, "special": ["last_tile"]}),
    "robbing_kong": (CHICKEN, [], {**DISCARD, "special": ["robbing_kong"]}),
    "heavenly": (CHICKEN, [], {"seat_wind": "1z", "special": ["heavenly"]}),
    "earthly": (CHICKEN, [], {"seat_wind": "3z", "special": ["earthly"]}),
    "human": (CHICKEN, [], {"win": "discard", "discarder": "1z", "seat_wind": "4z", "special": ["human"]}),
    "multi_win": (CHICKEN, [], {**DISCARD, "special": ["multi_win"]}),
}
# Where the seeds give each special win a value. jipinghu (seed 000 「七、特殊规则」), xinzhang (docs/RULES.md: as
# jipinghu) and qianggang (seed 003 line 45-65) all seven; tuidaohu 「杠开：X2」 and 「抢杠：算抢杠者自摸」; it has no
# discard wins (so no 人和 or 一炮三响) and the seed is silent on 海底捞月, 天和 and 地和, which score as a plain win
# there.
SEED_VALUED = {J: set(SPECIAL_WIN_CASES), X: set(SPECIAL_WIN_CASES), Q: set(SPECIAL_WIN_CASES),
               T: {"kong_replacement", "robbing_kong"}}
SPECIAL_WIN_ROWS = [(name, special) for name in (J, X, T, Q) for special in SPECIAL_WIN_CASES
                    if not (name == T and special in ("human", "multi_win"))]


@pytest.mark.parametrize(("ruleset", "special"), SPECIAL_WIN_ROWS, ids=[f"{r[0]}-{r[1]}" for r in SPECIAL_WIN_ROWS])
def test_special_wins_have_their_seed_value(ruleset, special) -> None:
    concealed, melds, context = SPECIAL_WIN_CASES[special]
    request = {"ruleset": ruleset, "hand": {"concealed": concealed, "melds": melds}, "context": dict(context)}
    if special == "multi_win":
        request["options"] = {"multi_win": True}  # qianggang plays 截胡 by default
    response = score(request)
    no_value = [w for w in response["warnings"] if special in w and "has no value" in w]
    if special in SEED_VALUED[ruleset]:
        assert no_value == []
        assert special in {item["id"] for item in response["fans"]} or special == "robbing_kong"
    else:
        assert no_value  # said, not silently dropped
