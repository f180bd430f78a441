"""Ready-hand analysis (scoring.analysis): shanten, waits and their values, useful tiles, discards, refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from fanshot.datasets.synth.hands import RULESETS, random_request, random_tiles
from fanshot.scoring import score
from fanshot.scoring import tiles as t
from fanshot.scoring.analysis import Setting, _drawn_shanten, _setting, analyse, shanten
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.hand import Hand
from fanshot.scoring.rules import load
from fanshot.scoring.score import candidates

# The library's winning shapes are ours with 七对 on: 4 sets + a pair, seven distinct pairs, thirteen orphans.
SAME_SHAPES = {"seven_pairs": True, "seven_pairs_quads": False}
WINNING = load("jipinghu", SAME_SHAPES)


def _codes(counts: list[int]) -> tuple[str, ...]:
    return tuple(code for code, n in zip(t.PLAYING_TILES, counts, strict=True) for _ in range(n))


def _library_wins(counts: list[int]) -> list[str]:
    """Tiles completing 13 tiles by the library's agari: the four-copy limit applied."""
    return [code for i, code in enumerate(t.PLAYING_TILES)
            if counts[i] < 4 and Agari.is_agari([n + (j == i) for j, n in enumerate(counts)])]


def _check_against_library(seed: int, melds: int) -> None:
    """Shanten and agari of one random hand with no quads, ours against the `mahjong` library's."""
    rng = random.Random(seed)
    size = rng.choice((13, 14)) - 3 * melds
    counts = random_tiles(rng, size)
    expected = Shanten.calculate_shanten(counts)
    assert shanten(counts, melds=melds, seven_pairs=True) == expected, _codes(counts)
    if melds:
        return
    if size == 14:
        ours = bool(candidates(WINNING, Hand(_codes(counts)), ()))
        assert ours == Agari.is_agari(counts), _codes(counts)
    elif expected == 0:
        waits = [code for code in t.PLAYING_TILES
                 if candidates(WINNING, Hand(_codes(counts) + (code,)), ())]
        assert waits == _library_wins(counts), _codes(counts)


@pytest.mark.slow
def test_shanten_and_agari_match_mahjong_library() -> None:
    """10,000 seeded random hands, none with four of a kind, 0-2 melds (the library takes the missing sets as
    melded): shanten equal; with no melds, 14 tiles complete exactly when the library's agari says so and a ready
    hand's waits are the tiles its agari accepts."""
    for seed in range(10_000):
        _check_against_library(seed, melds=seed % 5 // 3)


def _analyse_request(counts: list[int]) -> dict:
    return {"options": SAME_SHAPES, "hand": {"concealed": "".join(_codes(counts))}}


def _check_analysis_against_library(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice((13, 14))
    counts = random_tiles(rng, size)
    answer = analyse(_analyse_request(counts))
    assert answer["shanten"] == Shanten.calculate_shanten(counts)
    if size == 13:
        if answer["shanten"] == 0:
            assert [w["tile"] for w in answer["waits"]] == _library_wins(counts)
        return
    for entry in answer["discards"]:
        rest = list(counts)
        rest[t.INDEX[entry["discard"]]] -= 1
        assert entry["shanten"] == Shanten.calculate_shanten(rest), (_codes(counts), entry["discard"])
        if entry["shanten"] == 0:
            assert [w["tile"] for w in entry["waits"]] == _library_wins(rest)


QUICK_SEEDS = 300


@pytest.mark.slow
def test_analysis_matches_mahjong_library() -> None:
    """The whole analysis (analyse(), every discard of 14 tiles) on 300 seeded random hands."""
    for seed in range(QUICK_SEEDS):
        _check_analysis_against_library(seed)


@pytest.mark.slow
def test_analysis_matches_mahjong_library_10k() -> None:
    """The same on the next 9,700 hands (the first 300 are the test above)."""
    for seed in range(QUICK_SEEDS, 10_000):
        _check_analysis_against_library(seed)


# ---- ghosts: a wildcard is the best tile it could stand for -----------------------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ghosts=st.integers(1, 2))
def test_a_ghost_is_the_best_tile_it_could_be(seed: int, ghosts: int) -> None:
    rng = random.Random(seed)
    counts = random_tiles(rng, rng.choice((13, 14)) - ghosts)
    options = {"seven_pairs": True, "seven_pairs_quads": True}
    expected = min(shanten([n + (j == a) + (j == b) for j, n in enumerate(counts)], **options)
                   for a in range(34) for b in (range(a, 34) if ghosts == 2 else (None,)))
    assert shanten(counts, ghosts, **options) == expected


# ---- table: shapes and rule sets ------------------------------------------------------------------------------

WAIT_ROWS = [
    # (id, request, shanten, waits)
    ("single_wait", {"hand": {"concealed": "123m456p789s555s1z"}}, 0, ["1z"]),
    ("nine_gates", {"hand": {"concealed": "1112345678999m"}}, 0, [f"{n}m" for n in range(1, 10)]),
    ("thirteen_orphans_13_sided", {"hand": {"concealed": "19m19p19s1234567z"}}, 0,
     list(t.TERMINALS + t.HONOUR_TILES)),
    ("thirteen_orphans_missing_one", {"hand": {"concealed": "19m19p1s11234567z"}}, 0, ["9s"]),
    ("seven_pairs_on", {"options": {"seven_pairs": True}, "hand": {"concealed": "1133m5577p22s66z7z"}}, 0, ["7z"]),
    ("seven_pairs_off", {"hand": {"concealed": "1133m5577p22s66z7z"}}, 3, None),
    ("melds", {"hand": {"concealed": "45m11z", "melds": [{"kind": "pung", "tiles": "555s"},
                                                          {"kind": "chow", "tiles": "123p"},
                                                          {"kind": "kong", "tiles": "9999m"}]}}, 0, ["3m", "6m"]),
    ("fifth_copy_is_no_wait", {"hand": {"concealed": "1111m234p567p789s"}}, 1, None),
    ("white_ghost_single", {"ruleset": "tuidaohu", "options": {"ghosts": "white"},
                            "hand": {"concealed": "123m456p789s234s5z"}}, 0, list(t.PLAYING_TILES)),
    ("no_fifth_ghost", {"ruleset": "tuidaohu", "options": {"ghosts": "flip2"},
                        "hand": {"concealed": "113m22p8888p4s99s5z"}, "context": {"ghosts": "18p"}}, 0,
     [code for code in t.PLAYING_TILES if code != "8p"]),  # 满鬼 wins on any draw, but no fifth 8p
    ("ghost_pair_of_ghosts", {"ruleset": "tuidaohu", "options": {"ghosts": "white"},
                              "hand": {"concealed": "123m456p789s55z1z2z"}}, 0, ["1z", "2z", "5z"]),
]


@pytest.mark.parametrize(("request_", "expected_shanten", "expected_waits"),
                         [pytest.param(*row[1:], id=row[0]) for row in WAIT_ROWS])
def test_thirteen_tiles(request_: dict, expected_shanten: int, expected_waits: list[str] | None) -> None:
    answer = analyse(request_)
    assert answer["tiles"] == 13
    assert answer["shanten"] == expected_shanten
    if expected_waits is None:
        assert "waits" not in answer
        assert answer["useful"]
    else:
        assert "useful" not in answer
        assert [w["tile"] for w in answer["waits"]] == expected_waits


def test_useful_tiles_lower_shanten_and_count_what_is_left() -> None:
    answer = analyse({"hand": {"concealed": "123m456p789s55s1z2z"}})
    assert answer["shanten"] == 1
    assert answer["useful"] == [{"tile": "5s", "remaining": 2}, {"tile": "1z", "remaining": 3},
                                {"tile": "2z", "remaining": 3}]


def test_remaining_counts_melds_and_hand() -> None:
    answer = analyse({"hand": {"concealed": "1123m999s", "melds": [{"kind": "pung", "tiles": "111p"},
                                                                   {"kind": "chow", "tiles": "234m"}]}})
    # 1m: 11m + 123m; 4m: 11m + 234m. The hand shows two 1m; the chow shows one 4m
    assert [(w["tile"], w["remaining"]) for w in answer["waits"]] == [("1m", 2), ("4m", 3)]


def test_discard_win_forbidden_is_null() -> None:
    answer = analyse({"ruleset": "tuidaohu", "hand": {"concealed": "123m456p789s555s1z"}})
    assert answer["waits"][0]["discard"] is None
    assert answer["waits"][0]["self_draw"] is not None


def test_below_minimum_fan_is_null() -> None:
    answer = analyse({"options": {"min_fan": 1}, "hand": {"concealed": "123m456p789s555s1z"}})
    assert answer["waits"] == [{"tile": "1z", "remaining": 3, "self_draw": {"fan_total": 1, "points": 2},
                                "discard": None}]


def test_fourteen_tiles_every_discard_best_first() -> None:
    answer = analyse({"hand": {"concealed": "123m456p789s555s1z2z"}})
    assert answer["tiles"] == 14 and answer["shanten"] == 0
    discards = answer["discards"]
    assert sorted(e["discard"] for e in discards) == sorted(set(t.parse("123m456p789s5s1z2z")))
    assert [e["discard"] for e in discards[:2]] == ["1z", "2z"]  # ready, the same three tiles left each
    assert [e["shanten"] for e in discards] == sorted(e["shanten"] for e in discards)
    assert discards[0]["waits"] == [{"tile": "2z", "remaining": 3, "self_draw": {"fan_total": 1, "points": 2},
                                     "discard": {"fan_total": 0, "points": 1}}]
    assert "useful" in discards[-1] and "waits" not in discards[-1]


def test_fourteen_tiles_complete_hand() -> None:
    answer = analyse({"hand": {"concealed": "123m456p789s555s11z"}})
    assert answer["shanten"] == -1


def test_ready_discards_rank_by_tiles_left() -> None:
    # 1-4m wait (8 tiles) beats a 1z single wait (3) though both are ready
    answer = analyse({"hand": {"concealed": "23m456p789s555s11z9m"}})
    assert answer["discards"][0]["discard"] == "9m"
    assert [w["tile"] for w in answer["discards"][0]["waits"]] == ["1m", "4m"]


# ---- every value is the scorer's ------------------------------------------------------------------------------

WIN_ONLY = ("win", "discarder", "special", "horses", "liable", "kong_fed_by")


def _waiting(request: dict) -> tuple[dict, str]:
    """A winning request less its winning tile and the fields of a finished win: 13 tiles and that tile."""
    hand = dict(request["hand"])
    winning = hand.pop("winning_tile")
    concealed = t.parse(hand["concealed"])
    concealed.remove(winning)
    hand["concealed"] = "".join(concealed)
    context = {k: v for k, v in request.get("context", {}).items() if k not in WIN_ONLY}
    return {**request, "hand": hand, "context": context}, winning


def _scored(waiting: dict, tile: str, context: dict) -> dict | None:
    hand = {**waiting["hand"], "concealed": waiting["hand"]["concealed"] + tile, "winning_tile": tile}
    try:
        response = score({**waiting, "hand": hand, "context": {**waiting["context"], **context}})
    except ScoringError as error:
        assert error.code in ("below_minimum_fan", "not_allowed")
        return None
    return {"fan_total": response["fan_total"], "points": response["points"]}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(RULESETS))
def test_every_wait_is_valued_by_the_scorer(seed: int, ruleset: str) -> None:
    waiting, winning = _waiting(random_request(random.Random(seed), ruleset))
    answer = analyse(waiting)
    assert answer["shanten"] == 0
    assert winning in [w["tile"] for w in answer["waits"]]
    seat = waiting["context"].get("seat_wind", "1z")
    previous = t.SEATS[(t.SEATS.index(seat) - 1) % 4]
    for wait in answer["waits"]:
        assert wait["self_draw"] == _scored(waiting, wait["tile"], {"win": "self_draw"})
        assert wait["discard"] == _scored(waiting, wait["tile"], {"win": "discard", "discarder": previous})


# ---- the draw search: one shanten per kind of draw gives every tile's --------------------------------------------

def _every_draw(setting: Setting, concealed: tuple[str, ...]) -> list[tuple[str, int]]:
    """The exhaustive reference: one shanten per tile left to draw."""
    return [(code, setting.shanten(concealed + (code,))) for code in t.PLAYING_TILES if setting.remaining(code)]


def _draws_agree(request: dict) -> int:
    """The fast draw search equals the exhaustive one on the request's 13 tiles, or on each 13 a discard from
    its 14 leaves; the number of 13-tile hands checked."""
    setting = _setting(request)
    concealed = setting.hand.concealed
    hands = [concealed] if len(concealed) % 3 == 1 else \
        [tuple(concealed[:i] + concealed[i + 1:]) for i, code in enumerate(concealed) if code not in concealed[:i]]
    for hand in hands:
        assert _drawn_shanten(setting, hand) == _every_draw(setting, hand), (request, hand)
    return len(hands)


DRAW_OPTIONS = ({}, {"seven_pairs": True, "seven_pairs_quads": False}, {"seven_pairs": True},
                {"ghosts": "white"}, {"ghosts": "white", "seven_pairs": False})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_draw_search_equals_one_shanten_per_tile(ruleset: str) -> None:
    """Seeded random hands: winning hands less their winning tile (melds, kongs, ghosts of every mode, 七对,
    十三幺), checked on every discard; and standing tiles of every shape and distance, with and without 七对 and
    a white ghost where the rule set has ghosts."""
    rng = random.Random(ruleset)
    for _ in range(12):
        waiting, _ = _waiting(random_request(rng, ruleset))
        assert _draws_agree(waiting)
    ghost_play = "no_ghost" in load(ruleset).table("bonuses")  # the rule sets that play with ghosts
    for options in DRAW_OPTIONS:
        if "ghosts" in options and not ghost_play:
            continue
        for _ in range(8):
            tiles = _codes(random_tiles(rng, rng.choice((13, 14)), max_copies=4))
            assert _draws_agree({"ruleset": ruleset, "options": options, "hand": {"concealed": "".join(tiles)}})


@pytest.mark.parametrize("request_", [
    pytest.param({"options": {"seven_pairs": True, "seven_pairs_quads": False},
                  "hand": {"concealed": "1111m2233p4455s6z"}}, id="seven_pairs_under_seven_kinds"),
    pytest.param({"options": {"seven_pairs": True}, "hand": {"concealed": "1111m2233p4455s6z"}},
                 id="seven_pairs_quads_under_seven_kinds"),
    *[pytest.param(row[1], id=row[0]) for row in WAIT_ROWS],  # 13 orphans, a fifth copy, ghosts, 满鬼
])
def test_the_draw_search_on_special_shapes(request_: dict) -> None:
    assert _draws_agree(request_)


# ---- refusals ---------------------------------------------------------------------------------------------

ERROR_ROWS = [
    ("twelve_tiles", {"hand": {"concealed": "123m456p789s55s"}}, "too_few_tiles"),
    ("fifteen_tiles", {"hand": {"concealed": "123m456p789s555s123z"}}, "too_many_tiles"),
    ("winning_tile_given", {"hand": {"concealed": "123m456p789s555s11z", "winning_tile": "1z"}}, "bad_request"),
    ("winning_tile_on_13", {"hand": {"concealed": "123m456p789s555s1z", "winning_tile": "1z"}}, "bad_request"),
    ("special", {"hand": {"concealed": "123m456p789s555s1z"}, "context": {"special": ["last_tile"]}},
     "bad_context"),
    ("horses", {"ruleset": "tuidaohu", "options": {"horses": True}, "hand": {"concealed": "123m456p789s555s1z"},
                "context": {"horses": "1m2m3m4m5m6m"}}, "bad_context"),
    ("bad_tile", {"hand": {"concealed": "123x"}}, "bad_tile"),
    ("fifth_copy", {"hand": {"concealed": "11111m456p789s55s"}}, "too_many_copies"),
    ("discarder_is_winner", {"hand": {"concealed": "123m456p789s555s1z"},
                             "context": {"seat_wind": "2z", "discarder": "2z"}}, "bad_context"),
    ("ghost_contradicts_mode", {"ruleset": "tuidaohu", "options": {"ghosts": "white"},
                                "hand": {"concealed": "123m456p789s555s1z"}, "context": {"ghosts": "1z"}},
     "bad_context"),
    ("not_an_object", [1], "bad_request"),
]


@pytest.mark.parametrize(("request_", "code"), [pytest.param(*row[1:], id=row[0]) for row in ERROR_ROWS])
def test_refusals(request_: object, code: str) -> None:
    with pytest.raises(ScoringError) as refused:
        analyse(request_)
    assert refused.value.code == code
