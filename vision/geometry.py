"""Box geometry shared by training and inference: letterbox, YOLO output decoding, NMS, IoU, tile crops, and the
geometry the recogniser's stages share (tile sides, zoom windows, boxes in rows). Boxes are float arrays of
[x1, y1, x2, y2] in pixels."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np

from fanshot.vision.layout import rows, straighten

if TYPE_CHECKING:
    from collections.abc import Sequence

    from fanshot.vision.config import RecogniserConfig, ZoomIn

PAD_VALUE = 114  # ultralytics' letterbox grey: the localiser was trained with it

Window = tuple[int, int, int, int]  # x1, y1, x2, y2 in photo pixels


class Letterbox(NamedTuple):
    image: np.ndarray  # size×size×3
    scale: float  # resized / original
    pad: tuple[float, float]  # left, top padding in resized pixels


def letterbox(image: np.ndarray, size: int, fill: float = 1.0,
              offset: tuple[float, float] = (0.5, 0.5)) -> Letterbox:
    """Resize keeping the aspect ratio so the long side is `fill` × `size`, on a size×size grey square (`fill` < 1
    zooms out: the image shrinks inside the square), placed at `offset` (0-1 of the free room on each axis; the
    default centres it)."""
    height, width = image.shape[:2]
    scale = min(size / height, size / width) * fill
    # At least one pixel: the short side of a long thin image (1×5000) would otherwise round to none.
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    left, top = int((size - new_w) * offset[0]), int((size - new_h) * offset[1])
    canvas = np.full((size, size, 3), PAD_VALUE, dtype=np.uint8)
    canvas[top:top + new_h, left:left + new_w] = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    return Letterbox(canvas, scale, (float(left), float(top)))


def unletterbox(boxes: np.ndarray, box: Letterbox, width: int, height: int) -> np.ndarray:
    """Boxes from letterboxed pixels back to the original image, clipped to it."""
    left, top = box.pad
    out = (boxes - [left, top, left, top]) / box.scale
    return np.clip(out, 0, [width, height, width, height])


def turn_boxes(boxes: np.ndarray, quarter_turns: int, width: int, height: int) -> np.ndarray:
    """Where boxes in a width×height image lie once the image is turned as `np.rot90(image, quarter_turns)` does
    (counter-clockwise quarter turns; negative ones clockwise)."""
    for _ in range(quarter_turns % 4):
        boxes = np.stack([boxes[:, 1], width - boxes[:, 2], boxes[:, 3], width - boxes[:, 0]], axis=1)
        width, height = height, width
    return boxes


def decode_yolo(output: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An ultralytics detect head output (1, 4 + classes, anchors) of cx, cy, w, h and class scores →
    boxes (N×4 xyxy), scores and class indices of the anchors whose best score reaches `conf`."""
    rows = output[0].T
    return best_class(xywh_to_xyxy(rows[:, :4]), rows[:, 4:], conf)


def xywh_to_xyxy(xywh: np.ndarray) -> np.ndarray:
    """N×4 boxes of centre x, centre y, width, height → N×4 [x1, y1, x2, y2]."""
    cx, cy, w, h = xywh.T
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)


def best_class(boxes: np.ndarray, class_scores: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boxes whose best class score (anchors × classes) reaches `conf`: boxes, scores and class indices."""
    classes = class_scores.argmax(axis=1)
    scores = class_scores[np.arange(len(class_scores)), classes]
    keep = scores >= conf
    return boxes[keep], scores[keep], classes[keep]


def iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """IoU of one box with each of `boxes`."""
    x1, y1 = np.maximum(box[0], boxes[:, 0]), np.maximum(box[1], boxes[:, 1])
    x2, y2 = np.minimum(box[2], boxes[:, 2]), np.minimum(box[3], boxes[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / np.maximum(area + areas - inter, 1e-12)


def nms(boxes: np.ndarray, scores: np.ndarray, threshold: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best score first. Class-agnostic: a place
    on the table holds one tile, face or back."""
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while order.size:
        best, order = order[0], order[1:]
        keep.append(int(best))
        order = order[iou(boxes[best], boxes[order]) <= threshold]
    return np.array(keep, dtype=np.int64)


def union_of_looks(first: np.ndarray, first_scores: np.ndarray, second: np.ndarray, second_scores: np.ndarray,
                   overlap: float) -> tuple[np.ndarray, np.ndarray]:
    """Which boxes of two looks at one image their union keeps, as a mask over each look's boxes (so each kept
    find keeps its look and index): greedy NMS over both, the better score kept where two overlap more than
    `overlap` IoU, the first look's on a tie."""
    boxes = np.concatenate([first.reshape(-1, 4), second.reshape(-1, 4)])
    keep = np.zeros(len(boxes), dtype=bool)
    keep[nms(boxes, np.concatenate([first_scores, second_scores]), overlap)] = True
    return keep[:len(first)], keep[len(first):]


def cut_crop(image: np.ndarray, box: np.ndarray, size: int, turns: int = 0) -> np.ndarray:
    """The pixel box (clipped to the image), turned `turns` quarters (np.rot90's k), stretched to size×size: the
    classifier's input, in training and at inference alike."""
    height, width = image.shape[:2]
    x1 = int(np.clip(np.floor(box[0]), 0, width - 1))
    y1 = int(np.clip(np.floor(box[1]), 0, height - 1))
    x2, y2 = int(min(width, np.ceil(box[2]))), int(min(height, np.ceil(box[3])))
    x2, y2 = max(x2, x1 + 1), max(y2, y1 + 1)
    crop = np.ascontiguousarray(np.rot90(image[y1:y2, x1:x2], turns)) if turns else image[y1:y2, x1:x2]
    return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)


def moved_boxes(box: np.ndarray, views: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """The box (x1, y1, x2, y2) once per view (scale about its centre, shift across and down as shares of its
    width and height): V×4."""
    width, height = box[2] - box[0], box[3] - box[1]
    centre_x, centre_y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return np.array([[centre_x + dx * width - scale * width / 2, centre_y + dy * height - scale * height / 2,
                      centre_x + dx * width + scale * width / 2, centre_y + dy * height + scale * height / 2]
                     for scale, dx, dy in views], dtype=np.float64)


def tile_sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's side as the square root of its area: a tile's size whichever way it is turned."""
    return np.sqrt(np.prod(boxes[:, 2:] - boxes[:, :2], axis=1))


def tiles_small(boxes: np.ndarray, width: int, height: int, size: int, below: float) -> bool:
    """Whether the tiles found in a `width`×`height` photo are small in the localiser's `size` px input: their
    median side there under `below` px (the closer look's test, `ZoomIn.below`)."""
    return bool(len(boxes)) and float(np.median(tile_sides(boxes))) * size / max(width, height) < below


def zoom_window(boxes: np.ndarray, width: int, height: int, size: int, zoom: ZoomIn,
                min_window: float) -> Window | None:
    """The window to read again when the tiles found are small in the localiser's `size` px input: centred on
    them, sized so that they come out `zoom.target` px; None when they are not small, the window would not enlarge
    them `zoom.min_gain` times, or the photo is thinner than `min_window`."""
    if min(width, height) < min_window or not tiles_small(boxes, width, height, size, zoom.below):
        return None
    longer, side = max(width, height), float(np.median(tile_sides(boxes)))
    window = max(size * side / zoom.target, min_window)
    if longer / window < zoom.min_gain:
        return None
    centre = (boxes[:, :2].min(axis=0) + boxes[:, 2:].max(axis=0)) / 2
    w, h = min(window, width), min(window, height)
    x1 = int(np.clip(round(centre[0] - w / 2), 0, width - w))
    y1 = int(np.clip(round(centre[1] - h / 2), 0, height - h))
    return x1, y1, x1 + round(w), y1 + round(h)


def window_starts(length: int, size: int) -> list[int]:
    """Where the fewest windows of `size` px that cover `length` px start, evenly spread (they overlap a little)."""
    count = -(-length // size)
    if count <= 1:
        return [0]
    return [round(k * (length - size) / (count - 1)) for k in range(count)]


def inside(boxes: np.ndarray, window: Window) -> np.ndarray:
    """Which boxes lie wholly inside the window."""
    x1, y1, x2, y2 = window
    return (boxes[:, 0] >= x1) & (boxes[:, 1] >= y1) & (boxes[:, 2] <= x2) & (boxes[:, 3] <= y2)


def cut_at_edge(boxes: np.ndarray, window: Window, width: int, height: int, edge: float) -> np.ndarray:
    """Which boxes (window pixels) come within `edge` of an edge of the window that is not the photo's: tiles cut
    by it."""
    x1, y1, x2, y2 = window
    return (((boxes[:, 0] <= edge) & (x1 > 0)) | ((boxes[:, 1] <= edge) & (y1 > 0))
            | ((boxes[:, 2] >= x2 - x1 - edge) & (x2 < width)) | ((boxes[:, 3] >= y2 - y1 - edge) & (y2 < height)))


def mostly_within(boxes: np.ndarray, others: np.ndarray, share: float = 0.5) -> np.ndarray:
    """Which boxes have more than `share` of their area inside one of `others`."""
    if not len(others) or not len(boxes):
        return np.zeros(len(boxes), dtype=bool)
    low = np.maximum(boxes[:, None, :2], others[None, :, :2])
    high = np.minimum(boxes[:, None, 2:], others[None, :, 2:])
    overlap = np.prod(np.clip(high - low, 0, None), axis=2)
    area = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    return (overlap > share * np.maximum(area, 1e-9)[:, None]).any(axis=1)


def close_up_tiles(boxes: np.ndarray, width: int, height: int, min_share: float, max_aspect: float) -> np.ndarray:
    """Which boxes are tiles of a close-up: their side at least `min_share` of the photo's, their longer side at
    most `max_aspect` times their shorter."""
    sizes = boxes[:, 2:] - boxes[:, :2]
    aspect = sizes.max(axis=1) / np.maximum(sizes.min(axis=1), 1e-9)
    return (tile_sides(boxes) >= min_share * np.sqrt(width * height)) & (aspect <= max_aspect)


def in_sure_rows(boxes: np.ndarray, sure: np.ndarray, config: RecogniserConfig) -> np.ndarray:
    """Which boxes stand in a row with `row_fill.mates` or more `sure` boxes, their side within `row_fill.size` of
    the median of those."""
    keep = np.zeros(len(boxes), dtype=bool)
    sides = tile_sides(boxes)
    for row in map(np.array, rows(straighten(boxes), config.layout)):
        mates = row[sure[row]]
        if len(mates) >= config.row_fill.mates:
            keep[row] = np.abs(sides[row] / np.median(sides[mates]) - 1) <= config.row_fill.size
    return keep
