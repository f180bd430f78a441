"""What a recogniser gets wrong, tile by tile, for `fanshot eval --report` and `--compare` (evaluation/report.py draws
it): each photo's true tiles paired with the tiles read, the confusion matrix between the 43 codes, F1 by where a
tile lies (hand, meld, flowers, loose), the worst photos, and the photos two versions read differently. Pure
functions of `Reading`s, which vision/evaluation/evaluate.py collects; numpy only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fanshot.scoring.tiles import DETECTOR_CLASSES
from fanshot.vision.evaluation.metrics import Boxes, claim, tile_figures

NOT_A_TILE = "not a tile"  # the confusion matrix's last row: a tile read where none is
MISSED = "missed"  # its last column: a true tile read as nothing
TRUE_LABELS = (*DETECTOR_CLASSES, NOT_A_TILE)
READ_LABELS = (*DETECTOR_CLASSES, MISSED)
POSITIONS = ("hand", "meld", "flowers", "loose")
MATCH_IOU = 0.5  # a read box is a true tile's when they overlap this much (as `stage_scores` and `by_width`)

Pair = tuple[int | None, int | None]  # (true tile's index, read tile's index); None on the side with none


@dataclass(frozen=True)
class Reading:
    """One photo of a set as evaluated: its true tiles (backs included; boxes in the frame read, none for a
    manifest), the tiles read (scored), where the recogniser placed each, the milliseconds, the photo's full size
    over the size it was read at, and where the layout places each true tile on its labelled box."""

    image: Path
    truth: Boxes
    found: Boxes
    found_places: Sequence[str]
    ms: float
    scale: float = 1.0
    true_places: Sequence[str] = ()

    @property
    def boxed(self) -> bool:
        """Whether the true tiles have boxes (a YOLO folder's photo), so that tiles pair by where they lie."""
        return len(self.truth.boxes) == len(self.truth.classes)


def places(hand_tiles: dict, count: int) -> list[str]:
    """Each of `count` tiles' position, from a proposed hand by index (`layout.place_hand`): the standing hand,
    a meld, the flowers or loose on the table."""
    where = ["loose"] * count
    for i in hand_tiles["concealed"]:
        where[i] = "hand"
    for meld in hand_tiles["melds"]:
        for i in meld["tiles"]:
            where[i] = "meld"
    for i in hand_tiles["flowers"]:
        where[i] = "flowers"
    return where


def pairing(reading: Reading) -> list[Pair]:
    """Every true tile and every tile read, once each: paired when the read box is the true tile's (one to one by
    falling score, IoU ≥ MATCH_IOU, whatever the codes). Without true boxes (a manifest) tiles pair by code, and
    the one true tile and one read tile a photo may have left over are taken as a misread (a close-up's)."""
    truth, found = list(reading.truth.classes), list(reading.found.classes)
    pairs: list[Pair] = []
    if reading.boxed:
        used = np.zeros(len(truth), dtype=bool)
        scores = reading.found.scores if reading.found.scores is not None else np.zeros(len(found))
        for i in np.argsort(-scores, kind="stable"):
            pairs.append((claim(reading.found.boxes[i], reading.truth.boxes, used, MATCH_IOU), int(i)))
        return pairs + [(int(j), None) for j in np.flatnonzero(~used)]
    left = list(range(len(truth)))
    unpaired = []
    for i, code in enumerate(found):
        j = next((j for j in left if truth[j] == code), None)
        if j is None:
            unpaired.append(i)
        else:
            left.remove(j)
            pairs.append((j, i))
    if len(left) == len(unpaired) == 1:
        return pairs + [(left[0], unpaired[0])]
    return pairs + [(None, i) for i in unpaired] + [(j, None) for j in left]


def pair_kind(reading: Reading, pair: Pair) -> str:
    """`right`, `misread`, `missed` or `false` (a tile read where none is)."""
    true, read = pair
    if true is None:
        return "false"
    if read is None:
        return "missed"
    return "right" if reading.truth.classes[true] == reading.found.classes[read] else "misread"


def tile_label(reading: Reading, pair: Pair) -> str:
    """A pair in words: `3s` read right, `3s → 2s` misread, `3s → missed`, `not a tile → 2s`."""
    true, read = pair
    before = reading.truth.classes[true] if true is not None else NOT_A_TILE
    after = reading.found.classes[read] if read is not None else MISSED
    return before if before == after else f"{before} → {after}"


def confusion(readings: Sequence[Reading]) -> np.ndarray:
    """Tiles counted by true code (rows: TRUE_LABELS) and code read (columns: READ_LABELS), over the photos."""
    rows, columns = {c: n for n, c in enumerate(TRUE_LABELS)}, {c: n for n, c in enumerate(READ_LABELS)}
    matrix = np.zeros((len(TRUE_LABELS), len(READ_LABELS)), np.int64)
    for reading in readings:
        for true, read in pairing(reading):
            matrix[rows[reading.truth.classes[true] if true is not None else NOT_A_TILE],
                   columns[reading.found.classes[read] if read is not None else MISSED]] += 1
    return matrix


@dataclass(frozen=True)
class PhotoErrors:
    misread: int
    missed: int
    false: int

    @property
    def total(self) -> int:
        return self.misread + self.missed + self.false


def photo_errors(reading: Reading) -> PhotoErrors:
    kinds = [pair_kind(reading, pair) for pair in pairing(reading)]
    return PhotoErrors(kinds.count("misread"), kinds.count("missed"), kinds.count("false"))


def worst(readings: Sequence[Reading], most: int) -> list[int]:
    """The indices of the `most` photos with the most tile errors (misread, missed, false), worst first; photos
    read without error are left out."""
    totals = [photo_errors(reading).total for reading in readings]
    return [i for i in sorted(range(len(readings)), key=lambda i: -totals[i]) if totals[i]][:most]


def changed(base: Sequence[Reading], candidate: Sequence[Reading], most: int) -> list[int]:
    """The indices of the `most` photos whose tiles two versions read differently, the largest change in tile
    errors first (the same photos, in the same order)."""
    delta = {i: photo_errors(b).total - photo_errors(c).total for i, (b, c) in enumerate(zip(base, candidate,
                                                                                              strict=True))
             if sorted(b.found.classes) != sorted(c.found.classes)}
    return sorted(delta, key=lambda i: -abs(delta[i]))[:most]


def scores_by_position(readings: Sequence[Reading]) -> dict[str, dict[str, float]]:
    """Tile precision, recall and F1 by where a tile lies: a true tile by where the layout places it from the
    labelled boxes, a tile read by its true tile's place, or where the recogniser placed it when it is not a tile.
    A tile is right when paired by its box and read as its code. Photos without true boxes are left out."""
    counts = {position: [0, 0, 0, 0] for position in POSITIONS}  # detections right, detections, read, true
    for reading in (r for r in readings if r.boxed):
        for true, read in pairing(reading):
            right = pair_kind(reading, (true, read)) == "right"
            if read is not None:
                tally = counts[reading.true_places[true] if true is not None else reading.found_places[read]]
                tally[0], tally[1] = tally[0] + right, tally[1] + 1
            if true is not None:
                tally = counts[reading.true_places[true]]
                tally[2], tally[3] = tally[2] + right, tally[3] + 1
    return {position: tile_figures(*tally) for position, tally in counts.items()}
