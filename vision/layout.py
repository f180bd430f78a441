"""From recognised tiles to table layout: rows, groups (concealed row, melds, flowers) and a proposed
score-request hand. A first, geometric version: rows by vertical overlap, groups split at wide gaps."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scoring.tiles import BACK, is_flower, to_string

ROW_OVERLAP = 0.5  # a tile joins a row when it shares this fraction of its height with the row
GROUP_GAP = 0.5  # a gap wider than this many median tile widths starts a new group


def rows(boxes: np.ndarray) -> list[list[int]]:
    """Tile indices in rows, top to bottom, each left to right."""
    found: list[tuple[float, float, list[int]]] = []  # row top, row bottom, members
    for index in np.argsort((boxes[:, 1] + boxes[:, 3]) / 2, kind="stable"):
        y1, y2 = boxes[index, 1], boxes[index, 3]
        for number, (top, bottom, members) in enumerate(found):
            if min(y2, bottom) - max(y1, top) >= ROW_OVERLAP * min(y2 - y1, bottom - top):
                found[number] = (min(top, y1), max(bottom, y2), [*members, int(index)])
                break
        else:
            found.append((y1, y2, [int(index)]))
    return [sorted(members, key=lambda i: boxes[i, 0]) for _, _, members in found]


def split_at_gaps(row: list[int], boxes: np.ndarray) -> list[list[int]]:
    """A left-to-right row cut wherever the gap between neighbours exceeds GROUP_GAP tile widths."""
    width = float(np.median(boxes[row, 2] - boxes[row, 0]))
    groups = [[row[0]]]
    for left, right in zip(row, row[1:], strict=False):
        if boxes[right, 0] - boxes[left, 2] > GROUP_GAP * width:
            groups.append([])
        groups[-1].append(right)
    return groups


def group_tiles(boxes: np.ndarray, codes: Sequence[str]) -> list[dict]:
    """Groups in reading order: `{kind, tiles}`; flowers (wherever they lie) form one `flowers` group, the
    largest other group is `concealed`, the rest are `meld`s."""
    if not len(codes):
        return []
    geometric = [group for row in rows(boxes) for group in split_at_gaps(row, boxes)]
    flowers = [i for group in geometric for i in group if is_flower(codes[i])]
    others = [kept for group in geometric if (kept := [i for i in group if not is_flower(codes[i])])]
    largest = max(range(len(others)), key=lambda n: len(others[n]), default=-1)
    groups = [{"kind": "concealed" if n == largest else "meld", "tiles": group} for n, group in enumerate(others)]
    return groups + ([{"kind": "flowers", "tiles": flowers}] if flowers else [])


def meld_of(codes: Sequence[str]) -> dict | None:
    """The score-request meld a group of 3-4 tiles shows, or None. Backs in a four make a concealed kong."""
    faces = [code for code in codes if code != BACK]
    if len(codes) == 4 and faces and len(set(faces)) == 1:
        return {"kind": "kong", "tiles": to_string([faces[0]] * 4),
                **({"concealed": True} if len(faces) < 4 else {})}
    if len(codes) != 3 or len(faces) != 3:
        return None
    if len(set(faces)) == 1:
        return {"kind": "pung", "tiles": to_string(faces)}
    ranks = sorted(int(code[0]) for code in faces)
    if len({code[1] for code in faces}) == 1 and faces[0][1] in "mps" and ranks == list(range(ranks[0], ranks[0] + 3)):
        return {"kind": "chow", "tiles": to_string(faces)}
    return None


def propose_hand(groups: list[dict], codes: Sequence[str]) -> dict:
    """A score-request `hand`: melds from the meld groups that form one; every other face tile is concealed."""
    concealed: list[str] = []
    melds: list[dict] = []
    flowers: list[str] = []
    for group in groups:
        tiles = [codes[i] for i in group["tiles"]]
        meld = meld_of(tiles) if group["kind"] == "meld" else None
        if meld:
            melds.append(meld)
        elif group["kind"] == "flowers":
            flowers += tiles
        else:
            concealed += [code for code in tiles if code != BACK]
    return {"concealed": to_string(concealed), "melds": melds, "flowers": to_string(flowers)}
