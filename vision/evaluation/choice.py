"""The choice rule for a recogniser candidate (a model, a threshold, an inference rule), on the choice sets: it
ships when the mean F1 over the sets rises by at least MEAN_RISE and no set falls by more than MOST_FALL, or, in a
set of under SMALL_SET tiles, by more than one tile. Each set's change comes with a paired per-photo bootstrap
interval. Inputs are `fanshot eval --json --photos` reports (vision/evaluation/evaluate.py); numpy only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from fanshot.vision.evaluation.metrics import matched

MEAN_RISE = 0.002
MOST_FALL = 0.005
SMALL_SET = 200  # tiles: under this, a fall is counted in tiles, not F1
RESAMPLES = 5000
LEVEL = 0.95


def photo_counts(photos: list[dict]) -> np.ndarray:
    """Per photo: faces found right, faces found, true faces, false tiles (faces and backs beyond the truth)."""
    rows = [(matched(p["found"], p["true"]), len(p["found"]), len(p["true"]), p["false"]) for p in photos]
    return np.array(rows, np.int64).reshape(-1, 4)


def micro_f1(counts: np.ndarray) -> np.ndarray:
    """F1 of summed counts (last axis: right, found, true, ...); 0 where nothing was found or true."""
    right, found, true = counts[..., 0], counts[..., 1], counts[..., 2]
    total = found + true
    return np.divide(2 * right, total, out=np.zeros(np.shape(total)), where=total > 0)


def paired_interval(base: np.ndarray, candidate: np.ndarray, resamples: int = RESAMPLES, seed: int = 0,
                    level: float = LEVEL) -> tuple[float, float]:
    """The `level` interval of the candidate's F1 minus the base's, photos resampled with replacement (the same
    photos for both)."""
    picks = np.random.default_rng(seed).integers(0, len(base), (resamples, len(base)))
    differences = micro_f1(candidate[picks].sum(axis=1)) - micro_f1(base[picks].sum(axis=1))
    tail = (1 - level) / 2
    low, high = np.quantile(differences, [tail, 1 - tail])
    return float(low), float(high)


def tile_errors(counts: np.ndarray) -> int:
    """Faces missed plus tiles found falsely, over the set."""
    return int(counts[:, 2].sum() - counts[:, 0].sum() + counts[:, 3].sum())


@dataclass(frozen=True)
class SetChange:
    name: str
    tiles: int  # true faces in the set
    base_f1: float
    candidate_f1: float
    interval: tuple[float, float]
    base_errors: int
    candidate_errors: int

    @property
    def change(self) -> float:
        return self.candidate_f1 - self.base_f1

    @property
    def falls(self) -> bool:
        """Worse by the rule: by more than one tile in a small set, by more than MOST_FALL F1 in a larger one."""
        if self.tiles < SMALL_SET:
            return self.candidate_errors - self.base_errors > 1
        return self.change < -MOST_FALL


def compare_set(name: str, base: list[dict], candidate: list[dict]) -> SetChange:
    """One set's change, from the two reports' `photos` (the same photos in the same order)."""
    if [p["true"] for p in base] != [p["true"] for p in candidate]:
        raise ValueError(f"{name}: the two reports are not of the same photos; evaluate the same set with both")
    base_counts, candidate_counts = photo_counts(base), photo_counts(candidate)
    return SetChange(name, int(base_counts[:, 2].sum()), float(micro_f1(base_counts.sum(axis=0))),
                     float(micro_f1(candidate_counts.sum(axis=0))), paired_interval(base_counts, candidate_counts),
                     tile_errors(base_counts), tile_errors(candidate_counts))


@dataclass(frozen=True)
class Verdict:
    changes: list[SetChange]
    mean_change: float  # over the sets that have tiles
    ships: bool
    reasons: list[str]


def verdict(base: Mapping[str, dict], candidate: Mapping[str, dict]) -> Verdict:
    """The choice rule over every set of two `fanshot eval --json --photos` reports ({set: report})."""
    missing = sorted(set(base) ^ set(candidate))
    if missing:
        raise ValueError(f"sets {missing} are in one report only; evaluate the same sets with both")
    for name, report in (*base.items(), *candidate.items()):
        if "photos" not in report:
            raise ValueError(f"{name}: the report has no photos; run `fanshot eval ... --json --photos`")
    changes = [compare_set(name, base[name]["photos"], candidate[name]["photos"]) for name in base]
    scored = [change.change for change in changes if change.tiles]
    mean_change = float(np.mean(scored)) if scored else 0.0
    reasons = [f"{change.name} falls ({change.change:+.4f} F1, {change.candidate_errors - change.base_errors:+d} "
               "tile errors)" for change in changes if change.falls]
    if mean_change < MEAN_RISE:
        reasons.append(f"the mean F1 rises by {mean_change:+.4f}, under {MEAN_RISE}")
    return Verdict(changes, mean_change, not reasons, reasons)
