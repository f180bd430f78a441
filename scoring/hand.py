"""Hand, meld and win-context models, parsed from a score request and checked for shape.

The rule set's options are kept apart (scoring.rules); checks that need them live in scoring.validate."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fanshot.scoring import tiles as t
from fanshot.scoring.errors import ScoringError

MELD_KINDS = ("chow", "pung", "kong")
MELD_SIZES = {"chow": 3, "pung": 3, "kong": 4}
WIN_TYPES = ("self_draw", "discard")
MAX_STAKE = 1e12  # keeps every payment a finite, exact-enough number
SPECIAL_WINS = ("kong_replacement", "last_tile", "robbing_kong", "heavenly", "earthly", "human", "multi_win",
                "double_kong_replacement", "last_discard")
# Every pung, kong and chow in canonical notation (`555s`, `5555s`, `123m`) -> its kind and tiles: most melds need
# no parse, and no shape check when the kind given is the notation's own.
MELD_TILES = {t.to_string(tiles): (kind, tiles) for kind, tiles in (
    *(("pung", (code,) * 3) for code in t.PLAYING_TILES), *(("kong", (code,) * 4) for code in t.PLAYING_TILES),
    *(("chow", t.PLAYING_TILES[i:i + 3]) for i in range(27) if i % 9 < 7))}


@dataclass(frozen=True)
class Meld:
    kind: str
    tiles: tuple[str, ...]
    concealed: bool = False  # 暗杠
    added: bool = False  # 补杠: a kong made by adding to one's own exposed pung
    fed_by: str | None = None  # seat whose discard was claimed (点杠 for a kong)

    @property
    def first(self) -> str:
        return self.tiles[0]

    def notation(self) -> str:
        return t.to_string(self.tiles)


@dataclass(frozen=True)
class Hand:
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[str, ...] = ()
    winning_tile: str | None = None

    @property
    def exposed_melds(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if not m.concealed)

    def all_tiles(self) -> list[str]:
        return list(self.concealed) + [code for meld in self.melds for code in meld.tiles]


@dataclass(frozen=True)
class Stake:
    unit: float = 1
    fee: float = 0
    flower: float = 0
    kong: float = 0
    chicken: float = 1


NO_STAKE = Stake()  # every stake number at its default


@dataclass(frozen=True)
class WinContext:
    win: str = "self_draw"
    seat_wind: str = "1z"
    prevalent_wind: str = "1z"
    discarder: str | None = None
    special: frozenset[str] = frozenset()
    liable: str | None = None
    kong_fed_by: str | None = None
    ghosts: tuple[str, ...] = ()
    horses: tuple[str, ...] | None = None  # None: no horse bonus
    stake: Stake = NO_STAKE

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == "1z"

    @property
    def self_drawn(self) -> bool:
        """抢杠 counts as self-draw (seed)."""
        return self.win == "self_draw" or "robbing_kong" in self.special


# ---- parsing from the JSON request -------------------------------------------------------------------------

def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScoringError("bad_request", f"{where}: expected an object, got {type(value).__name__}", field=where)
    return value


def _only_keys(value: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = value.keys() - allowed
    if unknown:
        raise ScoringError("bad_request", f"{where}: unknown field(s) {sorted(unknown)}; allowed: {list(allowed)}",
                           field=where)


def _seat(value: Any, where: str) -> str:
    if value in t.SEATS:
        return value
    try:
        codes = t.parse(value, field=where) if isinstance(value, str) else None
    except ScoringError:
        codes = None
    if not codes or len(codes) != 1 or codes[0] not in t.SEATS:
        raise ScoringError("bad_context", f"{where}: expected a seat wind 1z-4z (or E S W N), got {value!r}",
                           field=where)
    return codes[0]


def _optional_seat(value: Any, where: str) -> str | None:
    return None if value is None else _seat(value, where)


def parse_meld(raw: Any, index: int, *, draft: bool = False) -> Meld:
    where = f"hand.melds[{index}]"
    raw = _object(raw, where)
    _only_keys(raw, ("kind", "tiles", "concealed", "added", "fed_by"), where)
    kind = raw.get("kind")
    if kind not in MELD_KINDS:
        raise ScoringError("bad_meld", f"{where}.kind: expected one of {list(MELD_KINDS)}, got {kind!r}",
                           field=f"{where}.kind")
    text = raw.get("tiles", "")
    natural_kind, codes = MELD_TILES.get(text, (None, None))
    if codes is None:
        codes = tuple(sorted(t.parse(text, field=f"{where}.tiles"), key=t.INDEX.__getitem__))
    concealed, added = raw.get("concealed", False), raw.get("added", False)
    if not isinstance(concealed, bool) or not isinstance(added, bool):
        raise ScoringError("bad_meld", f"{where}: concealed and added must be true or false", field=where)
    meld = Meld(kind, codes, concealed, added, _optional_seat(raw.get("fed_by"), f"{where}.fed_by"))
    if kind != natural_kind and not (draft and len(codes) < MELD_SIZES[kind]):  # a draft's meld may lack tiles
        _check_shape(meld, where)
    _check_flags(meld, where)
    return meld


def _check_shape(meld: Meld, where: str) -> None:
    size = MELD_SIZES[meld.kind]
    if len(meld.tiles) != size:
        raise ScoringError("bad_meld", f"{where}: a {meld.kind} has {size} tiles, got {len(meld.tiles)} "
                           f"({meld.notation() or 'none'})", field=where, reason="size", kind=meld.kind,
                           expected=size, given=len(meld.tiles))
    if meld.kind == "chow":
        first = t.INDEX[meld.first]
        run = first < 27 and first % 9 < 7 and meld.tiles == t.PLAYING_TILES[first:first + 3]
        if not run:
            raise ScoringError("bad_meld", f"{where}: {meld.notation()} is not a chow (three consecutive "
                               "tiles of one suit)", field=where, reason="shape", kind=meld.kind,
                               tiles=meld.notation())
    elif len(set(meld.tiles)) != 1:
        raise ScoringError("bad_meld", f"{where}: a {meld.kind} is {size} identical tiles, got {meld.notation()}",
                           field=where, reason="shape", kind=meld.kind, tiles=meld.notation())


def _check_flags(meld: Meld, where: str) -> None:
    if (meld.concealed or meld.added) and meld.kind != "kong":
        raise ScoringError("bad_meld", f"{where}: only a kong can be concealed or added", field=where)
    if meld.concealed and (meld.added or meld.fed_by):
        raise ScoringError("bad_meld", f"{where}: a concealed kong (暗杠) is neither added nor fed by a discard",
                           field=where)


def parse_hand(raw: Any, *, draft: bool = False) -> Hand:
    """A score request's hand; a `draft` (a hand being put together) may lack tiles in its melds and its
    winning tile (`""` or absent)."""
    raw = _object(raw, "hand")
    _only_keys(raw, ("concealed", "melds", "flowers", "winning_tile"), "hand")
    if "concealed" not in raw:
        raise ScoringError("bad_request", "hand.concealed: required (the standing tiles, winning tile included)",
                           field="hand.concealed")
    concealed = tuple(t.parse(raw["concealed"], field="hand.concealed"))
    melds_raw = raw.get("melds", [])
    if not isinstance(melds_raw, list):
        raise ScoringError("bad_request", "hand.melds: expected a list", field="hand.melds")
    melds = tuple(parse_meld(m, i, draft=draft) for i, m in enumerate(melds_raw))
    flowers = tuple(t.parse(raw["flowers"], field="hand.flowers", allow_flowers=True)) if "flowers" in raw else ()
    if flowers and any(not t.is_flower(code) for code in flowers):
        raise ScoringError("bad_tile", "hand.flowers: only flower codes 1f-8f belong here", field="hand.flowers",
                           reason="not_a_flower")
    winning = raw.get("winning_tile")
    if draft and winning == "":
        winning = None
    if winning is not None:
        codes = t.parse(winning, field="hand.winning_tile")
        if len(codes) != 1:
            raise ScoringError("bad_tile", f"hand.winning_tile: expected one tile, got {winning!r}",
                               field="hand.winning_tile")
        winning = codes[0]
    return Hand(concealed, melds, flowers, winning)


def parse_stake(raw: Any) -> Stake:
    raw = _object(raw, "context.stake")
    fields = ("unit", "fee", "flower", "kong", "chicken")
    _only_keys(raw, fields, "context.stake")
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_STAKE:
            raise ScoringError("bad_context", f"context.stake.{key}: expected a number from 0 to {MAX_STAKE:g}, "
                               f"got {value!r}", field=f"context.stake.{key}", reason="range", most=MAX_STAKE,
                               given=value)
    return Stake(**raw) if raw else NO_STAKE


def parse_context(raw: Any) -> WinContext:
    raw = _object(raw, "context")
    _only_keys(raw, ("win", "seat_wind", "prevalent_wind", "discarder", "special", "liable", "kong_fed_by",
                     "ghosts", "horses", "stake"), "context")
    win = raw.get("win", "self_draw")
    if win not in WIN_TYPES:
        raise ScoringError("bad_context", f"context.win: expected one of {list(WIN_TYPES)}, got {win!r}",
                           field="context.win")
    special = raw.get("special", [])
    if not isinstance(special, list) or (special and any(s not in SPECIAL_WINS for s in special)):
        raise ScoringError("bad_context", f"context.special: expected a list drawn from {list(SPECIAL_WINS)}, "
                           f"got {special!r}", field="context.special")
    horses = raw.get("horses")
    return WinContext(
        win=win,
        seat_wind=_seat(raw.get("seat_wind", "1z"), "context.seat_wind"),
        prevalent_wind=_seat(raw.get("prevalent_wind", "1z"), "context.prevalent_wind"),
        discarder=_optional_seat(raw.get("discarder"), "context.discarder"),
        special=frozenset(special),
        liable=_optional_seat(raw.get("liable"), "context.liable"),
        kong_fed_by=_optional_seat(raw.get("kong_fed_by"), "context.kong_fed_by"),
        ghosts=tuple(t.parse(raw["ghosts"], field="context.ghosts")) if "ghosts" in raw else (),
        horses=None if horses is None else tuple(t.parse(horses, field="context.horses")),
        stake=parse_stake(raw["stake"]) if "stake" in raw else NO_STAKE,
    )


# ---- hand notation, as the command line and the page's typed hand write it --------------------------------------

# A meld in hand notation: [555s] exposed, [7777z@3z] claimed from 3z, [2222s+] added kong, (1111p) concealed kong.
MELD_NOTATION = re.compile(r"\[(?P<open>[^\]@+]+)(?P<added>\+)?(?:@(?P<fed>\w+))?\]|\((?P<closed>[^)]+)\)")
HAND_HELP = ("tiles in compact notation, standing tiles first (winning tile included), then melds: "
             "[555s] exposed pung or chow, [7777z@3z] exposed kong claimed from 3z, [2222s+] added kong, "
             "(1111p) concealed kong")


def hand_from_notation(text: str, field: str = "hand") -> dict[str, Any]:
    """A score-request `hand` from `123m456p11z [555s] (1111p)`; meld kinds follow from their tiles. A bad tile is
    refused with its position in `text` (each part is parsed in place, the rest blanked out)."""
    melds = []
    for match in MELD_NOTATION.finditer(text):
        part = "open" if match["open"] else "closed"
        codes = t.parse(" " * match.start(part) + match[part], field=field)
        kind = "kong" if len(codes) == 4 else "pung" if len(set(codes)) == 1 else "chow"
        meld: dict[str, Any] = {"kind": kind, "tiles": match[part].strip()}
        if match["closed"]:
            meld["concealed"] = True
        if match["added"]:
            meld["added"] = True
        if match["fed"]:
            meld["fed_by"] = match["fed"]
        melds.append(meld)
    concealed = MELD_NOTATION.sub(lambda match: " " * len(match[0]), text)
    if bracket := re.search(r"[\[\]()]", concealed):
        raise ScoringError("bad_meld", f"unbalanced brackets in {text!r}; " + HAND_HELP, field=field,
                           reason="brackets", token=bracket[0], position=bracket.start())
    t.parse(concealed, field=field)
    return {"concealed": concealed.strip(), "melds": melds}


def tiles_from_notation(text: str, field: str = "text") -> dict[str, Any]:
    """The tiles a hand in notation names, as codes, for a client to place: `{concealed: [code], melds: [{kind,
    tiles: [code], concealed, added, fed_by}]}`; its melds are checked as a score request's are."""
    hand = hand_from_notation(text, field)
    melds = [parse_meld(meld, index) for index, meld in enumerate(hand["melds"])]
    return {"concealed": t.parse(hand["concealed"], field=field),
            "melds": [{"kind": meld.kind, "tiles": list(meld.tiles), "concealed": meld.concealed,
                       "added": meld.added, "fed_by": meld.fed_by} for meld in melds]}
