"""Tile codes and compact notation — the one vocabulary shared by the scorer, detector, API and datasets.

Codes: `1m`-`9m` characters, `1p`-`9p` dots, `1s`-`9s` bamboo, `1z`-`7z` E S W N 白 發 中, `1f`-`8f` flowers
and seasons. Compact strings group digits before a suit letter: `123m456p11z`. Letters E S W N P F C are
accepted on input as aliases of `1z`..`7z`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from fanshot.scoring.errors import ScoringError

SUITS = "mps"
NUMBER_TILES = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
HONOUR_TILES = tuple(f"{n}z" for n in range(1, 8))
PLAYING_TILES = NUMBER_TILES + HONOUR_TILES  # the 34 kinds, four copies each
FLOWER_TILES = tuple(f"{n}f" for n in range(1, 9))
BACK = "back"
# The detector's 43 classes, in this order (docs/API.md).
DETECTOR_CLASSES = PLAYING_TILES + FLOWER_TILES + (BACK,)

INDEX = {code: i for i, code in enumerate(PLAYING_TILES)}  # 0-8 m, 9-17 p, 18-26 s, 27-33 z
WINDS = HONOUR_TILES[:4]
DRAGONS = HONOUR_TILES[4:]
SEATS = WINDS  # a seat is named by its wind; the dealer always sits at 1z
TERMINALS = tuple(f"{n}{s}" for s in SUITS for n in (1, 9))

LETTER_ALIASES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}

_SUIT_NAMES = {"m": ("万", "Characters"), "p": ("筒", "Dots"), "s": ("索", "Bamboo")}
_ONE_OF_SUIT = {"Characters": "Character", "Dots": "Dot", "Bamboo": "Bamboo"}  # "1 Character", not "1 Characters"
_CHINESE_NUMERALS = "一二三四五六七八九"
_HONOUR_NAMES = {
    "1z": ("东", "East"), "2z": ("南", "South"), "3z": ("西", "West"), "4z": ("北", "North"),
    "5z": ("白", "White Dragon"), "6z": ("發", "Green Dragon"), "7z": ("中", "Red Dragon"),
}
_FLOWER_NAMES = {
    "1f": ("梅", "Plum"), "2f": ("兰", "Orchid"), "3f": ("菊", "Chrysanthemum"), "4f": ("竹", "Bamboo flower"),
    "5f": ("春", "Spring"), "6f": ("夏", "Summer"), "7f": ("秋", "Autumn"), "8f": ("冬", "Winter"),
}


def suit(code: str) -> str:
    return code[1]


def rank(code: str) -> int:
    return int(code[0])


def is_honour(code: str) -> bool:
    return code[1] == "z"


def is_terminal(code: str) -> bool:
    return code[1] in SUITS and code[0] in "19"


def is_flower(code: str) -> bool:
    return code[1] == "f"


def names(code: str) -> tuple[str, str]:
    """Chinese and English display names of a tile code."""
    if code in _HONOUR_NAMES:
        return _HONOUR_NAMES[code]
    if code in _FLOWER_NAMES:
        return _FLOWER_NAMES[code]
    if code == BACK:
        return "牌背", "Back"
    zh_suit, en_suit = _SUIT_NAMES[code[1]]
    return f"{_CHINESE_NUMERALS[int(code[0]) - 1]}{zh_suit}", \
        f"{code[0]} {_ONE_OF_SUIT[en_suit] if code[0] == '1' else en_suit}"


# The characters of the names above whose Traditional form differs (the page's zh-Hant, as Cantonese players read
# the tiles: 五萬, 東, 蘭).
_TRADITIONAL = str.maketrans({"万": "萬", "东": "東", "兰": "蘭"})


def name_hant(code: str) -> str:
    """The tile's Chinese name in Traditional characters."""
    return names(code)[0].translate(_TRADITIONAL)


# Well-formed compact strings, parsed by a fast path; anything else takes the careful one that names the error.
_PLAIN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)*")
_PLAIN_GROUP = re.compile(r"([1-9]+)([mpsz])")


def parse(text: str, *, field: str = "tiles", allow_flowers: bool = False) -> list[str]:
    """Parse compact notation (`123m456p11z`, `EESSC`, `15f`) into a list of tile codes, in input order.

    Spaces are ignored. Raises ScoringError(code="bad_tile") naming the exact problem and position."""
    if not isinstance(text, str):
        raise ScoringError("bad_tile", f"{field}: expected a string of tile codes, got {type(text).__name__}",
                           field=field, reason="not_text")
    if not text:
        return []
    if text in INDEX:  # a single tile: a seat, a winning tile
        return [text]
    if _PLAIN.fullmatch(text):
        return [digit + letter for digits, letter in _PLAIN_GROUP.findall(text) for digit in digits]
    return _parse_carefully(text, field, allow_flowers)


def _parse_carefully(text: str, field: str, allow_flowers: bool) -> list[str]:
    tiles: list[str] = []
    digits: list[tuple[int, str]] = []
    for position, char in enumerate(text):
        if char.isspace():
            continue
        if char in "0123456789":  # not str.isdigit(): that admits ² and fullwidth digits
            digits.append((position, char))
        elif char in LETTER_ALIASES:
            if digits:
                raise ScoringError("bad_tile", f"{field}: digits before '{char}' at position {position} "
                                   "have no suit letter", **_at(field, "no_suit", text, digits[0][0], position))
            tiles.append(LETTER_ALIASES[char])
        elif char in "mpszf":
            if not digits:
                raise ScoringError("bad_tile", f"{field}: suit letter '{char}' at position {position} "
                                   "has no digits before it", **_at(field, "no_digits", text, position, position + 1))
            for digit_position, digit in digits:
                tiles.append(_checked_code(digit + char, field, digit_position, allow_flowers))
            digits = []
        else:
            raise ScoringError("bad_tile", f"{field}: unexpected character {char!r} at position {position}; "
                               "use digits followed by m p s z f, or E S W N P F C",
                               **_at(field, "not_a_tile", text, position, position + 1))
    if digits:
        raise ScoringError("bad_tile", f"{field}: digits at the end of {text!r} have no suit letter",
                           **_at(field, "no_suit", text, digits[0][0], digits[-1][0] + 1))
    return tiles


def _at(field: str, reason: str, text: str, start: int, end: int) -> dict[str, object]:
    """The detail of a bad token: the characters `text[start:end]` and where they start."""
    return {"field": field, "reason": reason, "token": text[start:end], "position": start}


def _checked_code(code: str, field: str, position: int, allow_flowers: bool) -> str:
    number, letter = int(code[0]), code[1]
    limit = {"z": 7, "f": 8}.get(letter, 9)
    if not 1 <= number <= limit:
        raise ScoringError("bad_tile", f"{field}: '{code}' at position {position} is not a tile "
                           f"({letter} runs 1-{limit})", field=field, reason="not_a_tile", token=code,
                           position=position)
    if letter == "f" and not allow_flowers:
        raise ScoringError("bad_tile", f"{field}: flower '{code}' at position {position} belongs in `flowers`",
                           field=field, reason="flower", token=code, position=position)
    return code


def to_string(tiles: Iterable[str]) -> str:
    """Compact notation of tiles in canonical order (suits m p s z f, ranks ascending): `123m11z`."""
    by_suit: dict[str, list[str]] = {letter: [] for letter in "mpszf"}
    for code in tiles:
        by_suit[code[1]].append(code[0])
    return "".join("".join(sorted(ranks)) + letter for letter, ranks in by_suit.items() if ranks)


def sort_key(code: str) -> tuple[int, int]:
    return "mpszf".index(code[1]), int(code[0])


def counts(tiles: Iterable[str]) -> list[int]:
    """34-slot count vector of playing tiles (see INDEX)."""
    vector = [0] * 34
    for code in tiles:
        vector[INDEX[code]] += 1
    return vector


def over_four(tiles: Iterable[str]) -> list[str]:
    """Tile codes held more than four times (no set has a fifth copy)."""
    return sorted((code for code, n in Counter(tiles).items() if n > 4), key=sort_key)
