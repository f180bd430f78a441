"""Evaluation metrics, numpy only: tile multiset precision/recall/F1, box mAP (VOC all-point AP), and the
localiser's and classifier's shares of the errors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from fanshot.scoring.tiles import BACK, DETECTOR_CLASSES
from fanshot.vision.geometry import iou

COCO_THRESHOLDS = tuple(np.round(np.arange(0.5, 0.96, 0.05), 2))


def matched(guess: Sequence[str], truth: Sequence[str]) -> int:
    """How many predicted codes the true multiset accounts for."""
    return sum((Counter(guess) & Counter(truth)).values())


def multiset_scores(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> dict[str, float]:
    """Micro-averaged precision, recall and F1 over (predicted, true) tile multisets, one pair per photo."""
    hits = predicted = true = 0
    for guess, truth in pairs:
        hits += matched(guess, truth)
        predicted += len(guess)
        true += len(truth)
    precision = hits / predicted if predicted else 0.0
    recall = hits / true if true else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def class_scores(pairs: Iterable[tuple[Sequence[str], Sequence[str]]],
                 codes: Sequence[str] = DETECTOR_CLASSES) -> dict[str, dict[str, float]]:
    """`multiset_scores` per code: a code's tiles read right in a photo are as many as both multisets hold of it
    (so the codes' counts add up to the set's). Per code: true tiles, tiles found, precision, recall, F1."""
    right, found, true = Counter(), Counter(), Counter()
    for guess, truth in pairs:
        right.update(Counter(guess) & Counter(truth))
        found.update(guess)
        true.update(truth)
    return {code: tile_figures(right[code], found[code], right[code], true[code]) for code in codes}


def tile_figures(right: int, found: int, read: int, true: int) -> dict[str, float]:
    """A bin's figures from its counts: tiles found (`right` of them right) and true tiles (`read` of them read):
    true tiles, tiles found, precision, recall, F1."""
    precision, recall = (right / found if found else 0.0), (read / true if true else 0.0)
    return {"tiles": true, "found": found, "precision": precision, "recall": recall,
            "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0}


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """Area under the precision envelope, all-point interpolation (PASCAL VOC 2010+)."""
    mrec = np.concatenate([[0.0], recall, [1.0]])
    mpre = np.concatenate([[0.0], precision, [0.0]])
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    steps = np.flatnonzero(mrec[1:] != mrec[:-1])
    return float(np.sum((mrec[steps + 1] - mrec[steps]) * mpre[steps + 1]))


@dataclass(frozen=True)
class Boxes:
    """One photo's boxes (N×4 xyxy) with class names, and scores for detections (None for ground truth)."""

    boxes: np.ndarray
    classes: Sequence[str]
    scores: np.ndarray | None = None


def class_ap(detections: Sequence[Boxes], truths: Sequence[Boxes], name: str, threshold: float) -> float:
    """AP of one class over photos: detections by falling score, each matched greedily to the unmatched true
    box of its photo with the highest IoU ≥ threshold."""
    found = []  # (score, photo, box)
    for photo, det in enumerate(detections):
        found += [(det.scores[i], photo, det.boxes[i]) for i, c in enumerate(det.classes) if c == name]
    found.sort(key=lambda item: -item[0])
    targets = [t.boxes[[c == name for c in t.classes]].reshape(-1, 4) for t in truths]
    total = sum(len(boxes) for boxes in targets)
    if not total:
        return 0.0
    used = [np.zeros(len(boxes), dtype=bool) for boxes in targets]
    hits = np.array([claim(box, targets[photo], used[photo], threshold) is not None for _, photo, box in found])
    tp = np.cumsum(hits)
    return average_precision(tp / total, tp / np.arange(1, len(found) + 1))


def claim(box: np.ndarray, targets: np.ndarray, used: np.ndarray, threshold: float) -> int | None:
    """The unused target with the highest IoU ≥ threshold with `box`, marked used; None if there is none."""
    if not len(targets):
        return None
    overlaps = np.where(used, -1.0, iou(box, targets))
    best = int(np.argmax(overlaps))
    if overlaps[best] < threshold:
        return None
    used[best] = True
    return best


def stage_scores(detections: Sequence[Boxes], truths: Sequence[Boxes], threshold: float = 0.5) -> dict[str, float]:
    """Where the errors are, localiser or classifier: box precision, recall and F1 whatever the code (each
    photo's boxes by falling score, matched one-to-one at IoU ≥ threshold), the share of matched boxes that
    carry their true code, and the face-down tiles: true, predicted, and predicted on a true one."""
    matched = right = found = true = backs_right = 0
    for det, truth in zip(detections, truths, strict=True):
        used = np.zeros(len(truth.classes), dtype=bool)
        for i in np.argsort(-det.scores, kind="stable"):
            j = claim(det.boxes[i], truth.boxes, used, threshold)
            if j is not None:
                matched += 1
                right += det.classes[i] == truth.classes[j]
                backs_right += det.classes[i] == truth.classes[j] == BACK
        found += len(det.classes)
        true += len(truth.classes)
    precision, recall = (matched / found if found else 0.0), (matched / true if true else 0.0)
    return {"localiser_precision": precision, "localiser_recall": recall,
            "localiser_f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
            "code_accuracy_on_matched": right / matched if matched else 0.0,
            "backs": sum(list(t.classes).count(BACK) for t in truths),
            "backs_predicted": sum(list(d.classes).count(BACK) for d in detections), "backs_found": backs_right}


def mean_ap(detections: Sequence[Boxes], truths: Sequence[Boxes],
            thresholds: Sequence[float] = (0.5,)) -> float:
    """Mean over the classes present in the ground truth and over the IoU thresholds."""
    names = sorted({c for t in truths for c in t.classes})
    if not names:
        return 0.0
    return float(np.mean([class_ap(detections, truths, name, threshold)
                          for name in names for threshold in thresholds]))


WIDTH_BINS = (20.0, 30.0, 50.0)  # px at the photo's full resolution: under 20, 20-30, 30-50, over 50


def width_bin(width: float, edges: Sequence[float] = WIDTH_BINS) -> str:
    """The bin a tile of this width (px) falls in: "<20", "20-30", "30-50", "50+"."""
    names = [f"<{edges[0]:g}", *(f"{a:g}-{b:g}" for a, b in zip(edges, edges[1:], strict=False)), f"{edges[-1]:g}+"]
    return names[int(np.searchsorted(edges, width, side="right"))]


def tile_widths(boxes: np.ndarray, scale: float) -> np.ndarray:
    """Each box's tile width in full-resolution pixels: its shorter side (a tile stands 3:4 either way up) times
    `scale`, the photo's full size over the size it was read at."""
    return np.min(boxes[:, 2:] - boxes[:, :2], axis=1) * scale if len(boxes) else np.zeros(0)


def scores_by_width(detections: Sequence[Boxes], truths: Sequence[Boxes], scales: Sequence[float],
                    threshold: float = 0.5) -> dict[str, dict[str, float]]:
    """Tile precision, recall and F1 per tile width (`width_bin`): a true tile counts as read when a detection
    is matched to it (one-to-one by falling score, IoU ≥ threshold, as `stage_scores`) and carries its code; a
    detection is binned by its own width, a true tile by its own."""
    counts: dict[str, list[int]] = {}  # bin -> [detections right, detections, true tiles read, true tiles]
    for det, truth, scale in zip(detections, truths, scales, strict=True):
        used = np.zeros(len(truth.classes), dtype=bool)
        right = np.zeros(len(det.classes), dtype=bool)
        read = np.zeros(len(truth.classes), dtype=bool)
        for i in np.argsort(-det.scores, kind="stable"):
            j = claim(det.boxes[i], truth.boxes, used, threshold)
            if j is not None and det.classes[i] == truth.classes[j]:
                right[i] = read[j] = True
        for width, ok in zip(tile_widths(det.boxes, scale), right, strict=True):
            tally = counts.setdefault(width_bin(width), [0, 0, 0, 0])
            tally[0], tally[1] = tally[0] + ok, tally[1] + 1
        for width, ok in zip(tile_widths(truth.boxes, scale), read, strict=True):
            tally = counts.setdefault(width_bin(width), [0, 0, 0, 0])
            tally[2], tally[3] = tally[2] + ok, tally[3] + 1
    return {name: tile_figures(*counts.get(name, [0, 0, 0, 0]))
            for name in (width_bin(edge - 1) for edge in (*WIDTH_BINS, np.inf))}
