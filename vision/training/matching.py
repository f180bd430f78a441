"""Which labelled tile each localiser box claims, as the adaptation pairs them (`fanshot adapt`)."""

from __future__ import annotations

import numpy as np

MATCH_INSIDE = 0.6  # a localiser box this much inside a labelled tile is that tile (one to one)
NEGATIVE_INSIDE = 0.2  # a localiser box this little inside every labelled tile is "not a tile" of the set


def inside_share(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The share of `box`'s area inside each of `boxes`."""
    x1, y1 = np.maximum(box[0], boxes[:, 0]), np.maximum(box[1], boxes[:, 1])
    x2, y2 = np.minimum(box[2], boxes[:, 2]), np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    return inter / max((box[2] - box[0]) * (box[3] - box[1]), 1e-12)


def match_labels(found: np.ndarray, scores: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """For each localiser box: the index of the labelled box it claims (one to one, best score first: the free
    label holding most of it, at least MATCH_INSIDE), -1 for "not a tile" (under NEGATIVE_INSIDE of it in any
    label), -2 for neither. Inside, not IoU: the localiser boxes a tile's face, a user may box the whole tile."""
    claims = np.full(len(found), -2)
    used = np.zeros(len(truth), dtype=bool)
    for i in np.argsort(-scores, kind="stable"):
        inside = inside_share(found[i], truth) if len(truth) else np.zeros(0)
        free = np.where(used, -1.0, inside)
        if len(free) and free.max() >= MATCH_INSIDE:
            claims[i] = int(free.argmax())
            used[claims[i]] = True
        elif not len(inside) or inside.max() < NEGATIVE_INSIDE:
            claims[i] = -1
    return claims
