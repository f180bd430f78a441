"""Evaluation metrics, numpy only: tile multiset precision/recall/F1 and box mAP (VOC all-point AP)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.geometry import iou

COCO_THRESHOLDS = tuple(np.round(np.arange(0.5, 0.96, 0.05), 2))


def multiset_scores(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> dict[str, float]:
    """Micro-averaged precision, recall and F1 over (predicted, true) tile multisets, one pair per photo."""
    hits = predicted = true = 0
    for guess, truth in pairs:
        hits += sum((Counter(guess) & Counter(truth)).values())
        predicted += len(guess)
        true += len(truth)
    precision = hits / predicted if predicted else 0.0
    recall = hits / true if true else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


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
    hits = np.zeros(len(found))
    for n, (_, photo, box) in enumerate(found):
        if not len(targets[photo]):
            continue
        overlaps = np.where(used[photo], -1.0, iou(box, targets[photo]))
        best = int(np.argmax(overlaps))
        if overlaps[best] >= threshold:
            used[photo][best] = True
            hits[n] = 1
    tp = np.cumsum(hits)
    return average_precision(tp / total, tp / np.arange(1, len(found) + 1))


def mean_ap(detections: Sequence[Boxes], truths: Sequence[Boxes],
            thresholds: Sequence[float] = (0.5,)) -> float:
    """Mean over the classes present in the ground truth and over the IoU thresholds."""
    names = sorted({c for t in truths for c in t.classes})
    if not names:
        return 0.0
    return float(np.mean([class_ap(detections, truths, name, threshold)
                          for name in names for threshold in thresholds]))
