"""Tile codes and compact notation (docs/RULES.md "Tiles")."""

from __future__ import annotations

import pytest

from fanshot.scoring import tiles as t
from fanshot.scoring.errors import ScoringError

PARSE_ROWS = [
    # (text, kwargs, expected codes in input order)
    ("123m456p789s11z", {}, ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"]),
    ("1234567z", {}, ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]),
    ("ESWNPFC", {}, ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]),
    ("EE 7z", {}, ["1z", "1z", "7z"]),
    ("91m", {}, ["9m", "1m"]),
    ("", {}, []),
    ("  ", {}, []),
    ("15f", {"allow_flowers": True}, ["1f", "5f"]),
    ("12345678f", {"allow_flowers": True}, [f"{n}f" for n in range(1, 9)]),
    ("1m E 2p", {}, ["1m", "1z", "2p"]),
]


@pytest.mark.parametrize(("text", "kwargs", "expected"), PARSE_ROWS, ids=[repr(r[0]) for r in PARSE_ROWS])
def test_parse(text, kwargs, expected) -> None:
    assert t.parse(text, **kwargs) == expected


BAD_ROWS = [
    # (text, kwargs, fragment of the message)
    ("123", {}, "no suit letter"),
    ("m", {}, "no digits"),
    ("0m", {}, "'0m'"),
    ("8z", {}, "'8z'"),
    ("9f", {"allow_flowers": True}, "'9f'"),
    ("1f", {}, "flowers"),
    ("1x", {}, "unexpected character"),
    ("1E", {}, "no suit letter"),
    ("e", {}, "unexpected character"),
    ("1M", {}, "unexpected character"),
    (123, {}, "expected a string"),
    (None, {}, "expected a string"),
]


@pytest.mark.parametrize(("text", "kwargs", "fragment"), BAD_ROWS, ids=[repr(r[0]) for r in BAD_ROWS])
def test_parse_rejects(text, kwargs, fragment) -> None:
    with pytest.raises(ScoringError) as caught:
        t.parse(text, **kwargs)
    assert caught.value.code == "bad_tile"
    assert fragment in caught.value.message


def test_parse_names_the_field() -> None:
    with pytest.raises(ScoringError, match="hand.concealed"):
        t.parse("1x", field="hand.concealed")


def test_tile_vocabulary() -> None:
    assert len(t.PLAYING_TILES) == 34
    assert t.PLAYING_TILES[:3] == ("1m", "2m", "3m")
    assert t.HONOUR_TILES == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")
    assert tuple(f"{n}f" for n in range(1, 9)) == t.FLOWER_TILES
    # docs/API.md "Tile codes": the detector's class list is exactly these 43 names, in this order
    assert len(t.DETECTOR_CLASSES) == 43
    assert t.DETECTOR_CLASSES[-1] == "back"
    assert list(t.DETECTOR_CLASSES[:34]) == [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [
        f"{n}z" for n in range(1, 8)]
    assert t.WINDS == ("1z", "2z", "3z", "4z") and t.DRAGONS == ("5z", "6z", "7z")
    assert t.SEATS == t.WINDS
    assert set(t.TERMINALS) == {"1m", "9m", "1p", "9p", "1s", "9s"}


ALIAS_ROWS = [("E", "1z"), ("S", "2z"), ("W", "3z"), ("N", "4z"), ("P", "5z"), ("F", "6z"), ("C", "7z")]


@pytest.mark.parametrize(("letter", "code"), ALIAS_ROWS, ids=[r[0] for r in ALIAS_ROWS])
def test_letter_aliases(letter, code) -> None:
    # docs/RULES.md: P=白 (5z), F=發 (6z), C=中 (7z)
    assert t.parse(letter) == [code]


NAME_ROWS = [
    ("1m", "一万", "1 Character"), ("2m", "二万", "2 Characters"), ("1p", "一筒", "1 Dot"), ("9p", "九筒", "9 Dots"),
    ("1s", "一索", "1 Bamboo"), ("5s", "五索", "5 Bamboo"),
    ("1z", "东", "East"), ("2z", "南", "South"), ("3z", "西", "West"), ("4z", "北", "North"),
    ("5z", "白", "White Dragon"), ("6z", "發", "Green Dragon"), ("7z", "中", "Red Dragon"),
    ("1f", "梅", "Plum"), ("2f", "兰", "Orchid"), ("3f", "菊", "Chrysanthemum"), ("4f", "竹", "Bamboo flower"),
    ("5f", "春", "Spring"), ("6f", "夏", "Summer"), ("7f", "秋", "Autumn"), ("8f", "冬", "Winter"),
    ("back", "牌背", "Back"),
]


@pytest.mark.parametrize(("code", "zh", "en"), NAME_ROWS, ids=[r[0] for r in NAME_ROWS])
def test_names(code, zh, en) -> None:
    assert t.names(code) == (zh, en)


PREDICATE_ROWS = [
    # code, honour, terminal, flower
    ("1m", False, True, False), ("9s", False, True, False), ("5p", False, False, False),
    ("1z", True, False, False), ("7z", True, False, False), ("1f", False, False, True),
]


@pytest.mark.parametrize(("code", "honour", "terminal", "flower"), PREDICATE_ROWS, ids=[r[0] for r in PREDICATE_ROWS])
def test_predicates(code, honour, terminal, flower) -> None:
    assert (t.is_honour(code), t.is_terminal(code), t.is_flower(code)) == (honour, terminal, flower)


TO_STRING_ROWS = [
    (["1z", "3m", "1m", "2m", "1z"], "123m11z"),
    (["5f", "1f"], "15f"),
    (["9s", "1p", "1m", "7z"], "1m1p9s7z"),
    ([], ""),
]


@pytest.mark.parametrize(("codes", "text"), TO_STRING_ROWS, ids=[r[1] or "empty" for r in TO_STRING_ROWS])
def test_to_string(codes, text) -> None:
    assert t.to_string(codes) == text


@pytest.mark.parametrize("text", ["123m456p789s11z", "19m19p19s1234567z", "11223344556677z"])
def test_round_trip(text) -> None:
    assert t.to_string(t.parse(text)) == text


def test_counts_and_over_four() -> None:
    vector = t.counts(t.parse("1m1m9s7z"))
    assert len(vector) == 34
    assert vector[t.INDEX["1m"]] == 2 and vector[t.INDEX["9s"]] == 1 and vector[t.INDEX["7z"]] == 1
    assert sum(vector) == 4
    assert t.over_four(t.parse("11111m2222p")) == ["1m"]
    assert t.over_four(t.parse("1111m2222p")) == []
    assert t.over_four(t.parse("77777z11111m")) == ["1m", "7z"]


# regression: str.isdigit() accepted non-ASCII digits ('²m' raised ValueError from int(); fullwidth '１m' or
# Arabic-Indic '١m' parsed into codes that are no tile and crashed later with KeyError)
@pytest.mark.parametrize("text", ["²m", "１２３m", "١m"], ids=["superscript", "fullwidth", "arabic_indic"])
def test_non_ascii_digits_are_bad_tiles(text) -> None:
    with pytest.raises(ScoringError) as caught:
        t.parse(text)
    assert caught.value.code == "bad_tile"


def test_fullwidth_digits_in_a_request_are_refused() -> None:
    from fanshot.scoring import score

    with pytest.raises(ScoringError) as caught:
        score({"hand": {"concealed": "１２３m456p789s555s11z"}})
    assert caught.value.code == "bad_tile"
