"""Seeded random LEGAL winning hands, as score requests (docs/API.md) — for property tests, benchmarks and the
synthetic photo renderer. Standard library only, like the rest of `scoring`.

    random_request(rng, ruleset="jipinghu", *, kinds=None)   one request; every one scores without error
    corpus(n, seed, ruleset=RULESETS)                         n requests, reproducible; rule sets in rotation
    kinds_for(ruleset)                                        the hand kinds a rule set can produce

A request's hand is drawn as one of KINDS, the tile pattern it is built around (the scorer may find a better
reading): standard (any sets, mostly chows), all_pungs, half_flush, full_flush, seven_pairs, all_honours,
terminals (pungs of 1s and 9s, with or without honours), big_winds, little_winds, big_dragons, little_dragons,
nine_gates, thirteen_orphans. It is then shaped by what the rule set's data file allows: exposed chows only with
`chow`, discard wins only with `discard_win` (else only 抢杠), 七对 only with `seven_pairs`, flowers with `flowers`,
horses (the right count) with `horses`, ghosts (modes white / flip / flip2) where the rule set scores `no_ghost`.
A rule set whose `min_fan` is above 0 gets `options: {"min_fan": 0}`, so that every hand may win; a 一炮三响 where
the rule set plays 截胡 gets `options: {"multi_win": true}`. Never more than
four copies of a tile across the hand and the horses. Special wins come only in contexts scoring/validate.py accepts.

Request shape: `hand` always has `concealed` (canonical order), `melds` (a list, in claim order; exposed melds
name `fed_by`) and `winning_tile`, and `flowers` when there are any; `context` has `win`, `seat_wind`,
`prevalent_wind` and, when they apply, `discarder`, `special` (one special win), `kong_fed_by`, `ghosts`, `horses`
and `stake`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from fanshot.scoring import rules
from fanshot.scoring import tiles as t

RULESETS = ("jipinghu", "tuidaohu", "xinzhang", "qianggang")
# kind -> relative weight when a request picks its kind at random
KIND_WEIGHTS = {
    "standard": 40, "all_pungs": 8, "half_flush": 8, "full_flush": 8, "seven_pairs": 8, "all_honours": 3,
    "terminals": 4, "big_winds": 3, "little_winds": 3, "big_dragons": 3, "little_dragons": 3, "nine_gates": 3,
    "thirteen_orphans": 3,
}
KINDS = tuple(KIND_WEIGHTS)
CONCEALED_ONLY = frozenset({"seven_pairs", "nine_gates", "thirteen_orphans"})
STAKES = ({"flower": 1, "kong": 2, "chicken": 3}, {"flower": 5, "kong": 5, "chicken": 5},
          {"flower": 10, "kong": 20, "chicken": 30})  # qianggang's three stake numbers (seed examples)
GHOST_MODES = ("white", "flip", "flip2")

ALL = tuple(range(34))
HONOURS = tuple(range(27, 34))
WINDS = tuple(range(27, 31))
DRAGONS = tuple(range(31, 34))
ORPHANS = tuple(t.INDEX[code] for code in t.TERMINALS + t.HONOUR_TILES)
TERMINALS = tuple(t.INDEX[code] for code in t.TERMINALS)

Group = tuple[str, int]  # ("chow" | "pung", index of the lowest tile)


# ---- public API ---------------------------------------------------------------------------------------------

def kinds_for(ruleset: str) -> tuple[str, ...]:
    """The kinds a rule set can produce: all of KINDS, less 七对 where the rule set does not enable it."""
    return tuple(k for k in KINDS if k != "seven_pairs" or _ruleset(ruleset).options["seven_pairs"])


def random_request(rng: random.Random, ruleset: str = "jipinghu", *, kinds: Sequence[str] | None = None) -> dict:
    """A random legal winning hand with a valid win context, as a score request for `ruleset`.

    `kinds` restricts the hand kinds drawn (default: every kind the rule set allows, weighted by KIND_WEIGHTS);
    a kind the rule set cannot produce is a ValueError. The same rng state gives the same request."""
    allowed = kinds_for(ruleset)
    chosen = tuple(kinds) if kinds is not None else allowed
    if not chosen or any(k not in allowed for k in chosen):
        raise ValueError(f"kinds {list(chosen)}: {ruleset} produces only {list(allowed)}")
    kind = rng.choices(chosen, weights=[KIND_WEIGHTS[k] for k in chosen])[0]
    while True:  # a few draws at most: a draw is dropped when it would need a fifth copy of a tile
        request = _attempt(rng, _ruleset(ruleset), kind)
        if request is not None:
            return request


def corpus(n: int, seed: int, ruleset: str | Sequence[str] = RULESETS) -> list[dict]:
    """`n` requests; request i uses rule set i mod len(ruleset) and its own rng, so corpus(n) prefixes corpus(n+1)."""
    names = (ruleset,) if isinstance(ruleset, str) else tuple(ruleset)
    return [random_request(random.Random(f"{seed}:{i}"), names[i % len(names)]) for i in range(n)]


# ---- one attempt ----------------------------------------------------------------------------------------------

@cache
def _ruleset(name: str) -> rules.Ruleset:
    return rules.load(name)


def _attempt(rng: random.Random, ruleset: rules.Ruleset, kind: str) -> dict | None:
    """One draw of a request, or None when the drawn shape would need a fifth copy of a tile."""
    opts = ruleset.options
    sets, rest = SHAPES[kind](rng)
    counts = Counter(rest + [i for group in sets for i in _indices(group)])
    if max(counts.values()) > 4:
        return None
    seat = rng.choice(t.SEATS)
    melded = kind not in CONCEALED_ONLY and rng.random() < 0.7
    melds, standing = _melds(rng, sets, counts, opts, seat) if melded else ([], sets)
    concealed = rest + [i for group in standing for i in _indices(group)]
    options, ghosts, named_ghosts = _ghosts(rng, ruleset, concealed, counts, melds)
    context, winning = _win(rng, opts, seat, melds, concealed, ghosts, counts)
    if context["special"] == ["multi_win"] and not opts["multi_win"]:
        options["multi_win"] = True  # a table that plays 截胡 (qianggang) allows it with the option
    hand: dict[str, Any] = {"concealed": _notation(concealed), "melds": melds,
                            "winning_tile": t.PLAYING_TILES[winning]}
    flowers = rng.sample(t.FLOWER_TILES, rng.choice((0, 0, 1, 1, 2, 3, 4))) if opts["flowers"] else []
    if flowers:
        hand["flowers"] = t.to_string(flowers)
    context["ghosts"] = named_ghosts
    if opts["horses"] and rng.random() < 0.8:
        holds_ghost = any(i in ghosts for i in concealed)
        robbed = {winning} if context.get("special") == ["robbing_kong"] else set()
        count = opts["horses_with_ghost" if holds_ghost else "horses_without_ghost"]
        context["horses"] = _horses(rng, counts, count, robbed)
    context["stake"] = _stake(rng, ruleset)
    if opts.get("min_fan"):
        options["min_fan"] = 0
    request = {"ruleset": ruleset.name, "hand": hand, "context": {k: v for k, v in context.items() if v}}
    if options:
        request["options"] = options
    return request


def _indices(group: Group) -> list[int]:
    kind, first = group
    return [first, first + 1, first + 2] if kind == "chow" else [first] * 3


def _notation(indices: Sequence[int]) -> str:
    return t.to_string(t.PLAYING_TILES[i] for i in indices)


def _melds(rng: random.Random, sets: list[Group], counts: Counter, opts: Any,
           seat: str) -> tuple[list[dict], list[Group]]:
    """Some sets become melds (JSON, claim order): exposed chows (from the previous seat, where the rule set allows
    chows), exposed pungs, and kongs — fed 点杠, added 补杠 or concealed 暗杠. Returns (melds, standing sets)."""
    previous = t.SEATS[(t.SEATS.index(seat) - 1) % 4]
    others = [s for s in t.SEATS if s != seat]
    melds: list[dict] = []
    standing: list[Group] = []
    for group in sets:
        kind, first = group
        roll = rng.random()
        if kind == "chow" and opts["chow"] and roll < 0.35:
            melds.append({"kind": "chow", "tiles": _notation(_indices(group)), "fed_by": previous})
        elif kind == "pung" and roll < 0.25:
            melds.append({"kind": "pung", "tiles": _notation(_indices(group)), "fed_by": rng.choice(others)})
        elif kind == "pung" and roll < 0.45 and counts[first] == 3:
            counts[first] += 1
            style = rng.choice(("fed", "added", "concealed"))
            meld: dict[str, Any] = {"kind": "kong", "tiles": _notation([first] * 4)}
            meld.update({"concealed": True} if style == "concealed" else {"fed_by": rng.choice(others)})
            if style == "added":
                meld["added"] = True
            melds.append(meld)
        else:
            standing.append(group)
    rng.shuffle(melds)
    return melds, standing


def _ghosts(rng: random.Random, ruleset: rules.Ruleset, concealed: list[int], counts: Counter,
            melds: list[dict]) -> tuple[dict, tuple[int, ...], str]:
    """Ghost play where the rule set scores 无鬼: (options, ghost tile indices, context.ghosts). Swaps a few
    standing tiles for ghosts in place (a ghost can stand for the tile it replaces)."""
    if "no_ghost" not in ruleset.table("bonuses") or rng.random() < 0.4:
        return {}, (), ""
    mode = rng.choice(GHOST_MODES)
    in_melds = {t.INDEX[code] for meld in melds for code in t.parse(meld["tiles"])}
    held = sorted(set(concealed) - in_melds)  # sometimes ghosts the hand already holds
    pool = held if len(held) > 1 and rng.random() < 0.2 else sorted(set(ALL) - in_melds)
    ghosts = (t.INDEX["5z"],) if mode == "white" else tuple(rng.sample(pool, 1 + (mode == "flip2")))
    if set(ghosts) & in_melds:
        return {}, (), ""
    for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 2, 3, 4))):
        ghost, spot = rng.choice(ghosts), rng.randrange(len(concealed))
        if counts[ghost] < 4 and concealed[spot] not in ghosts:
            counts[concealed[spot]] -= 1
            counts[ghost] += 1
            concealed[spot] = ghost
    named = "" if mode == "white" and rng.random() < 0.5 else _notation(ghosts)
    return {"ghosts": mode}, ghosts, named


def _win(rng: random.Random, opts: Any, seat: str, melds: list[dict], concealed: list[int],
         ghosts: tuple[int, ...], counts: Counter) -> tuple[dict[str, Any], int]:
    """The win context and the winning tile: self-draw or a discard from another seat, and sometimes one special
    win, only where scoring/validate.py accepts it."""
    others = [s for s in t.SEATS if s != seat]
    singles = sorted(i for i in set(concealed) if counts[i] == 1 and i not in ghosts)
    feasible = ["last_tile"]
    feasible += ["kong_replacement"] if any(m["kind"] == "kong" for m in melds) else []
    feasible += ["multi_win"] if opts["discard_win"] else []
    feasible += ["robbing_kong"] if singles else []  # the robbed kong holds the other three copies
    if not melds:
        feasible += ["heavenly"] if seat == "1z" else ["earthly"] + (["human"] if opts["discard_win"] else [])
    special = rng.choice(feasible) if rng.random() < 0.2 else None
    context: dict[str, Any] = {"win": "self_draw", "seat_wind": seat, "prevalent_wind": rng.choice(t.SEATS),
                               "special": [special] if special else []}
    winning = rng.choice(singles) if special == "robbing_kong" else rng.choice(concealed)
    if special in ("multi_win", "robbing_kong") or (special is None and opts["discard_win"] and rng.random() < 0.5):
        context.update(win="discard", discarder=rng.choice(others))
    elif special == "human":
        context.update(win="discard", discarder="1z")
    elif special == "kong_replacement":
        feeders = [m["fed_by"] for m in melds if m["kind"] == "kong" and "fed_by" in m and not m.get("added")]
        if feeders and rng.random() < 0.5:
            context["kong_fed_by"] = rng.choice(feeders)
    return context, winning


def _horses(rng: random.Random, counts: Counter, n: int, robbed: set[int]) -> str:
    """`n` horses drawn from what the hand leaves of the wall (none of a robbed kong's tile)."""
    wall = [i for i in ALL if i not in robbed for _ in range(4 - counts[i])]
    return _notation(rng.sample(wall, n))


def _stake(rng: random.Random, ruleset: rules.Ruleset) -> dict[str, int]:
    stake = dict(rng.choice(STAKES)) if ruleset.points == "stakes" else {}
    if rng.random() < 0.2:
        stake["unit"] = rng.choice((2, 600))
    if rng.random() < 0.2:
        stake["fee"] = rng.choice((1, 250))
    return stake


# ---- shapes: (sets that may become melds, tiles that stay concealed) ------------------------------------------

def _chow_starts(pool: Sequence[int]) -> list[int]:
    return [i for i in pool if i < 27 and i % 9 < 7]


def _sets(rng: random.Random, n: int, pool: Sequence[int], chow_share: float) -> list[Group]:
    starts = _chow_starts(pool)
    return [("chow", rng.choice(starts)) if starts and rng.random() < chow_share else ("pung", rng.choice(pool))
            for _ in range(n)]


def _suit(rng: random.Random) -> tuple[int, ...]:
    start = 9 * rng.randrange(3)
    return tuple(range(start, start + 9))


def _standard(rng: random.Random) -> tuple[list[Group], list[int]]:
    return _sets(rng, 4, ALL, 0.65), [rng.choice(ALL)] * 2


def _all_pungs(rng: random.Random) -> tuple[list[Group], list[int]]:
    return _sets(rng, 4, ALL, 0), [rng.choice(ALL)] * 2


def _half_flush(rng: random.Random) -> tuple[list[Group], list[int]]:
    suit = _suit(rng)
    sets = [("pung", rng.choice(HONOURS)), *_sets(rng, 3, suit + HONOURS, 0.5)]
    return sets, [rng.choice(suit)] * 2  # a suited pair: both suit and honours are present


def _full_flush(rng: random.Random) -> tuple[list[Group], list[int]]:
    suit = _suit(rng)
    return _sets(rng, 4, suit, 0.6), [rng.choice(suit)] * 2


def _all_honours(rng: random.Random) -> tuple[list[Group], list[int]]:
    return _sets(rng, 4, HONOURS, 0), [rng.choice(HONOURS)] * 2


def _terminals(rng: random.Random) -> tuple[list[Group], list[int]]:
    pool = TERMINALS if rng.random() < 0.5 else ORPHANS
    return _sets(rng, 4, pool, 0), [rng.choice(pool)] * 2


def _big_winds(rng: random.Random) -> tuple[list[Group], list[int]]:
    return [("pung", i) for i in WINDS], [rng.choice(ALL)] * 2


def _little_winds(rng: random.Random) -> tuple[list[Group], list[int]]:
    winds = rng.sample(WINDS, 4)
    others = tuple(i for i in ALL if i not in WINDS)
    return [("pung", i) for i in winds[:3]] + _sets(rng, 1, others, 0.5), [winds[3]] * 2


def _big_dragons(rng: random.Random) -> tuple[list[Group], list[int]]:
    return [("pung", i) for i in DRAGONS] + _sets(rng, 1, ALL, 0.5), [rng.choice(ALL)] * 2


def _little_dragons(rng: random.Random) -> tuple[list[Group], list[int]]:
    dragons = rng.sample(DRAGONS, 3)
    others = tuple(i for i in ALL if i not in DRAGONS)
    return [("pung", i) for i in dragons[:2]] + _sets(rng, 2, others, 0.5), [dragons[2]] * 2


def _nine_gates(rng: random.Random) -> tuple[list[Group], list[int]]:
    suit = _suit(rng)
    base = [suit[0]] * 3 + list(suit[1:8]) + [suit[8]] * 3
    return [], base + [rng.choice(suit)]


def _thirteen_orphans(rng: random.Random) -> tuple[list[Group], list[int]]:
    return [], list(ORPHANS) + [rng.choice(ORPHANS)]


def _seven_pairs(rng: random.Random) -> tuple[list[Group], list[int]]:
    distinct = rng.sample(ALL, 7)
    if rng.random() < 0.1:  # four of a kind as two pairs
        distinct[6] = distinct[5]
    return [], [i for i in distinct for _ in range(2)]


SHAPES = {
    "standard": _standard, "all_pungs": _all_pungs, "half_flush": _half_flush, "full_flush": _full_flush,
    "seven_pairs": _seven_pairs, "all_honours": _all_honours, "terminals": _terminals, "big_winds": _big_winds,
    "little_winds": _little_winds, "big_dragons": _big_dragons, "little_dragons": _little_dragons,
    "nine_gates": _nine_gates, "thirteen_orphans": _thirteen_orphans,
}


def random_tiles(rng: random.Random, size: int, *, max_copies: int = 3) -> list[int]:
    """`size` standing tiles (34-slot counts) for analysis checks, at most `max_copies` of a kind: half drawn
    from a shuffled wall, half a random 4-sets-and-a-pair, 七对 or 十三幺 shape with 0-3 tiles exchanged and the
    surplus dropped, so that ready and near-ready hands are common."""
    wall = [i for i in ALL for _ in range(max_copies)]
    if rng.random() < 0.5:
        return t.counts(t.PLAYING_TILES[i] for i in rng.sample(wall, size))
    while True:
        kind = rng.choice(("standard", "standard", "standard", "seven_pairs", "thirteen_orphans"))
        sets, rest = SHAPES[kind](rng)
        tiles = rest + [i for group in sets for i in _indices(group)]
        for _ in range(rng.randrange(4)):
            tiles[rng.randrange(len(tiles))] = rng.choice(ALL)
        rng.shuffle(tiles)
        counts = Counter(tiles[:size])
        if max(counts.values()) <= max_copies:
            return [counts[i] for i in ALL]
