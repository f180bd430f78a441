"""Every way a hand's tiles form a winning shape (docs/RULES.md "Hand shape"): 4 sets + a pair, 七对, 十三幺, ghosts as
wildcards that never make a fifth copy — and the scorer picks the best-scoring one, deterministically."""

from __future__ import annotations

import random

import pytest

from fanshot.scoring import score
from fanshot.scoring import tiles as t
from fanshot.scoring.decompose import Arrangement, arrangements
from fanshot.scoring.hand import Meld


def readings(concealed: str, ghosts: int = 0, melds: tuple[Meld, ...] = (), *, seven_pairs: bool = False,
             quads: bool = True) -> set[tuple[str, frozenset]]:
    """Each arrangement as (shape, multiset of 'notation/kind' strings)."""
    found = arrangements(t.counts(t.parse(concealed)), ghosts, melds, seven_pairs=seven_pairs,
                         seven_pairs_quads=quads)
    result = set()
    for a in found:
        groups = sorted(f"{g.notation()}/{g.kind}" for g in a.groups)
        result.add((a.shape, tuple(groups)))
    assert len(result) == len(found), "no arrangement is listed twice"
    return result


def std(*groups: str) -> tuple[str, tuple[str, ...]]:
    return "standard", tuple(sorted(groups))


SHAPE_ROWS = [
    # (id, concealed, kwargs, every arrangement)
    ("single_reading", "123m456p789s555s11z", {},
     {std("123m/chow", "456p/chow", "789s/chow", "555s/pung", "11z/pair")}),
    ("pungs_or_chows", "111222333m789p11z", {},
     {std("123m/chow", "123m/chow", "123m/chow", "789p/chow", "11z/pair"),
      std("111m/pung", "222m/pung", "333m/pung", "789p/chow", "11z/pair")}),
    ("nine_gates_one_reading", "11123456789999m", {},
     {std("123m/chow", "456m/chow", "789m/chow", "11m/pair", "999m/pung")}),
    ("not_winning", "123m456p789s555s12z", {}, set()),
    ("seven_pairs_off", "1122m3344p5566s77z", {}, set()),
    ("seven_pairs_on", "1122m3344p5566s77z", {"seven_pairs": True},
     {("seven_pairs", tuple(sorted(["11m/pair", "22m/pair", "33p/pair", "44p/pair", "55s/pair", "66s/pair",
                                    "77z/pair"])))}),
    ("seven_pairs_or_standard", "112233m445566p77z", {"seven_pairs": True},
     {std("123m/chow", "123m/chow", "456p/chow", "456p/chow", "77z/pair"),
      ("seven_pairs", tuple(sorted(["11m/pair", "22m/pair", "33m/pair", "44p/pair", "55p/pair", "66p/pair",
                                    "77z/pair"])))}),
    ("seven_pairs_quad_as_two_pairs", "1111m3344p5566s77z", {"seven_pairs": True},
     {("seven_pairs", tuple(sorted(["11m/pair", "11m/pair", "33p/pair", "44p/pair", "55s/pair", "66s/pair",
                                    "77z/pair"])))}),
    ("seven_pairs_quad_refused", "1111m3344p5566s77z", {"seven_pairs": True, "quads": False}, set()),
    ("thirteen_orphans", "19m19p19s1234567z9s", {},
     {("thirteen_orphans", tuple(sorted([f"{c}/single" for c in t.TERMINALS + t.HONOUR_TILES if c != "9s"]
                                        + ["99s/pair"])))}),
    ("thirteen_orphans_two_pairs_is_not", "19m19p19s123456z99s", {}, set()),
]


@pytest.mark.parametrize(("concealed", "kwargs", "expected"), [pytest.param(*r[1:], id=r[0]) for r in SHAPE_ROWS])
def test_all_readings(concealed, kwargs, expected) -> None:
    assert readings(concealed, **kwargs) == expected


MELD_ROWS = [
    # (id, meld, its group as (notation, kind, concealed), tile count of the hand)
    ("exposed_pung", Meld("pung", ("5s",) * 3, fed_by="3z"), ("555s", "pung", False), 14),
    ("concealed_kong", Meld("kong", ("1p",) * 4, concealed=True), ("1111p", "kong", True), 15),
    ("exposed_chow", Meld("chow", ("7p", "8p", "9p")), ("789p", "chow", False), 14),
]


@pytest.mark.parametrize(("meld", "group", "size"), [pytest.param(*r[1:], id=r[0]) for r in MELD_ROWS])
def test_melds_join_every_reading(meld, group, size) -> None:
    found = arrangements(t.counts(t.parse("111222333m11z")), 0, (meld,), seven_pairs=True, seven_pairs_quads=True)
    assert len(found) == 2  # the pungs-or-chows choice remains; no 七对 / 十三幺 with a meld
    for a in found:
        assert a.shape == "standard"
        assert group in {(g.notation(), g.kind, g.concealed) for g in a.groups}
        assert sum(a.counts) == size  # a kong's fourth tile counted


def test_no_seven_pairs_or_orphans_with_melds() -> None:
    melds = (Meld("pung", ("5s",) * 3, fed_by="3z"),)
    assert arrangements(t.counts(t.parse("1122m3344p77z")), 0, melds, seven_pairs=True,
                        seven_pairs_quads=True) == []


# ---- ghosts -------------------------------------------------------------------------------------------------------

def _ghost_readings(concealed: str, ghosts: int, **kwargs) -> list[Arrangement]:
    return arrangements(t.counts(t.parse(concealed)), ghosts, (), seven_pairs=kwargs.get("seven_pairs", False),
                        seven_pairs_quads=True)


GHOST_ROWS = [
    # (id, real tiles, ghosts, kwargs, readings that must be among the results)
    ("ghost_completes_chow_middle", "13m456p789s555s11z", 1, {},
     [std("123m/chow", "456p/chow", "789s/chow", "555s/pung", "11z/pair")]),
    ("ghost_completes_chow_below", "23m456p789s555s11z", 1, {},
     [std("123m/chow", "456p/chow", "789s/chow", "555s/pung", "11z/pair"),
      std("234m/chow", "456p/chow", "789s/chow", "555s/pung", "11z/pair")]),
    ("ghost_completes_pair", "123m456p789s555s1z", 1, {},
     [std("123m/chow", "456p/chow", "789s/chow", "555s/pung", "11z/pair")]),
    ("ghost_completes_pung", "123m456p789s55s11z", 1, {},
     [std("123m/chow", "456p/chow", "789s/chow", "555s/pung", "11z/pair")]),
    ("three_ghosts_any_set", "123m456p789s11z", 3, {},
     [std("123m/chow", "456p/chow", "789s/chow", "777z/pung", "11z/pair"),
      std("123m/chow", "456p/chow", "789s/chow", "111z/pung", "99m/pair"),
      std("123m/chow", "456p/chow", "789s/chow", "789m/chow", "11z/pair")]),
    ("ghost_in_seven_pairs", "1122m3344p5566s7z", 1, {"seven_pairs": True},
     [("seven_pairs", tuple(sorted(["11m/pair", "22m/pair", "33p/pair", "44p/pair", "55s/pair", "66s/pair",
                                    "77z/pair"])))]),
    ("ghost_in_thirteen_orphans", "19m19p19s123456z1m", 1, {},
     [("thirteen_orphans", tuple(sorted([f"{c}/single" for c in t.TERMINALS + t.HONOUR_TILES if c != "1m"]
                                        + ["11m/pair"])))]),
]


@pytest.mark.parametrize(("concealed", "ghosts", "kwargs", "expected"),
                         [pytest.param(*r[1:], id=r[0]) for r in GHOST_ROWS])
def test_ghost_readings(concealed, ghosts, kwargs, expected) -> None:
    found = _ghost_readings(concealed, ghosts, **kwargs)
    got = {(a.shape, tuple(sorted(f"{g.notation()}/{g.kind}" for g in a.groups))) for a in found}
    for reading in expected:
        assert reading in got
    real = t.counts(t.parse(concealed))
    for a in found:
        assert max(a.counts) <= 4  # a ghost never stands for a fifth copy
        assert all(n >= r for n, r in zip(a.counts, real, strict=True))  # every real tile is used as itself
        assert sum(a.counts) - sum(real) == ghosts


def test_ghost_never_a_fifth_copy() -> None:
    found = _ghost_readings("1111m456p789s55s", 2)
    assert found, "1111m needs no fifth copy: 111m + 1m as part of a chow/pair"
    assert all(a.counts[t.INDEX["1m"]] <= 4 for a in found)
    # the two ghosts may not be read as 1m: no 1111m + 11m pair, no two 1m pungs
    assert all(sum(1 for g in a.groups if g.kind in ("pung", "pair") and g.first == t.INDEX["1m"]) <= 1
               or a.counts[t.INDEX["1m"]] <= 4 for a in found)


# ---- the best reading wins, deterministically ---------------------------------------------------------------------

BEST_ROWS = [
    # (id, ruleset, concealed, context, expected fan ids and values, decomposition groups)
    ("chows_beat_pungs", "jipinghu", "111222333m789p11z", {"win": "discard", "discarder": "2z"},
     {"all_chows": 1}, ["11z", "123m", "123m", "123m", "789p"]),
    ("pungs_beat_chows", "jipinghu", "111222333m444p11z", {"win": "discard", "discarder": "2z"},
     {"all_pungs": 2}, ["111m", "11z", "222m", "333m", "444p"]),
    ("pure_pungs_beat_full_flush", "jipinghu", "111222333m444m99m", {"win": "discard", "discarder": "2z"},
     {"pure_pungs": 5}, ["111m", "222m", "333m", "444m", "99m"]),
    ("seven_pairs_beat_chows_in_tuidaohu", "tuidaohu", "112233m445566p77z", {},
     {"seven_pairs": 1}, ["11m", "22m", "33m", "44p", "55p", "66p", "77z"]),
    ("mixed_pungs_beat_chows_and_dragon", "jipinghu", "111222333m555z11z", {"seat_wind": "2z"},
     {"mixed_pungs": 4}, ["111m", "11z", "222m", "333m", "555z"]),
    ("da_ge_beats_chows_qianggang", "qianggang", "111222333m444p11z",
     {"seat_wind": "2z", "win": "discard", "discarder": "3z"},
     {"all_pungs": 3}, ["111m", "11z", "222m", "333m", "444p"]),
    ("wind_pung_beats_chows", "jipinghu", "111z123m456p789s11m", {"win": "discard", "discarder": "2z"},
     {"chicken": 0, "prevalent_wind": 1, "seat_wind": 1}, ["111z", "11m", "123m", "456p", "789s"]),
]


@pytest.mark.parametrize(("ruleset", "concealed", "context", "fans", "groups"),
                         [pytest.param(*r[1:], id=r[0]) for r in BEST_ROWS])
def test_best_reading(ruleset, concealed, context, fans, groups) -> None:
    response = score({"ruleset": ruleset, "hand": {"concealed": concealed}, "context": context})
    assert {item["id"]: item["fan"] for item in response["fans"]} == fans
    assert sorted(g["tiles"] for g in response["decomposition"]["groups"]) == groups


@pytest.mark.parametrize("concealed", ["111222333m789p11z", "11123456789999m", "123m456p789s11z555z"])
def test_tie_break_is_deterministic_whatever_the_input_order(concealed) -> None:
    codes = t.parse(concealed)
    first = score({"hand": {"concealed": concealed}})
    rng = random.Random(7)
    for _ in range(5):
        rng.shuffle(codes)
        again = score({"hand": {"concealed": "".join(codes)}})
        assert again["decomposition"] == first["decomposition"]
        assert again["fans"] == first["fans"]


@pytest.mark.parametrize("concealed", ["33m77m33m7m123p456s9s", "33m77m33m77m123p456s"], ids=["seven", "eight"])
def test_many_ghosts_are_four_ghosts(concealed) -> None:
    response = score({"ruleset": "tuidaohu", "options": {"ghosts": "flip2"},
                      "hand": {"concealed": concealed}, "context": {"ghosts": "3m7m"}})
    assert response["points"] == 6  # 满鬼


GHOST_BEST_ROWS = [
    # (id, ruleset, options, concealed, ghosts, expected fans, points): ghosts take whatever value scores best
    ("tuidaohu_ghost_chow_or_pung", "tuidaohu", {"ghosts": "flip"}, "111m222p333s44m99s9m", "9m",
     {"all_pungs": 1}, 2),
    ("tuidaohu_seven_pairs_ghost_pair_all_honours", "tuidaohu", {"ghosts": "flip", "fans": {"all_honours": 2}},
     "112233445566z9m9m", "9m", {"all_honours": 2}, 4),
    ("xinzhang_seven_pairs_ghost_pair_all_honours", "xinzhang",
     {"ghosts": "flip", "seven_pairs": True, "min_fan": 0}, "112233445566z9m9m", "9m", {"all_honours": 7}, 128),
    ("jipinghu_seven_pairs_ghost_pair_all_honours", "jipinghu", {"ghosts": "flip", "seven_pairs": True},
     "112233445566z9m9m", "9m", {"all_honours": 6}, 64),
    # ghost-only groups and ghost pairs may take ANY identity, not only one of each kind (1/5/9, chows 123/456/789)
    ("jipinghu_ghost_only_chow_567_nine_gates", "jipinghu", {"ghosts": "flip"}, "11134555588999s", "5s",
     {"nine_gates": 6}, 64),
    ("jipinghu_ghost_only_pung_333m_pure_pungs", "jipinghu", {"ghosts": "flip"}, "111m555m999m22m777z", "7z",
     {"pure_pungs": 5}, 32),
    ("jipinghu_seven_pairs_no_quads_ghost_pair_33m", "jipinghu",
     {"ghosts": "flip", "seven_pairs": True, "seven_pairs_quads": False}, "112244557799m77z", "7z",
     {"full_flush": 4}, 16),
]


@pytest.mark.parametrize(
    ("ruleset", "options", "concealed", "ghosts", "fans", "points"),
    [pytest.param(*r[1:], id=r[0]) for r in GHOST_BEST_ROWS])
def test_ghosts_take_the_best_value(ruleset, options, concealed, ghosts, fans, points) -> None:
    response = score({"ruleset": ruleset, "options": options, "hand": {"concealed": concealed},
                      "context": {"ghosts": ghosts}})
    assert {item["id"]: item["fan"] for item in response["fans"]} == fans
    assert response["points"] == points


@pytest.mark.slow
def test_block_tables_match_the_search() -> None:
    """Each suit's precomputed splits, and the honours' direct split, are exactly the general search's (`_standard`
    without ghosts), for every vector the suit table holds and for random ones of at most 14 tiles (absent from the
    table when no split exists)."""
    from fanshot.scoring.decompose import _honour_splits, _standard, _suit_group_table, _suit_table

    def searched(start: int, counts: tuple[int, ...]) -> set:
        size = sum(counts)
        if size % 3 == 1:
            return set()
        vector = [0] * 34
        vector[start:start + len(counts)] = counts
        return set(_standard(tuple(vector), 0, size // 3, size % 3 == 2, ()))

    def looked_up(start: int, counts: tuple[int, ...]) -> set:
        found = _honour_splits(counts) if start == 27 else _suit_group_table(start).get(counts, ())
        return {tuple(sorted(split)) for split in found}

    for counts in _suit_table():
        assert looked_up(9, counts) == searched(9, counts)
    rng = random.Random(5)
    for _ in range(20_000):
        start = rng.choice((0, 9, 18, 27))
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(7 if start == 27 else 9))
        if sum(counts) > 14:  # more than a hand holds (4 sets and a pair)
            continue
        assert looked_up(start, counts) == searched(start, counts)


def test_warming_builds_every_suits_table_before_any_hand_is_scored():
    from fanshot.scoring import decompose, warm

    decompose._SUIT_GROUP_TABLES.clear()
    warm()
    assert sorted(decompose._SUIT_GROUP_TABLES) == [0, 9, 18]
