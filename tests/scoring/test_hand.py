"""Hand, meld, stake and win-context models parsed from a score request (docs/API.md "Score request")."""

from __future__ import annotations

import contextlib

import pytest

from fanshot.scoring import ScoringError, score
from fanshot.scoring.hand import Meld, Stake, WinContext, parse_context, parse_hand, parse_meld, parse_stake

MELD_ROWS = [
    # (id, raw meld, expected Meld)
    ("chow", {"kind": "chow", "tiles": "789m"}, Meld("chow", ("7m", "8m", "9m"))),
    ("chow_any_order", {"kind": "chow", "tiles": "978m", "fed_by": "4z"}, Meld("chow", ("7m", "8m", "9m"),
                                                                              fed_by="4z")),
    ("pung", {"kind": "pung", "tiles": "555s"}, Meld("pung", ("5s",) * 3)),
    ("pung_letters", {"kind": "pung", "tiles": "CCC", "fed_by": "S"}, Meld("pung", ("7z",) * 3, fed_by="2z")),
    ("fed_kong", {"kind": "kong", "tiles": "7777z", "fed_by": "3z"}, Meld("kong", ("7z",) * 4, fed_by="3z")),
    ("added_kong", {"kind": "kong", "tiles": "2222s", "added": True}, Meld("kong", ("2s",) * 4, added=True)),
    ("concealed_kong", {"kind": "kong", "tiles": "1111p", "concealed": True},
     Meld("kong", ("1p",) * 4, concealed=True)),
]


@pytest.mark.parametrize(("raw", "expected"), [pytest.param(*r[1:], id=r[0]) for r in MELD_ROWS])
def test_parse_meld(raw, expected) -> None:
    assert parse_meld(raw, 0) == expected


BAD_MELD_ROWS = [
    # (id, raw meld, code, message fragment)
    ("unknown_kind", {"kind": "quad", "tiles": "1111m"}, "bad_meld", "kind"),
    ("missing_kind", {"tiles": "111m"}, "bad_meld", "kind"),
    ("short_pung", {"kind": "pung", "tiles": "11m"}, "bad_meld", "3 tiles"),
    ("long_kong", {"kind": "kong", "tiles": "11111m"}, "bad_meld", "4 tiles"),
    ("no_tiles", {"kind": "pung"}, "bad_meld", "got 0"),
    ("mixed_pung", {"kind": "pung", "tiles": "112m"}, "bad_meld", "identical"),
    ("gapped_chow", {"kind": "chow", "tiles": "135m"}, "bad_meld", "not a chow"),
    ("two_suit_chow", {"kind": "chow", "tiles": "12m3p"}, "bad_meld", "not a chow"),
    ("honour_chow", {"kind": "chow", "tiles": "123z"}, "bad_meld", "not a chow"),
    ("wrapping_chow", {"kind": "chow", "tiles": "891m"}, "bad_meld", "not a chow"),
    ("concealed_pung", {"kind": "pung", "tiles": "111m", "concealed": True}, "bad_meld", "only a kong"),
    ("added_chow", {"kind": "chow", "tiles": "123m", "added": True}, "bad_meld", "only a kong"),
    ("concealed_and_added", {"kind": "kong", "tiles": "1111m", "concealed": True, "added": True}, "bad_meld",
     "concealed"),
    ("concealed_and_fed", {"kind": "kong", "tiles": "1111m", "concealed": True, "fed_by": "2z"}, "bad_meld",
     "concealed"),
    ("flag_not_bool", {"kind": "kong", "tiles": "1111m", "concealed": "yes"}, "bad_meld", "true or false"),
    ("unknown_field", {"kind": "pung", "tiles": "111m", "from": "2z"}, "bad_request", "from"),
    ("not_an_object", ["pung", "111m"], "bad_request", "object"),
    ("bad_tiles", {"kind": "pung", "tiles": "111q"}, "bad_tile", "hand.melds[0].tiles"),
    ("fed_by_not_a_seat", {"kind": "pung", "tiles": "111m", "fed_by": "5z"}, "bad_context", "fed_by"),
    # a malformed seat string is a bad seat, whatever part of it fails to parse
    ("fed_by_flower", {"kind": "pung", "tiles": "111m", "fed_by": "1f"}, "bad_context", "fed_by"),
    ("fed_by_lowercase_letter", {"kind": "pung", "tiles": "111m", "fed_by": "e"}, "bad_context", "fed_by"),
    ("fed_by_unknown_suit", {"kind": "pung", "tiles": "111m", "fed_by": "1x"}, "bad_context", "fed_by"),
]


@pytest.mark.parametrize(("raw", "code", "fragment"), [pytest.param(*r[1:], id=r[0]) for r in BAD_MELD_ROWS])
def test_parse_meld_rejects(raw, code, fragment) -> None:
    with pytest.raises(ScoringError) as caught:
        parse_meld(raw, 0)
    assert caught.value.code == code
    assert fragment in caught.value.message


def test_parse_hand_full_shape() -> None:
    hand = parse_hand({"concealed": "123m456p11z", "flowers": "15f", "winning_tile": "E",
                       "melds": [{"kind": "chow", "tiles": "789m"}, {"kind": "kong", "tiles": "1111p",
                                                                     "concealed": True}]})
    assert hand.concealed == ("1m", "2m", "3m", "4p", "5p", "6p", "1z", "1z")
    assert hand.flowers == ("1f", "5f")
    assert hand.winning_tile == "1z"
    assert [m.kind for m in hand.melds] == ["chow", "kong"]
    assert [m.kind for m in hand.exposed_melds] == ["chow"]
    assert sorted(hand.all_tiles()) == sorted(["1m", "2m", "3m", "4p", "5p", "6p", "1z", "1z", "7m", "8m", "9m",
                                               "1p", "1p", "1p", "1p"])


BAD_HAND_ROWS = [
    ("not_an_object", "123m", "bad_request"),
    ("missing_concealed", {"melds": []}, "bad_request"),
    ("unknown_field", {"concealed": "11z", "bonus": "1f"}, "bad_request"),
    ("melds_not_list", {"concealed": "11z", "melds": {"kind": "pung"}}, "bad_request"),
    ("concealed_not_string", {"concealed": ["1m"]}, "bad_tile"),
    ("flower_in_concealed", {"concealed": "11z1f"}, "bad_tile"),
    ("tile_in_flowers", {"concealed": "11z", "flowers": "1m"}, "bad_tile"),
    ("two_winning_tiles", {"concealed": "11z", "winning_tile": "1z1z"}, "bad_tile"),
    ("flower_winning_tile", {"concealed": "11z", "winning_tile": "1f"}, "bad_tile"),
]


@pytest.mark.parametrize(("raw", "code"), [pytest.param(*r[1:], id=r[0]) for r in BAD_HAND_ROWS])
def test_parse_hand_rejects(raw, code) -> None:
    with pytest.raises(ScoringError) as caught:
        parse_hand(raw)
    assert caught.value.code == code


def test_context_defaults() -> None:
    context = parse_context({})
    assert context == WinContext()
    assert (context.win, context.seat_wind, context.prevalent_wind) == ("self_draw", "1z", "1z")
    assert context.is_dealer and context.self_drawn
    assert context.horses is None and context.ghosts == () and context.stake == Stake()


def test_context_full_shape() -> None:
    context = parse_context({"win": "discard", "seat_wind": "S", "prevalent_wind": "2z", "discarder": "3z",
                             "special": ["robbing_kong"], "liable": "3z", "ghosts": "5z", "horses": "15m2z",
                             "stake": {"unit": 2, "fee": 1, "flower": 1, "kong": 2, "chicken": 3}})
    assert context.seat_wind == "2z" and not context.is_dealer
    assert context.self_drawn  # 抢杠 counts as self-draw
    assert context.special == frozenset({"robbing_kong"})
    assert context.horses == ("1m", "5m", "2z")
    assert context.ghosts == ("5z",)
    assert context.stake == Stake(unit=2, fee=1, flower=1, kong=2, chicken=3)


def test_context_discard_is_not_self_drawn() -> None:
    assert not parse_context({"win": "discard", "discarder": "2z"}).self_drawn


BAD_CONTEXT_ROWS = [
    ("not_an_object", [], "bad_request"),
    ("unknown_field", {"dealer": "1z"}, "bad_request"),
    ("win", {"win": "ron"}, "bad_context"),
    ("seat_dragon", {"seat_wind": "5z"}, "bad_context"),
    ("seat_two_tiles", {"seat_wind": "1z2z"}, "bad_context"),
    ("seat_empty", {"seat_wind": ""}, "bad_context"),
    ("seat_number", {"seat_wind": 1}, "bad_context"),
    ("prevalent_suit", {"prevalent_wind": "1m"}, "bad_context"),
    ("seat_flower", {"seat_wind": "1f"}, "bad_context"),
    ("prevalent_lowercase_letter", {"prevalent_wind": "e"}, "bad_context"),
    ("discarder_unknown_suit", {"win": "discard", "discarder": "2x"}, "bad_context"),
    ("kong_fed_by_flower", {"kong_fed_by": "3f"}, "bad_context"),
    ("liable_digit_only", {"liable": "3"}, "bad_context"),
    ("special_string", {"special": "heavenly"}, "bad_context"),
    ("special_unknown", {"special": ["riichi"]}, "bad_context"),
    ("ghosts_flower", {"ghosts": "1f"}, "bad_tile"),
    ("horses_flower", {"horses": "1f"}, "bad_tile"),
    ("stake_not_object", {"stake": 5}, "bad_request"),
    ("stake_unknown", {"stake": {"ante": 1}}, "bad_request"),
    ("stake_negative", {"stake": {"unit": -1}}, "bad_context"),
    ("stake_string", {"stake": {"unit": "1"}}, "bad_context"),
    ("stake_bool", {"stake": {"fee": True}}, "bad_context"),
    ("stake_nan", {"stake": {"unit": float("nan")}}, "bad_context"),
    ("stake_inf", {"stake": {"unit": float("inf")}}, "bad_context"),
]


@pytest.mark.parametrize(("raw", "code"), [pytest.param(*r[1:], id=r[0]) for r in BAD_CONTEXT_ROWS])
def test_parse_context_rejects(raw, code) -> None:
    with pytest.raises(ScoringError) as caught:
        parse_context(raw)
    assert caught.value.code == code


def test_stake_defaults() -> None:
    assert parse_stake({}) == Stake(unit=1, fee=0, flower=0, kong=0, chicken=1)
    assert parse_stake({"unit": 0.5}).unit == 0.5


STAKE_NUMBER_ROWS = [
    # (rule set, stake): the flower / kong / chicken stake numbers belong to qianggang (docs/RULES.md rule set 4)
    ("jipinghu", {"flower": 1}),
    ("jipinghu", {"chicken": 3}),
    ("xinzhang", {"kong": 2}),
    ("tuidaohu", {"flower": 1, "kong": 2, "chicken": 3}),
]


@pytest.mark.parametrize(("ruleset", "stake"), STAKE_NUMBER_ROWS,
                         ids=[f"{r[0]}-{'-'.join(r[1])}" for r in STAKE_NUMBER_ROWS])
def test_stake_numbers_only_in_qianggang(ruleset, stake) -> None:
    request = {"ruleset": ruleset, "options": {"min_fan": 0} if ruleset == "xinzhang" else {},
               "hand": {"concealed": "123m456p789s555s11z"}, "context": {"stake": {"unit": 2, **stake}}}
    with pytest.raises(ScoringError) as caught:
        score(request)
    assert caught.value.code == "not_allowed"
    assert "stake" in caught.value.message
    request["context"]["stake"] = {"unit": 2}  # the unit alone is fine anywhere
    assert score(request)["points"] == (1 if ruleset == "tuidaohu" else 2)  # 平胡 1 unit; 鸡胡 + 自摸 1 fan
    request["ruleset"], request["options"] = "qianggang", {}
    request["context"]["stake"] = {"unit": 2, **stake}  # and the same stake scores in qianggang
    assert score(request)["ruleset"] == "qianggang"


def test_hand_counts_kongs_as_three() -> None:
    # 14 + one tile per kong: 11 standing tiles and a kong is a full hand, 12 is 大相公, 10 is 小相公
    kong = {"kind": "kong", "tiles": "2222s", "concealed": True}
    assert score({"hand": {"concealed": "123m456p789s11z", "melds": [kong]}})["points"] == 2
    for concealed, code in (("123m456p789s11z9m", "too_many_tiles"), ("123m456p789s1z", "too_few_tiles")):
        with pytest.raises(ScoringError) as caught:
            score({"hand": {"concealed": concealed, "melds": [kong]}})
        assert caught.value.code == code


def test_scoring_error_passes_through_context_managers() -> None:
    # regression: a frozen-dataclass ScoringError became FrozenInstanceError inside contextlib `with` blocks
    @contextlib.contextmanager
    def guard():
        yield

    with pytest.raises(ScoringError) as caught, guard():
        score({"hand": {"concealed": "1x"}})
    assert caught.value.code == "bad_tile"


def test_huge_stake_is_refused_or_finite() -> None:
    # regression: a finite but huge stake overflowed to inf/-inf payments
    request = {"hand": {"concealed": "123m456p789s555s11z"}, "context": {"stake": {"unit": 1e308}}}
    try:
        payments = score(request)["payments"]
    except ScoringError as error:
        assert error.code == "bad_context"
        return
    assert all(abs(v) < float("inf") for v in payments.values())
