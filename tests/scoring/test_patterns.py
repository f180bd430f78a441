"""Scoring patterns 番种: each predicate on its own (positive and negative rows), and one table row per hand
type per rule set — every pattern a rule set scores, with the value docs/RULES.md gives it there."""

from __future__ import annotations

import dataclasses

import pytest

from fanshot.scoring import rules, score
from fanshot.scoring.hand import parse_context, parse_hand
from fanshot.scoring.patterns import PATTERNS, Situation
from fanshot.scoring.score import candidates, instant_win
from fanshot.scoring.validate import HAND_SIZE, ghost_tiles, hand_size


def applies(pid: str, concealed: str, melds=(), *, ruleset: str = "jipinghu", options=None, flowers: str = "",
            winning_tile: str | None = None, **context) -> int:
    """How many times pattern `pid` applies to the best-suited arrangement of the hand (max over arrangements; an
    instant win's reading among them)."""
    rs = rules.load(ruleset, options)
    extra = {"flowers": flowers} if flowers else {}
    hand = parse_hand({"concealed": concealed, "melds": list(melds), "winning_tile": winning_tile, **extra})
    ctx = parse_context(context)
    ghosts = ghost_tiles(rs, ctx)
    held = sum(1 for code in hand.concealed if code in ghosts)
    values = {"hand": hand, "context": ctx, "options": rs.options, "ghosts": ghosts, "ghosts_held": held}
    names = {f.name for f in dataclasses.fields(Situation)}
    instant = instant_win(rs, hand, ctx, ghosts)
    found = [*(candidates(rs, hand, ghosts) if hand_size(hand) == HAND_SIZE else ()), *([instant] if instant else [])]
    assert found, "the example must be a winning hand"
    return max(PATTERNS[pid].applies(Situation(arrangement=a, **{k: v for k, v in values.items() if k in names}))
               for a in found)


def pung(tiles: str, by: str = "3z") -> dict:
    return {"kind": "pung", "tiles": tiles, "fed_by": by}


CONCEALED_KONG = {"kind": "kong", "tiles": "2222s", "concealed": True}
FOUR_KONGS = [{"kind": "kong", "tiles": tiles, "fed_by": "3z"} for tiles in ("1111m", "2222p", "3333s", "4444s")]


PREDICATE_ROWS = [
    # (id, pattern, concealed, melds, kwargs, expected count)
    ("chicken_any", "chicken", "123m456p789s555s11z", [], {}, 1),
    ("plain_win_any", "plain_win", "123m456p789s555s11z", [], {"ruleset": "tuidaohu"}, 1),
    ("all_chows", "all_chows", "123m456p789s234s11z", [], {}, 1),
    ("all_chows_exposed_chow", "all_chows", "456p789s234s11z", [{"kind": "chow", "tiles": "123m"}], {}, 1),
    ("all_chows_not_with_pung", "all_chows", "123m456p789s555s11z", [], {}, 0),
    ("all_chows_suited_pair_option", "all_chows", "123m456p789s234s11z", [],
     {"options": {"all_chows_suited_pair": True}}, 0),
    ("all_pungs", "all_pungs", "111m222p333s444s99m", [], {}, 1),
    ("all_pungs_with_kongs", "all_pungs", "222p333s99m", [pung("111m"), {"kind": "kong", "tiles": "4444s",
                                                                          "concealed": True}], {}, 1),
    ("all_pungs_not_with_chow", "all_pungs", "123m222p333s444s99m", [], {}, 0),
    ("half_flush", "half_flush", "123m456m789m333z11z", [], {}, 1),
    ("half_flush_not_full_flush", "half_flush", "123m456m789m234m11m", [], {}, 0),
    ("half_flush_not_all_honours", "half_flush", "111z333z555z666z22z", [], {}, 0),
    ("half_flush_not_two_suits", "half_flush", "123m456p789m333z11z", [], {}, 0),
    ("full_flush", "full_flush", "123m456m789m234m11m", [], {}, 1),
    ("full_flush_counts_melds", "full_flush", "123s456s11s", [pung("999s"), {"kind": "chow", "tiles": "789s",
                                                                             "fed_by": "4z"}], {}, 1),
    ("full_flush_not_with_honour", "full_flush", "123m456m789m234m11z", [], {}, 0),
    ("full_flush_not_with_honour_meld", "full_flush", "123m456m789m11m", [pung("777z")], {}, 0),
    ("mixed_pungs", "mixed_pungs", "111m333m555m333z22z", [], {}, 1),
    ("mixed_pungs_not_with_chow", "mixed_pungs", "123m333m555m333z22z", [], {}, 0),
    ("pure_pungs", "pure_pungs", "111m333m555m777m99m", [], {}, 1),
    ("pure_pungs_not_with_chow", "pure_pungs", "123m333m555m777m99m", [], {}, 0),
    ("mixed_terminals", "mixed_terminals", "111m999m111p333z22z", [], {}, 1),
    ("mixed_terminals_needs_honours", "mixed_terminals", "111m999m111p999p11s", [], {}, 0),
    ("mixed_terminals_needs_terminals", "mixed_terminals", "111z333z555z666z22z", [], {}, 0),
    ("mixed_terminals_not_with_simple", "mixed_terminals", "111m999m222p333z22z", [], {}, 0),
    ("little_dragons", "little_dragons", "555z666z77z123m456p", [], {}, 1),
    ("little_dragons_not_big", "little_dragons", "555z666z777z123m11p", [], {}, 0),
    ("little_dragons_needs_dragon_pair", "little_dragons", "555z666z123m456p11z", [], {}, 0),
    ("little_winds", "little_winds", "111z333z444z22z123m", [], {}, 1),
    ("little_winds_not_big", "little_winds", "111z222z333z444z11m", [], {}, 0),
    ("little_winds_needs_wind_pair", "little_winds", "111z333z444z55z123m", [], {}, 0),
    ("all_honours", "all_honours", "111z333z555z666z22z", [], {}, 1),
    ("all_honours_not_with_suit", "all_honours", "111z333z555z666z11m", [], {}, 0),
    ("all_terminals", "all_terminals", "111m999m111p999p11s", [], {}, 1),
    ("all_terminals_not_with_honour", "all_terminals", "111m999m111p999p11z", [], {}, 0),
    ("big_dragons", "big_dragons", "555z666z777z123m11p", [], {}, 1),
    ("big_dragons_with_kong", "big_dragons", "666z777z123m11p", [{"kind": "kong", "tiles": "5555z",
                                                                   "fed_by": "3z"}], {}, 1),
    ("big_dragons_two_only", "big_dragons", "555z666z77z123m456p", [], {}, 0),
    ("big_winds", "big_winds", "111z222z333z444z11m", [], {}, 1),
    ("big_winds_three_only", "big_winds", "111z333z444z22z123m", [], {}, 0),
    ("nine_gates", "nine_gates", "11123456789999m", [], {}, 1),
    ("nine_gates_any_extra", "nine_gates", "11123456788999p", [], {}, 1),
    ("nine_gates_not_missing_a_one", "nine_gates", "12223456789999m", [], {}, 0),
    ("nine_gates_not_with_meld", "nine_gates", "23455678999m", [pung("111m")], {}, 0),
    ("thirteen_orphans", "thirteen_orphans", "19m19p19s1234567z1m", [], {}, 1),
    ("thirteen_orphans_honour_pair", "thirteen_orphans", "19m19p19s12345677z", [], {}, 1),
    ("thirteen_orphans_not_standard", "thirteen_orphans", "111m999m111p333z22z", [], {}, 0),
    ("seven_pairs", "seven_pairs", "1122m3344p5566s77z", [], {"ruleset": "tuidaohu"}, 1),
    ("seven_pairs_not_standard", "seven_pairs", "111m222p333s444s99m", [], {"ruleset": "tuidaohu"}, 0),
    ("self_draw", "self_draw", "123m456p789s555s11z", [], {}, 1),
    ("self_draw_not_discard", "self_draw", "123m456p789s555s11z", [], {"win": "discard", "discarder": "2z"}, 0),
    ("self_draw_robbing_kong", "self_draw", "123m456p789s555s11z", [],
     {"win": "discard", "discarder": "2z", "special": ["robbing_kong"]}, 1),
    ("seat_wind", "seat_wind", "123m456p789s333z11m", [], {"seat_wind": "3z"}, 1),
    ("seat_wind_kong", "seat_wind", "123m456p789s11m", [{"kind": "kong", "tiles": "3333z", "concealed": True}],
     {"seat_wind": "3z"}, 1),
    ("seat_wind_other_wind", "seat_wind", "123m456p789s333z11m", [], {"seat_wind": "2z"}, 0),
    ("seat_wind_pair_only", "seat_wind", "123m456p789s555s33z", [], {"seat_wind": "3z"}, 0),
    ("prevalent_wind", "prevalent_wind", "123m456p789s444z11m", [], {"prevalent_wind": "4z"}, 1),
    ("prevalent_wind_other", "prevalent_wind", "123m456p789s444z11m", [], {"prevalent_wind": "1z"}, 0),
    ("dragon_pung_one", "dragon_pung", "123m456p789s777z11m", [], {}, 1),
    ("dragon_pung_two", "dragon_pung", "123m456p555z777z11m", [], {}, 2),
    ("dragon_pung_pair_only", "dragon_pung", "123m456p789s555s77z", [], {}, 0),
    ("no_ghost", "no_ghost", "123m456p789s123m66z", [], {"ruleset": "tuidaohu", "options": {"ghosts": "white"}}, 1),
    ("no_ghost_holding_one", "no_ghost", "123m456p789s123m6z5z", [],
     {"ruleset": "tuidaohu", "options": {"ghosts": "white"}}, 0),
    ("no_ghost_no_ghosts_in_play", "no_ghost", "123m456p789s123m66z", [], {"ruleset": "tuidaohu"}, 0),
    ("four_ghosts", "four_ghosts", "5555z123m456p789s1m", [],
     {"ruleset": "tuidaohu", "options": {"ghosts": "white"}}, 1),
    ("four_ghosts_three_only", "four_ghosts", "555z123m456p789s11m", [],
     {"ruleset": "tuidaohu", "options": {"ghosts": "white"}}, 0),
    ("kong_replacement", "kong_replacement", "123m456p789s11z", [{"kind": "kong", "tiles": "2222s",
                                                                  "concealed": True}],
     {"special": ["kong_replacement"]}, 1),
    ("last_tile", "last_tile", "123m456p789s555s11z", [], {"special": ["last_tile"]}, 1),
    ("last_tile_absent", "last_tile", "123m456p789s555s11z", [], {}, 0),
    ("last_discard", "last_discard", "123m456p789s555s11z", [],
     {"win": "discard", "discarder": "2z", "special": ["last_discard"]}, 1),
    ("robbing_kong", "robbing_kong", "123m456p789s555s11z", [],
     {"win": "discard", "discarder": "2z", "special": ["robbing_kong"]}, 1),
    ("multi_win", "multi_win", "123m456p789s555s11z", [],
     {"win": "discard", "discarder": "2z", "special": ["multi_win"]}, 1),
    ("heavenly", "heavenly", "123m456p789s555s11z", [], {"special": ["heavenly"]}, 1),
    ("earthly", "earthly", "123m456p789s555s11z", [], {"seat_wind": "2z", "special": ["earthly"]}, 1),
    ("human", "human", "123m456p789s555s11z", [],
     {"seat_wind": "2z", "win": "discard", "discarder": "1z", "special": ["human"]}, 1),
    # rule set 5 (hongkong)
    ("concealed", "concealed", "123m456p789s555s11z", [], {}, 1),
    ("concealed_not_with_a_meld", "concealed", "123m456p789s11z", [pung("555s")], {}, 0),
    ("concealed_not_with_concealed_kong", "concealed", "123m456p789s11z", [CONCEALED_KONG], {}, 0),
    ("concealed_kong_ok_option", "concealed", "123m456p789s11z", [CONCEALED_KONG],
     {"ruleset": "hongkong", "options": {"concealed_kong_ok": True}}, 1),
    ("concealed_pungs_self_draw", "concealed_pungs", "111m222p333s444s99m", [], {}, 1),
    ("concealed_pungs_concealed_kong", "concealed_pungs", "222p333s444s99m",
     [{"kind": "kong", "tiles": "1111m", "concealed": True}], {}, 1),
    ("concealed_pungs_not_with_claimed_pung", "concealed_pungs", "222p333s444s99m", [pung("111m")], {}, 0),
    ("concealed_pungs_discard_on_the_pair", "concealed_pungs", "111m222p333s444s99m", [],
     {"win": "discard", "discarder": "3z", "seat_wind": "2z", "winning_tile": "9m"}, 1),
    ("concealed_pungs_discard_completes_a_pung", "concealed_pungs", "111m222p333s444s99m", [],
     {"win": "discard", "discarder": "3z", "seat_wind": "2z", "winning_tile": "1m"}, 0),
    ("concealed_pungs_discard_unnamed_tile", "concealed_pungs", "111m222p333s444s99m", [],
     {"win": "discard", "discarder": "3z", "seat_wind": "2z"}, 0),
    ("all_kongs", "all_kongs", "99m", FOUR_KONGS, {}, 1),
    ("all_kongs_three_only", "all_kongs", "444s99m", FOUR_KONGS[:3], {}, 0),
    ("no_flowers", "no_flowers", "123m456p789s555s11z", [], {"ruleset": "hongkong"}, 1),
    ("no_flowers_holding_one", "no_flowers", "123m456p789s555s11z", [], {"ruleset": "hongkong", "flowers": "3f"}, 0),
    ("no_flowers_not_in_a_game_without_flowers", "no_flowers", "123m456p789s555s11z", [], {}, 0),
    ("seat_flower_south_both", "seat_flower", "123m456p789s555s11z", [],
     {"ruleset": "hongkong", "flowers": "263f", "seat_wind": "2z"}, 2),
    ("seat_flower_other_seat", "seat_flower", "123m456p789s555s11z", [],
     {"ruleset": "hongkong", "flowers": "26f", "seat_wind": "3z"}, 0),
    ("seat_flower_not_in_a_set", "seat_flower", "123m456p789s555s11z", [],
     {"ruleset": "hongkong", "flowers": "12346f", "seat_wind": "2z"}, 1),
    ("flower_set", "flower_set", "123m456p789s555s11z", [], {"ruleset": "hongkong", "flowers": "1234f"}, 1),
    ("flower_set_two", "flower_set", "123m456p789s555s11z", [], {"ruleset": "hongkong", "flowers": "12345678f"}, 2),
    ("flower_set_three_only", "flower_set", "123m456p789s555s11z", [], {"ruleset": "hongkong", "flowers": "123f"}, 0),
    ("seven_flowers", "seven_flowers", "123m456p789s55s11z", [], {"ruleset": "hongkong", "flowers": "1234567f"}, 1),
    ("seven_flowers_six_only", "seven_flowers", "123m456p789s555s11z", [],
     {"ruleset": "hongkong", "flowers": "123456f"}, 0),
    ("eight_flowers", "eight_flowers", "123m456p789s55s11z", [], {"ruleset": "hongkong", "flowers": "12345678f"}, 1),
    ("eight_flowers_not_seven", "eight_flowers", "123m456p789s555s11z", [],
     {"ruleset": "hongkong", "flowers": "1234567f"}, 0),
    ("double_kong_replacement", "double_kong_replacement", "123m456p11z", [CONCEALED_KONG, dict(CONCEALED_KONG,
                                                                                                tiles="3333s")],
     {"special": ["double_kong_replacement"]}, 1),
]


@pytest.mark.parametrize(("pid", "concealed", "melds", "kwargs", "expected"),
                         [pytest.param(*r[1:], id=r[0]) for r in PREDICATE_ROWS])
def test_predicate(pid, concealed, melds, kwargs, expected) -> None:
    assert applies(pid, concealed, melds, **kwargs) == expected


def test_every_pattern_has_a_positive_row() -> None:
    positive = {row[1] for row in PREDICATE_ROWS if row[5] > 0}
    assert positive == set(PATTERNS)


def test_pattern_registry() -> None:
    for pid, p in PATTERNS.items():
        assert p.id == pid
        assert p.zh and p.en, pid
        assert p.applies.__doc__, f"{pid} documents itself"
        assert set(p.excludes) <= set(PATTERNS), pid
        assert pid not in p.excludes


# ---- one row per hand type per rule set: the value docs/RULES.md gives it -----------------------------------------

SELF = {"seat_wind": "2z"}
EXAMPLES = {
    # pattern -> (concealed, melds, context) in which the pattern is scored
    "chicken": ("123m456p789s555s11z", [], SELF),
    "plain_win": ("123m456p789s123m55z", [], SELF),
    "all_chows": ("123m456p789s234s11z", [], SELF),
    "all_pungs": ("222p333s444s99m", [pung("111m")], SELF),  # a claimed pung: no 坎坎糊 (hongkong)
    "half_flush": ("123m456m789m333z11z", [], SELF),
    "seven_pairs": ("1122m3344p5566s77z", [], SELF),
    "full_flush": ("123m456m789m234m11m", [], SELF),
    "mixed_pungs": ("111m333m555m333z22z", [], SELF),
    "pure_pungs": ("111m333m555m777m99m", [], SELF),
    "mixed_terminals": ("111m999m111p333z22z", [], SELF),
    "little_dragons": ("555z666z77z123m456p", [], SELF),
    "little_winds": ("111z333z444z22z123m", [], SELF),
    "all_honours": ("111z333z555z666z22z", [], SELF),
    "all_terminals": ("111m999m111p999p11s", [], SELF),
    "big_dragons": ("555z666z777z123m11p", [], SELF),
    "big_winds": ("111z222z333z444z11m", [], SELF),
    "nine_gates": ("11123456789999m", [], SELF),
    "thirteen_orphans": ("19m19p19s1234567z1m", [], SELF),
    "self_draw": ("123m456p789s555s11z", [], SELF),
    "seat_wind": ("123m456p789s222z11m", [], SELF),
    "prevalent_wind": ("123m456p789s111z11m", [], SELF),
    "dragon_pung": ("123m456p789s777z11m", [], SELF),
    "heavenly": ("123m456p789s555s11z", [], {"seat_wind": "1z", "special": ["heavenly"]}),
    "earthly": ("123m456p789s555s11z", [], {"seat_wind": "2z", "special": ["earthly"]}),
    "human": ("123m456p789s555s11z", [], {"seat_wind": "2z", "win": "discard", "discarder": "1z",
                                          "special": ["human"]}),
    "kong_replacement": ("123m456p789s11z", [{"kind": "kong", "tiles": "2222s", "concealed": True}],
                         {"seat_wind": "2z", "special": ["kong_replacement"]}),
    "last_tile": ("123m456p789s555s11z", [], {"seat_wind": "2z", "special": ["last_tile"]}),
    "last_discard": ("123m456p789s555s11z", [], {"seat_wind": "2z", "win": "discard", "discarder": "3z",
                                                 "special": ["last_discard"]}),
    "robbing_kong": ("123m456p789s555s11z", [], {"seat_wind": "2z", "win": "discard", "discarder": "3z",
                                                 "special": ["robbing_kong"]}),
    "multi_win": ("123m456p789s555s11z", [], {"seat_wind": "2z", "win": "discard", "discarder": "3z",
                                              "special": ["multi_win"]}),
    "no_ghost": ("123m456p789s123m66z", [], SELF),
    "four_ghosts": ("5555z123m456p789s1m", [], SELF),
    "concealed": ("123m456p789s555s11z", [], SELF),
    "concealed_pungs": ("111m222p333s444s99m", [], SELF),
    "all_kongs": ("99m", [{"kind": "kong", "tiles": tiles, "fed_by": "3z"} for tiles in ("1111m", "2222p", "3333s",
                                                                                      "4444s")], SELF),
    "no_flowers": ("123m456p789s555s11z", [], SELF),
    "seat_flower": ("123m456p789s555s11z", [], SELF, "2f"),
    "flower_set": ("123m456p789s555s11z", [], SELF, "5678f"),
    "seven_flowers": ("123m456p789s55s11z", [], SELF, "1234567f"),
    "eight_flowers": ("123m456p789s55s11z", [], SELF, "12345678f"),
    "double_kong_replacement": ("123m456p11z", [{"kind": "kong", "tiles": tiles, "concealed": True}
                                                for tiles in ("2222s", "3333s")],
                                {"seat_wind": "2z", "special": ["double_kong_replacement"]}),
}
RULESET_OPTIONS = {
    "jipinghu": {"seven_pairs": True},
    "xinzhang": {"min_fan": 0, "seven_pairs": True},
    "tuidaohu": {},
    "qianggang": {"multi_win": True},  # 一炮多响 allowed, so the multi_win example scores
    "hongkong": {"min_fan": 0, "seven_pairs": True},
}
GHOST_PATTERNS = ("no_ghost", "four_ghosts")  # scored with white-board ghosts in play
# (rule set, pattern, table, value) from docs/RULES.md (and the TOML defaults where docs/RULES.md leaves a house value)
VALUE_ROWS = [
    *[("jipinghu", pid, "hands", v) for pid, v in
      (("chicken", 0), ("all_chows", 1), ("all_pungs", 2), ("half_flush", 2), ("seven_pairs", 0))],
    *[("jipinghu", pid, "extras", 1) for pid in ("self_draw", "seat_wind", "prevalent_wind", "dragon_pung")],
    *[("jipinghu", pid, "specials", v) for pid, v in
      (("full_flush", 4), ("mixed_pungs", 4), ("pure_pungs", 5), ("mixed_terminals", 5), ("little_dragons", 5),
       ("little_winds", 5), ("all_honours", 6), ("all_terminals", 6), ("big_dragons", 6), ("big_winds", 6),
       ("nine_gates", 6), ("thirteen_orphans", 6), ("heavenly", 6), ("earthly", 6), ("human", 6))],
    *[("jipinghu", pid, "floors", 3) for pid in ("kong_replacement", "last_tile", "robbing_kong", "multi_win")],
    *[("xinzhang", pid, "hands", v) for pid, v in
      (("chicken", 0), ("all_chows", 1), ("all_pungs", 3), ("half_flush", 3), ("seven_pairs", 0))],
    *[("xinzhang", pid, "extras", 1) for pid in ("self_draw", "seat_wind", "prevalent_wind", "dragon_pung")],
    *[("xinzhang", pid, "specials", v) for pid, v in
      (("full_flush", 5), ("little_dragons", 6), ("little_winds", 6), ("big_dragons", 7), ("all_honours", 7),
       ("all_terminals", 7), ("big_winds", 8), ("nine_gates", 8), ("thirteen_orphans", 8), ("heavenly", 6),
       ("earthly", 6), ("human", 6))],
    *[("xinzhang", pid, "floors", 3) for pid in ("kong_replacement", "last_tile", "robbing_kong", "multi_win")],
    *[("tuidaohu", pid, "specials", 1) for pid in
      ("seven_pairs", "all_pungs", "full_flush", "all_honours", "thirteen_orphans", "big_dragons", "big_winds",
       "little_winds", "all_terminals")],
    ("tuidaohu", "plain_win", "hands", 0),  # every self-drawn win 平胡 = 1 unit, no doubler
    ("tuidaohu", "no_ghost", "bonuses", 1),
    ("tuidaohu", "kong_replacement", "bonuses", 1),
    ("tuidaohu", "four_ghosts", "fixed_points", 6),
    # qianggang (seed 003): 鸡胡 杂色 清一色 大哥 十三幺 = 0 1 2 3 4 番, extras and special wins as in jipinghu
    *[("qianggang", pid, "hands", v) for pid, v in
      (("chicken", 0), ("half_flush", 1), ("full_flush", 2), ("all_pungs", 3))],
    *[("qianggang", pid, "extras", 1) for pid in ("self_draw", "seat_wind", "prevalent_wind", "dragon_pung")],
    *[("qianggang", pid, "specials", v) for pid, v in
      (("thirteen_orphans", 4), ("heavenly", 6), ("earthly", 6), ("human", 6))],
    *[("qianggang", pid, "floors", 3) for pid in ("kong_replacement", "last_tile", "robbing_kong", "multi_win")],
    # hongkong (docs/RULES.md rule set 5, "Faan table")
    *[("hongkong", pid, "hands", v) for pid, v in
      (("chicken", 0), ("all_chows", 1), ("all_pungs", 3), ("half_flush", 3), ("full_flush", 7),
       ("mixed_terminals", 1), ("little_dragons", 5), ("big_dragons", 8), ("little_winds", 6),
       ("concealed_pungs", 8), ("seven_pairs", 4))],
    *[("hongkong", pid, "extras", v) for pid, v in
      (("concealed", 1), ("dragon_pung", 1), ("seat_wind", 1), ("prevalent_wind", 1), ("no_flowers", 1),
       ("seat_flower", 1), ("flower_set", 2))],
    *[("hongkong", pid, "bonuses", v) for pid, v in
      (("self_draw", 1), ("kong_replacement", 1), ("double_kong_replacement", 8), ("last_tile", 1),
       ("last_discard", 0), ("robbing_kong", 1))],
    *[("hongkong", pid, "specials", v) for pid, v in
      (("all_honours", 10), ("all_terminals", 10), ("nine_gates", 10), ("thirteen_orphans", 13), ("big_winds", 13),
       ("all_kongs", 13), ("heavenly", 13), ("human", 13), ("earthly", 13), ("seven_flowers", 2),
       ("eight_flowers", 8))],
]


@pytest.mark.parametrize(("ruleset", "pid", "table", "value"), VALUE_ROWS,
                         ids=[f"{r[0]}-{r[1]}" for r in VALUE_ROWS])
def test_hand_type_value_in_ruleset(ruleset, pid, table, value) -> None:
    concealed, melds, context, *flowers = EXAMPLES[pid]
    options = {**RULESET_OPTIONS[ruleset], **({"ghosts": "white"} if pid in GHOST_PATTERNS else {})}
    hand = {"concealed": concealed, "melds": melds, **({"flowers": flowers[0]} if flowers else {})}
    response = score({"ruleset": ruleset, "options": options, "hand": hand, "context": context})
    items = {item["id"]: item for item in response["fans"]}
    assert pid in items, f"{pid} not scored: {list(items)}"
    assert items[pid]["fan"] == value
    assert items[pid]["kind"] == table
    zh = rules.load(ruleset).names.get(pid, PATTERNS[pid].zh)  # a rule set may name a pattern its own way
    assert (items[pid]["zh"], items[pid]["en"]) == (zh, PATTERNS[pid].en)


def test_every_scored_pattern_has_a_value_row() -> None:
    scored = {(name, pid) for name in rules.ruleset_names()
              for table in rules.load(name).values.values() for pid in table}
    assert {(r[0], r[1]) for r in VALUE_ROWS} == scored


NAME_ROWS = [
    ("plain_win", "平胡"),  # tuidaohu's base: every self-drawn win
    ("chicken", "鸡胡"), ("all_chows", "平胡"), ("all_pungs", "碰碰胡"), ("half_flush", "混一色"),
    ("full_flush", "清一色"), ("mixed_pungs", "混碰"), ("pure_pungs", "清碰"), ("mixed_terminals", "混幺九"),
    ("little_dragons", "小三元"), ("little_winds", "小四喜"), ("all_honours", "字一色"), ("all_terminals", "清幺九"),
    ("big_dragons", "大三元"), ("big_winds", "大四喜"), ("nine_gates", "九莲宝灯"), ("thirteen_orphans", "十三幺"),
    ("seven_pairs", "七对"), ("self_draw", "自摸"), ("seat_wind", "门风"), ("prevalent_wind", "圈风"),
    ("no_ghost", "无鬼"), ("four_ghosts", "满鬼"), ("kong_replacement", "杠上开花"), ("last_tile", "海底捞月"),
    ("robbing_kong", "抢杠"), ("multi_win", "一炮三响"), ("heavenly", "天和"), ("earthly", "地和"), ("human", "人和"),
]


@pytest.mark.parametrize(("pid", "zh"), NAME_ROWS, ids=[r[0] for r in NAME_ROWS])
def test_chinese_names_follow_rules_md(pid, zh) -> None:
    assert PATTERNS[pid].zh == zh


# ---- facts: the evaluator skips a pattern whose required facts fail, so it must never apply then ------------------

def test_a_pattern_never_applies_without_the_facts_it_requires() -> None:
    """On 2,000 random winning hands of every rule set, each reading: a pattern whose `requires` are not all among
    the situation's facts returns 0, and a special win applies exactly when the context names it."""
    from fanshot.datasets.synth.hands import corpus
    from fanshot.scoring.score import parse_request

    checked = 0
    for request in corpus(2000, 7):
        rs, hand, ctx = parse_request(request)
        ghosts = ghost_tiles(rs, ctx)
        held = sum(1 for code in hand.concealed if code in ghosts)
        for arrangement in candidates(rs, hand, ghosts):
            situation = Situation(arrangement, hand, ctx, rs.options, ghosts, held)
            for pattern in PATTERNS.values():
                if pattern.special_win:
                    assert pattern.applies(situation) == int(pattern.id in ctx.special)
                elif not pattern.requires <= situation.facts:
                    assert pattern.applies(situation) == 0, (pattern.id, request)
                    checked += 1
    assert checked > 10_000


def test_special_wins_exclude_only_in_rule_sets_that_say_so() -> None:
    """A special win's precedence applies (scoring.evaluate): 杠上杠 removes 杠上开花 everywhere; no other special win
    removes anything, except where a rule set's `[excludes]` says so (hongkong: 搶槓 and the first-turn wins are no
    自摸)."""
    assert {p.id: p.excludes for p in PATTERNS.values() if p.special_win and p.excludes} == {
        "double_kong_replacement": ("kong_replacement",)}
    changed = {(name, pid) for name in rules.ruleset_names() for pid in rules.load(name).excludes
               if PATTERNS[pid].special_win}
    assert changed == {("hongkong", pid) for pid in ("heavenly", "earthly", "human", "robbing_kong")}
