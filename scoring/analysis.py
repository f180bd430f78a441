"""Ready-hand analysis (docs/API.md "Ready-hand analysis"): how far a hand is from ready (shanten), which tiles
complete it and what each is worth, which tiles help, and for 14 tiles which discard leaves the best hand.

Shanten counts the real tiles that fit a target shape (ghosts fill any gap): for `n` real standing tiles and
`s` sets still to make, a standard hand holds at most `min(n, s + 1 + 2*sets + partials + pair)` of them, partial
sets counted up to the free set slots; seven pairs and thirteen orphans count their slots the same way. That
count ignores the four-copy limit, so it is a lower bound; where it matters (ready or complete) the exact
decomposition decides. Every wait is valued by scoring.score.win_value, the scorer behind POST /v1/score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

from fanshot.scoring import rules
from fanshot.scoring import tiles as t
from fanshot.scoring.decompose import ORPHANS
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.hand import Hand, WinContext
from fanshot.scoring.score import candidates, parse_request, win_value
from fanshot.scoring.settle import tidy
from fanshot.scoring.validate import HAND_SIZE, check_context, check_copies, check_melds, ghost_tiles, hand_size

# Context fields that describe how a finished hand was won: a hand still being played has none of them.
WIN_ONLY_FIELDS = ("special", "horses", "liable", "kong_fed_by")
Shape = tuple[int, int, int]  # (complete sets, partial sets, pair) found in some tiles
HONOURS_START = t.INDEX[t.HONOUR_TILES[0]]  # suits below, nine tiles each
ORPHAN_SET = frozenset(ORPHANS)
APART, APART_ORPHAN = -1, -2  # kinds of draw that share one shanten (_draw_kind); tile indices are the others


# ---- shanten --------------------------------------------------------------------------------------------------

def shanten(counts: Sequence[int], ghosts: int = 0, melds: int = 0, *, seven_pairs: bool = True,
            seven_pairs_quads: bool = False, four_ghosts: bool = False) -> int:
    """Tiles from ready: -1 complete, 0 ready, n: n exchanges from ready. `counts`: the 34-slot counts of the
    real standing tiles (ghosts apart); `melds`: sets already exposed or declared (a kong is one)."""
    real = sum(counts)
    complete = (real + ghosts) % 3 == 2  # 14 tiles, kongs as 3
    # real tiles that fit no slot of the shape; with 14 tiles one of them is the discard
    misfits = real - _standard_fit(counts, real, 4 - melds)
    if not melds:
        misfits = min(misfits, real - _orphans_fit(counts))
        if seven_pairs:
            misfits = min(misfits, real - _pairs_fit(counts, seven_pairs_quads))
    found = misfits - complete
    if four_ghosts:  # 满鬼: 4 - ghosts draws of a ghost still needed, whatever the other tiles
        found = max(min(found, 3 - ghosts), -complete)
    return found


def _standard_fit(counts: Sequence[int], real: int, sets: int) -> int:
    """Real tiles that fit `sets` sets and a pair: each set slot holds a set, a partial set or one tile."""
    shapes = _combine(_combine(_suit(tuple(counts[0:9])), _suit(tuple(counts[9:18]))),
                      _combine(_suit(tuple(counts[18:27])), _honours(tuple(sorted(counts[27:34])))))
    return min(real, sets + 1 + max(2 * m + min(p_sets, sets - m) + pair for m, p_sets, pair in shapes))


@lru_cache(maxsize=1 << 16)
def _suit(counts: tuple[int, ...]) -> tuple[Shape, ...]:
    """The best shapes one suit's counts hold (from its lowest tile up; a tuple shorter than 3 holds no chow)."""
    if not counts:
        return ((0, 0, 0),)
    if not counts[0]:
        return _suit(counts[1:])
    found: list[Shape] = []
    rest = list(counts)

    def take(used: tuple[int, ...], shape: Shape) -> None:
        for i in used:
            rest[i] -= 1
        dm, dt, dp = shape
        found.extend((m + dm, p_sets + dt, pair + dp) for m, p_sets, pair in _suit(tuple(rest)) if pair + dp <= 1)
        for i in used:
            rest[i] += 1

    n = counts[0]
    if n >= 3:
        take((0, 0, 0), (1, 0, 0))
    if len(counts) >= 3 and counts[1] and counts[2]:
        take((0, 1, 2), (1, 0, 0))
    if n >= 2:
        take((0, 0), (0, 0, 1))
        take((0, 0), (0, 1, 0))
    if len(counts) >= 2 and counts[1]:
        take((0, 1), (0, 1, 0))
    if len(counts) >= 3 and counts[2]:
        take((0, 2), (0, 1, 0))
    take((0,), (0, 0, 0))  # this copy fits no group here
    return _pareto(found)


@lru_cache(maxsize=1 << 10)
def _honours(counts: tuple[int, ...]) -> tuple[Shape, ...]:
    shapes: tuple[Shape, ...] = ((0, 0, 0),)
    for n in counts:
        if n:
            shapes = _combine(shapes, _suit((n,)))  # one honour alone: no chow, like a one-tile suit
    return shapes


@lru_cache(maxsize=1 << 14)
def _combine(a: tuple[Shape, ...], b: tuple[Shape, ...]) -> tuple[Shape, ...]:
    return _pareto([(m1 + m2, t1 + t2, p1 + p2) for m1, t1, p1 in a for m2, t2, p2 in b if p1 + p2 <= 1])


def _pareto(shapes: list[Shape]) -> tuple[Shape, ...]:
    """Drop a shape another beats: as many sets, as many sets + partials, the same pair (a pair is kept apart
    because two blocks cannot both give the pair)."""
    unique = sorted(set(shapes), reverse=True)
    return tuple(s for s in unique if not any(o != s and o[2] == s[2] and o[0] >= s[0] and o[0] + o[1] >= s[0] + s[1]
                                              for o in unique))


def _pairs_fit(counts: Sequence[int], quads: bool) -> int:
    """七对: seven pair slots; a tile held 3 or 4 times fills two slots where four of a kind count as two pairs.
    The slots hold 2 tiles (a pair) or 1; the best seven take the pairs first."""
    singles, pairs, triples, fours = counts.count(1), counts.count(2), counts.count(3), counts.count(4)
    full = pairs + triples + fours * (1 + quads)
    half = singles + triples * quads
    paired = min(full, 7)
    return 2 * paired + min(7 - paired, half)


def _orphans_fit(counts: Sequence[int]) -> int:
    held = [counts[i] for i in ORPHANS if counts[i]]
    return len(held) + any(n >= 2 for n in held)


# ---- the analysis -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    """What stays fixed while standing tiles come and go: the rule set, the melds and flowers, both ways to win."""

    ruleset: rules.Ruleset
    hand: Hand
    ghosts: tuple[str, ...]
    self_draw: WinContext
    discard: WinContext | None  # None: the rule set allows no discard win
    shown: tuple[int, ...]  # copies of each tile the hand and melds show

    def remaining(self, code: str) -> int:
        return 4 - self.shown[t.INDEX[code]]

    def split(self, concealed: Sequence[str]) -> tuple[list[int], int]:
        """The 34-slot counts of the real standing tiles, and how many ghosts stand."""
        counts = [0] * 34
        ghosts = 0
        for code in concealed:
            if code in self.ghosts:
                ghosts += 1
            else:
                counts[t.INDEX[code]] += 1
        return counts, ghosts

    def shanten(self, concealed: Sequence[str]) -> int:
        return self.shanten_of(*self.split(concealed))

    def shanten_of(self, counts: Sequence[int], ghosts: int) -> int:
        return shanten(counts, ghosts, **self.shapes)

    @cached_property
    def shapes(self) -> dict[str, Any]:
        """shanten's arguments that the rule set and the melds fix (looked up once, not once per draw)."""
        options = self.ruleset.options
        return {"melds": len(self.hand.melds), "seven_pairs": options["seven_pairs"],
                "seven_pairs_quads": options["seven_pairs_quads"],
                "four_ghosts": "four_ghosts" in self.ruleset.table("fixed_points")}


def analyse(request: Any) -> dict[str, Any]:
    """The analysis response for an analyse request (a score request of 13 tiles, or 14 without winning_tile);
    raises ScoringError for invalid input."""
    setting = _setting(request)
    concealed = setting.hand.concealed
    answer: dict[str, Any] = {"ruleset": setting.ruleset.name, "tiles": hand_size(setting.hand)}
    if answer["tiles"] == HAND_SIZE - 1:
        return answer | _after(setting, concealed)
    answer["shanten"] = _complete_shanten(setting, concealed)
    discards = []
    for code in sorted(set(concealed), key=t.sort_key):
        rest = list(concealed)
        rest.remove(code)
        discards.append({"discard": code} | _after(setting, tuple(rest)))
    answer["discards"] = sorted(discards, key=_discard_rank)
    return answer


def _setting(request: Any) -> Setting:
    ruleset, hand, context = parse_request(request)
    for field in WIN_ONLY_FIELDS:
        if getattr(context, field):
            raise ScoringError("bad_context", f"context.{field}: describes a finished win; the analysis values "
                               "every wait as a plain self-draw and discard win (score a finished hand instead)",
                               field=f"context.{field}", reason="finished")
    size = hand_size(hand)
    if size < HAND_SIZE - 1 or size > HAND_SIZE:
        code = "too_few_tiles" if size < HAND_SIZE - 1 else "too_many_tiles"
        raise ScoringError(code, f"{len(hand.concealed)} standing tiles and {len(hand.melds)} melds make {size} "
                           f"tiles; a hand to analyse has {HAND_SIZE - 1} (waits) or {HAND_SIZE} (discards), "
                           "each kong counted as 3", expected=HAND_SIZE - 1, given=size)
    if hand.winning_tile is not None:
        raise ScoringError("bad_request", "hand.winning_tile: a 13-tile hand has none yet; a 14-tile hand with "
                           "its winning tile is finished: score it, or omit winning_tile to analyse its discards",
                           field="hand.winning_tile")
    ghosts = ghost_tiles(ruleset, context)
    check_copies(ruleset, hand, context)
    self_draw = replace(context, win="self_draw", discarder=None)
    check_melds(ruleset, hand, self_draw)
    check_context(ruleset, hand, self_draw)
    discard = None
    if ruleset.options["discard_win"]:
        previous = t.SEATS[(t.SEATS.index(context.seat_wind) - 1) % 4]  # the usual feeder when none is named
        discard = replace(context, win="discard", discarder=context.discarder or previous)
        check_context(ruleset, hand, discard)
    return Setting(ruleset, hand, ghosts, self_draw, discard, tuple(t.counts(hand.all_tiles())))


def _complete_shanten(setting: Setting, concealed: tuple[str, ...]) -> int:
    found = setting.shanten(concealed)
    if found == -1 and not candidates(setting.ruleset, replace(setting.hand, concealed=concealed), setting.ghosts):
        return 0  # complete only with a fifth copy of some tile
    return found


def _after(setting: Setting, concealed: tuple[str, ...]) -> dict[str, Any]:
    """Shanten of 13 tiles, with their waits when ready, else the tiles that bring them nearer."""
    found = setting.shanten(concealed)
    drawn = _drawn_shanten(setting, concealed)
    if found == 0:
        waits = _waits(setting, concealed, drawn)
        if waits:
            return {"shanten": 0, "waits": waits}
        found = 1  # ready only for a fifth copy: one exchange away
    useful = [{"tile": code, "remaining": setting.remaining(code)} for code, after in drawn if after < found]
    return {"shanten": found, "useful": useful}


def _drawn_shanten(setting: Setting, concealed: tuple[str, ...]) -> list[tuple[str, int]]:
    """(tile, shanten of the hand with it drawn) for each tile left to draw (a ghost stands for any tile but is a
    tile itself: none left, none drawn), in tile order: the same answers as one shanten per tile, with one per kind
    of draw (_draw_kind)."""
    counts, ghosts = setting.split(concealed)
    known: dict[int, int] = {}  # shanten by kind of draw
    drawn = []
    for index, code in enumerate(t.PLAYING_TILES):
        if setting.remaining(code):
            ghost = code in setting.ghosts
            kind = _draw_kind(counts, index, ghost)
            if kind not in known:
                if ghost:
                    known[kind] = setting.shanten_of(counts, ghosts + 1)
                else:
                    counts[index] += 1
                    known[kind] = setting.shanten_of(counts, ghosts)
                    counts[index] -= 1
            drawn.append((code, known[kind]))
    return drawn


def _draw_kind(counts: Sequence[int], index: int, ghost: bool) -> int:
    """The tile's own index where drawing it can change a shape; else APART or APART_ORPHAN. A draw apart (not
    a ghost, no copy held, no held tile of its suit within 2) joins no set, partial set or pair: the standard
    shapes gain a lone tile, seven pairs a one-tile slot, thirteen orphans one kind exactly when it is an orphan,
    and 满鬼 counts the ghosts alone; so all draws apart of one orphan-ness give the same shanten."""
    if ghost or counts[index]:
        return index
    if index < HONOURS_START:
        position = index % 9
        suit = counts[index - position:index - position + 9]
        if any(suit[max(0, position - 2):position + 3]):
            return index
    return APART_ORPHAN if index in ORPHAN_SET else APART


def _waits(setting: Setting, concealed: tuple[str, ...], drawn: list[tuple[str, int]]) -> list[dict[str, Any]]:
    waits = []
    for code, after in drawn:
        # a lower bound: no win without a complete shape; the decomposition applies the four-copy limit
        if after > -1:
            continue
        hand = replace(setting.hand, concealed=concealed + (code,), winning_tile=code)
        if candidates(setting.ruleset, hand, setting.ghosts):
            waits.append({"tile": code, "remaining": setting.remaining(code),
                          "self_draw": _value(setting, hand, setting.self_draw),
                          "discard": setting.discard and _value(setting, hand, setting.discard)})
    return waits


def _value(setting: Setting, hand: Hand, context: WinContext) -> dict[str, Any] | None:
    """Fan and points of the win, from the scorer; None where it is below the rule set's minimum fan."""
    try:
        _, evaluation = win_value(setting.ruleset, hand, context, setting.ghosts)
    except ScoringError as error:
        if error.code == "below_minimum_fan":
            return None
        raise
    return {"fan_total": evaluation.fan_total, "points": tidy(evaluation.points)}


def _discard_rank(entry: dict[str, Any]) -> tuple:
    """Best first: fewer tiles from ready, more tiles left that complete (or help) it, then the best win's
    points, then tile order."""
    tiles = entry.get("waits") or entry.get("useful") or []
    values = [way["points"] for wait in entry.get("waits", ()) for way in (wait["self_draw"], wait["discard"])
              if way]
    return entry["shanten"], -sum(item["remaining"] for item in tiles), -max(values, default=0), \
        t.sort_key(entry["discard"])
