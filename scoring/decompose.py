"""Every way a hand's tiles form a winning shape: 4 sets + a pair, 七对, 十三幺 — ghosts as wildcards.

Works on 34-slot count vectors (scoring.tiles.INDEX). A ghost takes whatever tile identity a shape needs; it
never stands for a fifth copy of a tile."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import NamedTuple

from fanshot.scoring import tiles as t
from fanshot.scoring.hand import Meld

ORPHANS = tuple(t.INDEX[code] for code in t.TERMINALS + t.HONOUR_TILES)
HONOURS = tuple(range(27, 34))
BLOCKS = ((0, 9), (9, 18), (18, 27), (27, 34))  # the three suits and the honours: no set spans two of them
# With two or more sets of ghosts alone (six or more spare ghosts, a flip2 house rule) trying every identity
# takes seconds; those groups then take one tile of each kind the patterns tell apart: every honour, and per
# suit a low terminal, a middle tile and a high terminal, chows low and middle.
SPARSE_RANKS, SPARSE_CHOW_RANKS = (0, 4, 8), (0, 3)
GROUP_SIZES = {"chow": 3, "pung": 3, "kong": 4, "pair": 2, "single": 1}


class Group(NamedTuple):
    """A set or pair of an arrangement: `first` is the tile index of its lowest tile."""

    kind: str  # chow, pung, kong, pair; single (十三幺 only)
    first: int
    concealed: bool = True

    def indices(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return self.first, self.first + 1, self.first + 2
        return (self.first,) * GROUP_SIZES[self.kind]

    def notation(self) -> str:
        return NOTATIONS[self.kind, self.first]


class Arrangement(NamedTuple):
    """One reading of the whole hand: its shape, its groups (melds included) and the tile counts it implies."""

    shape: str  # standard, seven_pairs, thirteen_orphans
    groups: tuple[Group, ...]
    counts: tuple[int, ...]  # all 34 tile kinds, ghosts counted as the tile they stand for

    def describe(self) -> dict:
        return {"shape": self.shape,
                "groups": [{"kind": kind, "tiles": NOTATIONS[kind, first], "concealed": concealed}
                           for kind, first, concealed in self.groups]}


# The standing tiles' groups, made once for every split to share.
PAIRS, PUNGS, CHOWS = (tuple(Group(kind, i) for i in range(34)) for kind in ("pair", "pung", "chow"))


# Every group's notation (`123m`, `55z`), made once.
NOTATIONS = {(kind, first): t.to_string(t.PLAYING_TILES[i] for i in Group(kind, first).indices())
             for kind in GROUP_SIZES for first in range(34) if kind != "chow" or (first < 27 and first % 9 < 7)}


def meld_group(meld: Meld) -> Group:
    return Group(meld.kind, t.INDEX[meld.first], concealed=meld.concealed)


def arrangements(concealed: list[int], ghosts: int, melds: tuple[Meld, ...], *, seven_pairs: bool,
                 seven_pairs_quads: bool) -> list[Arrangement]:
    """All winning arrangements of the standing tiles `concealed` (counts, ghosts removed) plus the melds."""
    meld_groups = tuple(meld_group(m) for m in melds)
    key = tuple(concealed)
    if not ghosts:
        return _without_ghosts(key, meld_groups, seven_pairs, seven_pairs_quads)
    free = _ghost_identities(key, meld_groups)
    found = [_arrangement("standard", groups + meld_groups) for groups in _standard(key, ghosts, 4 - len(melds),
                                                                                   True, free)]
    if not melds:
        if seven_pairs:
            found += [_arrangement("seven_pairs", groups)
                      for groups in _seven_pairs(key, ghosts, seven_pairs_quads, free)]
        found += [_arrangement("thirteen_orphans", groups) for groups in _thirteen_orphans(key, ghosts)]
    return [a for a in found if max(a.counts) <= 4]


def _without_ghosts(concealed: tuple[int, ...], meld_groups: tuple[Group, ...], seven_pairs: bool,
                    seven_pairs_quads: bool) -> list[Arrangement]:
    """`arrangements` without ghosts: every reading holds exactly the tiles given, so they share one count
    vector, and a fifth copy rules out all of them at once."""
    counts = list(concealed)
    for group in meld_groups:
        for i in group.indices():
            counts[i] += 1
    if max(counts) > 4:
        return []
    shared = tuple(counts)
    found = [Arrangement("standard", tuple(sorted(groups + meld_groups)), shared)
             for groups in _by_block(concealed, 4 - len(meld_groups))]
    if not meld_groups:
        if seven_pairs:
            found += [Arrangement("seven_pairs", tuple(sorted(groups)), shared)
                      for groups in _seven_pairs(concealed, 0, seven_pairs_quads, ())]
        found += [Arrangement("thirteen_orphans", tuple(sorted(groups)), shared)
                  for groups in _thirteen_orphans(concealed, 0)]
    return found


def _ghost_identities(concealed: tuple[int, ...], melds: tuple[Group, ...]) -> tuple[int, ...]:
    """Tiles a group made of ghosts alone may stand for: every tile of the suits the hand holds, of one suit it
    does not (the patterns treat absent suits alike, so one stands for all) and every honour."""
    held = {i // 9 for i, n in enumerate(concealed) if n and i < 27}
    held |= {i // 9 for g in melds for i in g.indices() if i < 27}
    suits = sorted(held) + [s for s in range(3) if s not in held][:1]
    return tuple(s * 9 + r for s in suits for r in range(9)) + HONOURS


def _arrangement(shape: str, groups: tuple[Group, ...]) -> Arrangement:
    counts = [0] * 34
    for kind, first, _ in groups:
        if kind == "chow":
            counts[first] += 1
            counts[first + 1] += 1
            counts[first + 2] += 1
        else:
            counts[first] += GROUP_SIZES[kind]
    return Arrangement(shape, tuple(sorted(groups)), tuple(counts))


@lru_cache(maxsize=1 << 16)
def _standard(counts: tuple[int, ...], ghosts: int, sets: int, need_pair: bool,
              free: tuple[int, ...]) -> tuple[tuple[Group, ...], ...]:
    """Distinct ways to split `counts` + `ghosts` into `sets` sets and (if `need_pair`) one pair; `free` are the
    identities a group of ghosts alone may take."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return _ghost_only(ghosts, sets, need_pair, free)
    found: set[tuple[Group, ...]] = set()
    for group, used, ghosts_used in _groups_taking(counts, first, ghosts, sets > 0, need_pair):
        rest = list(counts)
        for i in used:
            rest[i] -= 1
        is_pair = group.kind == "pair"
        for tail in _standard(tuple(rest), ghosts - ghosts_used, sets - (not is_pair), need_pair and not is_pair,
                              free):
            found.add(tuple(sorted((group, *tail))))
    return tuple(sorted(found))


def _by_block(counts: tuple[int, ...], sets: int) -> list[tuple[Group, ...]]:
    """`_standard` without ghosts: each suit and the honours split on their own, one of them holding the pair."""
    splits, pairs, tiles = [], 0, 0
    for start, stop in BLOCKS:
        block = counts[start:stop]
        size = sum(block)
        left = size % 3  # 0: sets only, 2: sets and the pair, 1: no split
        if left == 1:
            return []
        pairs += left == 2
        tiles += size
        if size:
            found = _honour_splits(block) if start == 27 else _suit_group_table(start).get(block, ())
            if not found:
                return []
            splits.append(found)
    if pairs != 1 or tiles != 3 * sets + 2:
        return []
    return [sum(chosen, ()) for chosen in product(*splits)] if len(splits) > 1 else list(splits[0])


def _honour_splits(counts: tuple[int, ...]) -> tuple[tuple[Group, ...], ...]:
    """Every split of the honours' counts into pungs and at most one pair: honours make no chows, so each kind held
    is a pung (3) or the pair (2), and there is one split at most."""
    groups, pairs = [], 0
    for i, n in enumerate(counts):
        if n == 3:
            groups.append(PUNGS[27 + i])
        elif n == 2:
            groups.insert(0, PAIRS[27 + i])
            pairs += 1
        elif n:
            return ()
    return (tuple(groups),) if pairs == sum(counts) % 3 // 2 else ()


# Every way one suit's tiles split into sets (and a pair), precomputed once per process (~20,000 count vectors, a
# few tens of ms) so that no hand pays for a search: count vector -> each split, as positions in _SUIT_SHAPES
# (each suit's own groups: _suit_group_table).
_SUIT_TABLE: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
_SUIT_SHAPES = tuple((k, r) for k in ("pung", "chow") for r in range(9 if k == "pung" else 7)) + \
    tuple(("pair", r) for r in range(9))


def _suit_table() -> dict[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    if not _SUIT_TABLE:
        found: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        sets = range(16)  # _SUIT_SHAPES' pungs and chows
        for size in range(5):
            for chosen in combinations_with_replacement(sets, size):
                counts = [0] * 9
                for position in chosen:
                    kind, rank = _SUIT_SHAPES[position]
                    for i in (rank,) * 3 if kind == "pung" else (rank, rank + 1, rank + 2):
                        counts[i] += 1
                for pair in (None, *range(9)):
                    with_pair = counts.copy()
                    if pair is not None:
                        with_pair[pair] += 2
                    if max(with_pair) <= 4:
                        split = chosen if pair is None else (16 + pair, *chosen)
                        found.setdefault(tuple(with_pair), []).append(split)
        _SUIT_TABLE.update((counts, tuple(splits)) for counts, splits in found.items())
    return _SUIT_TABLE


_SUIT_GROUPS = {start: tuple(Group(kind, start + rank) for kind, rank in _SUIT_SHAPES) for start in (0, 9, 18)}
_SUIT_GROUP_TABLES: dict[int, dict[tuple[int, ...], tuple[tuple[Group, ...], ...]]] = {}


def _suit_group_table(start: int) -> dict[tuple[int, ...], tuple[tuple[Group, ...], ...]]:
    """`_suit_table` for the suit starting at tile index `start`, each split as its groups: made once per suit."""
    if start not in _SUIT_GROUP_TABLES:
        groups = _SUIT_GROUPS[start]
        _SUIT_GROUP_TABLES[start] = {counts: tuple(tuple(groups[i] for i in split) for split in splits)
                                     for counts, splits in _suit_table().items()}
    return _SUIT_GROUP_TABLES[start]


def build_tables() -> None:
    """Build the per-suit decomposition tables now (a long-running server, before its first request: built
    lazily they stall the first requests for a few hundred ms)."""
    for start in _SUIT_GROUPS:
        _suit_group_table(start)


def _groups_taking(counts: tuple[int, ...], i: int, ghosts: int, want_set: bool, want_pair: bool):
    """Groups that use a copy of tile i (the lowest tile left): (group, real indices used, ghosts used)."""
    have = counts[i]
    if want_pair:
        real = min(have, 2)
        if 2 - real <= ghosts:
            yield Group("pair", i), (i,) * real, 2 - real
    if not want_set:
        return
    real = min(have, 3)
    if 3 - real <= ghosts:
        yield Group("pung", i), (i,) * real, 3 - real
    if i >= 27:
        return
    suit_start = i - i % 9
    for start in (i - 2, i - 1, i):
        if start < suit_start or start + 2 > suit_start + 8:
            continue
        # tiles below i are gone (i is the lowest left), so they must be ghosts; above i use real ones first
        used = tuple(p for p in range(start, start + 3) if p == i or (p > i and counts[p]))
        if 3 - len(used) <= ghosts:
            yield Group("chow", start), used, 3 - len(used)


def _ghost_only(ghosts: int, sets: int, need_pair: bool, free: tuple[int, ...]) -> tuple[tuple[Group, ...], ...]:
    """Groups made of ghosts alone: each may be a pung, chow or pair of any identity in `free`."""
    if ghosts != 3 * sets + 2 * need_pair:
        return ()
    if ghosts == 0:
        return ((),)
    if sets >= 2:
        free = tuple(i for i in free if i >= 27 or i % 9 in SPARSE_RANKS + SPARSE_CHOW_RANKS)
    chow_ranks = SPARSE_CHOW_RANKS if sets >= 2 else range(7)
    chows = [Group("chow", s) for s in free if s < 27 and s % 9 in chow_ranks]
    if sets >= 2:
        free = tuple(i for i in free if i >= 27 or i % 9 in SPARSE_RANKS)
    set_options = [Group("pung", i) for i in free] + chows
    pair_options = [Group("pair", i) for i in free] if need_pair else [None]
    return tuple(tuple(sorted(g for g in (*chosen, pair) if g))
                 for chosen in combinations_with_replacement(set_options, sets) for pair in pair_options)


def _seven_pairs(counts: tuple[int, ...], ghosts: int, quads: bool, free: tuple[int, ...]) -> list[tuple[Group, ...]]:
    pairs: list[Group] = []
    singles = 0
    for i, n in enumerate(counts):
        if n > 2 and not quads:
            return []
        pairs += [Group("pair", i)] * (n // 2 + n % 2)
        singles += n % 2
    if singles > ghosts or len(pairs) > 7 or (ghosts - singles) != 2 * (7 - len(pairs)):
        return []
    # pairs of two ghosts may be any identity (the four-copy rule is checked on the whole arrangement)
    found = []
    for spare in combinations_with_replacement(free, 7 - len(pairs)):
        groups = pairs + [Group("pair", i) for i in spare]
        if quads or len({g.first for g in groups}) == 7:
            found.append(tuple(groups))
    return found


def _thirteen_orphans(counts: tuple[int, ...], ghosts: int) -> list[tuple[Group, ...]]:
    if counts.count(0) > 21 + ghosts:  # fewer than 13 kinds held, and a ghost fills at most one missing
        return []
    if any(n and i not in ORPHANS for i, n in enumerate(counts)) or any(n > 2 for n in counts):
        return []
    doubled = [i for i in ORPHANS if counts[i] == 2]
    missing = [i for i in ORPHANS if counts[i] == 0]
    if len(doubled) > 1 or len(missing) + (not doubled) != ghosts:
        return []
    # the pair is the held double, else any orphan a ghost doubles (all score alike)
    pair_tile = doubled[0] if doubled else ORPHANS[0]
    singles = tuple(Group("pair" if i == pair_tile else "single", i) for i in ORPHANS)
    return [singles]
