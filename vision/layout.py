"""From recognised tiles to table layout: rows, groups (concealed row, melds, flowers) and a proposed
score-request hand. Rows are chains of neighbouring tiles, groups are split at wide gaps, and a group of melds
laid too close together is split by what its tiles form."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from fanshot.scoring.tiles import BACK, is_flower, to_string
from fanshot.vision.config import Layout

MELD_SIZES = (3, 4)
HAND_TILES = 14  # a winning hand: standing tiles + 3 per meld (a kong's fourth tile is its replacement)


def nearest_offsets(boxes: np.ndarray) -> np.ndarray:
    """From each box's centre to its nearest neighbour's (N×2, for two boxes or more)."""
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    offsets = centres[None, :, :] - centres[:, None, :]
    distance = np.hypot(offsets[..., 0], offsets[..., 1])
    np.fill_diagonal(distance, np.inf)
    return offsets[np.arange(len(centres)), distance.argmin(axis=1)]


def rows_run_down(boxes: np.ndarray, layout: Layout) -> bool:
    """Whether the tiles' rows run down the photo (a camera rolled a quarter turn): `rows_down_share` of them, at
    least `rows_down_tiles`, have their nearest neighbour above or below rather than beside them."""
    if len(boxes) < layout.rows_down_tiles:
        return False
    nearest = nearest_offsets(boxes)
    return float(np.mean(np.abs(nearest[:, 1]) > np.abs(nearest[:, 0]))) >= layout.rows_down_share


def row_angle(boxes: np.ndarray) -> float:
    """The rows' slant in radians: the median direction from each tile to its nearest neighbour, among those
    within 45 degrees of horizontal (neighbours in a row are nearer than the rows are apart)."""
    if len(boxes) < 2:
        return 0.0
    nearest = nearest_offsets(boxes)
    angles = np.arctan2(nearest[:, 1], nearest[:, 0])
    angles = (angles + np.pi / 2) % np.pi - np.pi / 2  # a direction, not an arrow: fold into [-90°, 90°)
    flat = angles[np.abs(angles) < np.pi / 4]
    return float(np.median(flat)) if len(flat) else 0.0


def straighten(boxes: np.ndarray) -> np.ndarray:
    """Boxes in the frame of the rows: centres turned by -row_angle, and each tile's own width and height
    recovered from its axis-aligned box (a turned w×h tile spans w·cos + h·sin across, w·sin + h·cos down)."""
    angle = row_angle(boxes)
    c, s = np.cos(angle), np.sin(abs(angle))
    x, y = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    u, v = x * np.cos(angle) + y * np.sin(angle), -x * np.sin(angle) + y * np.cos(angle)
    across, down = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    w = np.maximum((across * c - down * s) / (c * c - s * s), 0.3 * across)
    h = np.maximum((down * c - across * s) / (c * c - s * s), 0.3 * down)
    return np.stack([u - w / 2, v - h / 2, u + w / 2, v + h / 2], axis=1)


def rows(boxes: np.ndarray, layout: Layout) -> list[list[int]]:
    """Tile indices in rows, top to bottom, each left to right. A row is a chain of right-hand neighbours, so
    it follows a slanted or perspective-shrunk line where a horizontal band would swallow the next row."""
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    dx, dy = cx[None, :] - cx[:, None], np.abs(cy[None, :] - cy[:, None])  # [i, j]: from tile i to tile j
    near = ((dx > 0.5 * w[:, None]) & (dx < layout.row_reach * w[:, None])
            & (dy < layout.row_drift * np.minimum.outer(h, h)))
    cost = dx / w[:, None] + 2 * dy / h[:, None]
    right: dict[int, int] = {}
    left: set[int] = set()
    for i, j in sorted(zip(*np.nonzero(near), strict=True), key=lambda pair: cost[pair]):
        if i not in right and j not in left:  # the cheapest links first: each tile one neighbour each side
            right[int(i)] = int(j)
            left.add(int(j))
    chains = []
    for start in sorted(set(range(len(boxes))) - left, key=lambda i: cx[i]):
        chain = [start]
        while chain[-1] in right:
            chain.append(right[chain[-1]])
        chains.append(chain)
    return sorted(chains, key=lambda chain: float(np.mean(cy[chain])))


def gaps(row: list[int], boxes: np.ndarray) -> list[float]:
    """The space between each pair of neighbours in a row, in widths of those two tiles."""
    return [float((boxes[b, 0] - boxes[a, 2]) * 2 / (boxes[a, 2] - boxes[a, 0] + boxes[b, 2] - boxes[b, 0]))
            for a, b in zip(row, row[1:], strict=False)]


def split_at_gaps(row: list[int], boxes: np.ndarray, codes: Sequence[str], layout: Layout) -> list[list[int]]:
    """A left-to-right row cut wherever the gap between neighbours exceeds `group_gap` tile widths, or between two
    backs `back_gap`: a concealed kong's face-down tiles are laid down loosely, not pushed together as a hand is."""
    groups = [[row[0]]]
    for gap, left, tile in zip(gaps(row, boxes), row[:-1], row[1:], strict=True):
        backs = codes[left] == BACK and codes[tile] == BACK
        if gap > (layout.back_gap if backs else layout.group_gap):
            groups.append([])
        groups[-1].append(tile)
    return groups


def split_melds(group: list[int], codes: Sequence[str], boxes: np.ndarray) -> list[list[int]] | None:
    """Melds placed too close to tell apart by gaps: the cut of `group` into runs of 3-4 tiles that each form
    a meld, cutting at the widest gaps; None when there is no such cut."""
    widths = gaps(group, boxes)

    @cache
    def best(start: int) -> tuple[float, tuple[int, ...]] | None:  # (sum of the cut gaps, run ends)
        if start == len(group):
            return 0.0, ()
        found = []
        for size in MELD_SIZES:
            end = start + size
            if end <= len(group) and meld_of([codes[i] for i in group[start:end]]) and (rest := best(end)):
                found.append((rest[0] + (widths[end - 1] if end < len(group) else 0.0), (end, *rest[1])))
        return max(found, default=None)

    cut = best(0)
    if cut is None:
        return None
    ends = cut[1]
    return [group[a:b] for a, b in zip((0, *ends[:-1]), ends, strict=True)]


def peel_melds(group: list[int], codes: Sequence[str], boxes: np.ndarray, others: int) -> list[list[int]]:
    """The standing hand with kongs laid on in its own row, too close for a gap to show: when the group holds
    more tiles than a hand with `others` melds elsewhere can (a kong's fourth tile), cut the fewest melds off
    its right end that leave the right count and no back standing, at the widest gap. Returns [standing,
    meld, ...], or [group] when nothing fits. (A pung laid on that closely looks like one standing: it stays.)"""
    if len(group) + 3 * others <= HAND_TILES:
        return [group]
    widths = gaps(group, boxes)
    for count in range(1, 5):
        cuts = [start for start in range(max(2, len(group) - 4 * count), len(group) - 3 * count + 1)
                if start + 3 * (others + count) == HAND_TILES and BACK not in (codes[i] for i in group[:start])]
        peeled = [(widths[start - 1], [group[:start], *tail]) for start in cuts
                  if (tail := split_melds(group[start:], codes, boxes)) is not None and len(tail) == count]
        if peeled:
            return max(peeled, key=lambda found: found[0])[1]
    return [group]


def group_tiles(boxes: np.ndarray, codes: Sequence[str], layout: Layout | None = None) -> list[dict]:
    """Groups in reading order: `{kind, tiles}`; flowers (wherever they lie) form one `flowers` group; the
    standing hand is the largest group that is not a run of melds (its pair rules that out), the others are
    `meld`s, one per meld a group's tiles form (melds laid too close for a gap are split by their codes), or
    more `concealed` tiles; the groups a winning hand has no room for are `loose` (set_loose_tiles_apart)."""
    if not len(codes):
        return []
    layout, boxes = layout or Layout(), straighten(boxes)
    geometric = [group for row in rows(boxes, layout) for group in split_at_gaps(row, boxes, codes, layout)]
    flowers = [i for group in geometric for i in group if is_flower(codes[i])]
    others = [kept for group in geometric if (kept := [i for i in group if not is_flower(codes[i])])]
    melds = [split_melds(group, codes, boxes) for group in others]
    standing = max(range(len(others)), key=lambda n: (melds[n] is None, len(others[n])), default=-1)
    groups = []
    for n, group in enumerate(others):
        if n == standing:
            elsewhere = sum(len(found or [others[k]]) for k, found in enumerate(melds) if k != n)
            hand, *laid_on = peel_melds(group, codes, boxes, elsewhere)
            groups += [{"kind": "concealed", "tiles": hand}] + [{"kind": "meld", "tiles": m} for m in laid_on]
        else:
            kind = "meld" if melds[n] else "unformed"
            groups += [{"kind": kind, "tiles": meld} for meld in melds[n] or [group]]
    return set_loose_tiles_apart(groups, boxes) + ([{"kind": "flowers", "tiles": flowers}] if flowers else [])


def set_loose_tiles_apart(groups: list[dict], boxes: np.ndarray) -> list[dict]:
    """The `meld` and `unformed` groups placed in the hand or made `loose`: melds, then unformed groups of a
    meld's size (a meld misread), then the other unformed groups (standing tiles wrapped onto another row or
    split off by a gap), each nearest the standing tiles first, join while the hand has room for them (a meld
    or a group of four counts 3 tiles, as a kong does); the rest lie elsewhere on the table."""
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    standing = [i for group in groups if group["kind"] == "concealed" for i in group["tiles"]]
    middle = centre[standing or list(range(len(boxes)))].mean(axis=0)

    def order(n: int) -> tuple[bool, bool, float]:
        group = groups[n]
        return (group["kind"] != "meld", len(group["tiles"]) not in MELD_SIZES,
                float(np.hypot(*(centre[group["tiles"]].mean(axis=0) - middle))))

    room = HAND_TILES - len(standing)
    kinds = [group["kind"] for group in groups]
    for n in sorted((n for n, kind in enumerate(kinds) if kind in ("meld", "unformed")), key=order):
        size = len(groups[n]["tiles"])
        counted = 3 if kinds[n] == "meld" or size == 4 else size
        meld_like = kinds[n] == "meld" or size in MELD_SIZES  # a misread meld stays apart, for a fix to form
        kinds[n] = ("meld" if meld_like else "concealed") if counted <= room else "loose"
        room -= counted if kinds[n] != "loose" else 0
    return [{**group, "kind": kind} for group, kind in zip(groups, kinds, strict=True)]


def meld_of(codes: Sequence[str]) -> dict | None:
    """The score-request meld a group of 3-4 tiles shows, or None. Backs in a four make a concealed kong (four
    backs: one whose face the photo does not show, `tiles` empty)."""
    faces = [code for code in codes if code != BACK]
    if len(codes) == 4 and len(set(faces)) <= 1:
        return {"kind": "kong", "tiles": to_string([faces[0]] * 4 if faces else []),
                **({"concealed": True} if len(faces) < 4 else {})}
    if len(codes) != 3 or len(faces) != 3:
        return None
    if len(set(faces)) == 1:
        return {"kind": "pung", "tiles": to_string(faces)}
    ranks = sorted(int(code[0]) for code in faces)
    if len({code[1] for code in faces}) == 1 and faces[0][1] in "mps" and ranks == list(range(ranks[0], ranks[0] + 3)):
        return {"kind": "chow", "tiles": to_string(faces)}
    return None


def place_hand(groups: list[dict], codes: Sequence[str]) -> dict:
    """Which detections make up the proposed hand, by index: `{concealed, melds, flowers, loose}`; `melds` are
    `{kind, tiles, ...}` score-request melds whose `tiles` are indices (a concealed kong of four backs has no
    face to name: it is proposed with none). Every detection index appears exactly once."""
    placed: dict = {"concealed": [], "melds": [], "flowers": [], "loose": []}
    for group in groups:
        tiles = group["tiles"]
        meld = meld_of([codes[i] for i in tiles]) if group["kind"] == "meld" else None
        if meld:
            placed["melds"].append({**meld, "tiles": list(tiles)})
        elif group["kind"] in ("flowers", "loose"):
            placed[group["kind"]] += tiles
        else:
            placed["concealed"] += [i for i in tiles if codes[i] != BACK]
            placed["loose"] += [i for i in tiles if codes[i] == BACK]  # a back standing is not a tile of the hand
    return placed


def propose_hand(groups: list[dict], codes: Sequence[str]) -> dict:
    """A score-request `hand`: the tiles place_hand puts in the hand, in notation."""
    return hand_of(place_hand(groups, codes), codes)


def hand_of(placed: dict, codes: Sequence[str]) -> dict:
    """The score-request `hand` that a placement by index makes (place_hand's, or a confirmation's `hand_tiles`),
    the one source of it: each group's faces in notation (backs show none); a concealed kong is of the face it
    shows, or of its `face` where it shows only backs (none where neither); `winning_tile` where `placed` names
    the winning tile's index (`winning`)."""
    def faces(indices: Sequence[int]) -> list[str]:
        return [codes[i] for i in indices if codes[i] != BACK]

    def meld(placed_meld: dict) -> dict:
        shown = faces(placed_meld["tiles"])
        if placed_meld["kind"] == "kong" and placed_meld.get("concealed"):
            face = placed_meld.get("face") or next(iter(shown), None)
            shown = [face] * 4 if face else []
        flags = {key: placed_meld[key] for key in ("concealed", "added", "fed_by") if placed_meld.get(key)}
        return {"kind": placed_meld["kind"], "tiles": to_string(shown), **flags}

    hand = {"concealed": to_string(faces(placed["concealed"])), "melds": [meld(m) for m in placed["melds"]],
            "flowers": to_string(faces(placed["flowers"]))}
    winning = placed.get("winning")
    return hand if winning is None else {**hand, "winning_tile": codes[winning]}
