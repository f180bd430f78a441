"""The localiser's class scores refitted to a user's tile set, in numpy (no torch). An ultralytics detect head ends
each scale's class branch in a 1×1 Conv with bias whose output goes through a Sigmoid: per anchor, a logistic
regression over that branch's features. Those three Convs are refitted on the user's labelled photos; the trunk and
the box branch stay as they are, so the adapted localiser boxes tiles as the base does and only scores them anew.

Targets are IoU-aware, set as the base's were in training (task-aligned assignment, `soft_targets`); of the
negatives, the easy ones are subsampled and weighted up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

from fanshot.vision.evaluation.metrics import Boxes
from fanshot.vision.geometry import best_class, iou, letterbox, nms, xywh_to_xyxy
from fanshot.vision.recogniser import session, to_tensor

TOP_K = 10  # positives per labelled tile, as ultralytics' task-aligned assigner takes
ALIGN_SCORE, ALIGN_IOU = 0.5, 6.0  # that assigner's weights of score and IoU in an anchor's alignment with a tile
EASY_BELOW = 0.01  # a negative anchor the base scores below this (every class) is easy
EASY_KEPT = 0.1  # the share of easy negatives kept for fitting, each weighted 1 / EASY_KEPT
FIT_STEPS = 150
RATE = 0.01


@dataclass(frozen=True)
class LocaliserHead:
    """Per scale: the class Conv's weight (classes × channels) and bias (classes)."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]


@dataclass(frozen=True)
class Look:
    """One letterboxed look at a labelled photo: per scale, the class branch's features of its anchors (anchors ×
    channels), the base model's box at each anchor (letterbox xyxy), and the labelled boxes (letterbox xyxy) with
    their localiser class indices."""

    features: tuple[np.ndarray, ...]
    boxes: np.ndarray
    truth: np.ndarray
    kinds: np.ndarray


@dataclass(frozen=True)
class Samples:
    """Anchors to fit on, per scale: features, targets (anchors × classes) and loss weights."""

    features: tuple[np.ndarray, ...]
    targets: tuple[np.ndarray, ...]
    weights: tuple[np.ndarray, ...]


def score_convs(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    """The 1×1 Convs that end the class branches, in anchor order: Conv → Reshape → Concat → Sigmoid, whose
    output is the class-score part of the graph's output."""
    nodes = {output: node for node in model.graph.node for output in node.output}
    final = nodes.get(model.graph.output[0].name)
    sigmoid = next((nodes.get(i) for i in final.input if nodes.get(i) is not None
                    and nodes[i].op_type == "Sigmoid"), None) if final is not None else None
    concat = nodes.get(sigmoid.input[0]) if sigmoid is not None else None
    reshapes = [nodes.get(i) for i in concat.input] if concat is not None and concat.op_type == "Concat" else []
    convs = [nodes.get(r.input[0]) if r is not None and r.op_type == "Reshape" else None for r in reshapes]
    if not convs or any(c is None or c.op_type != "Conv" or len(c.input) != 3 for c in convs):
        raise ValueError("the localiser does not end its class branches in Conv → Reshape → Concat → Sigmoid; "
                         "it cannot be adapted")
    return convs


def base_localiser_head(model: onnx.ModelProto) -> LocaliserHead:
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = score_convs(model)
    return LocaliserHead(tuple(weights[c.input[1]][:, :, 0, 0].astype(np.float32) for c in convs),
                         tuple(weights[c.input[2]].astype(np.float32) for c in convs))


def feature_session(model: onnx.ModelProto) -> ort.InferenceSession:
    """The localiser with each class Conv's input (that scale's features) as further outputs."""
    with_features = onnx.ModelProto()
    with_features.CopyFrom(model)
    for conv in score_convs(model):
        with_features.graph.output.append(onnx.helper.make_tensor_value_info(conv.input[0], onnx.TensorProto.FLOAT,
                                                                             None))
    return session(with_features.SerializeToString())


def write_localiser(model: onnx.ModelProto, head: LocaliserHead) -> onnx.ModelProto:
    """The base localiser with `head` as its class Convs (checked)."""
    adapted = onnx.ModelProto()
    adapted.CopyFrom(model)
    values = {}
    for conv, weight, bias in zip(score_convs(adapted), head.weights, head.biases, strict=True):
        values[conv.input[1]], values[conv.input[2]] = weight[:, :, None, None], bias
    for initializer in adapted.graph.initializer:
        if initializer.name in values:
            initializer.CopyFrom(numpy_helper.from_array(values[initializer.name].astype(np.float32),
                                                         initializer.name))
    onnx.checker.check_model(adapted)
    return adapted


def place(image: np.ndarray, size: int, fill: float, offset: tuple[float, float], flip: bool
          ) -> tuple[np.ndarray, np.ndarray]:
    """The photo on a size×size grey square, its long side `fill` × size, at `offset` (0-1 of the free room on
    each axis; 0.5 centres it as `letterbox` does), mirrored if `flip`; and the affine map [sx, sy, dx, dy] that
    takes normalised photo coordinates to the square's pixels."""
    boxed = letterbox(image, size, fill, offset)
    canvas, (left, top) = boxed.image, (int(p) for p in boxed.pad)
    new_w, new_h = (max(1, round(side * boxed.scale)) for side in (image.shape[1], image.shape[0]))
    if flip:
        canvas[top:top + new_h, left:left + new_w] = canvas[top:top + new_h, left:left + new_w][:, ::-1].copy()
        return canvas, np.array([-new_w, new_h, left + new_w, top], dtype=np.float64)
    return canvas, np.array([new_w, new_h, left, top], dtype=np.float64)


def map_boxes(boxes: np.ndarray, affine: np.ndarray) -> np.ndarray:
    """Normalised xyxy boxes through `place`'s map, still xyxy (x1 < x2 when mirrored)."""
    sx, sy, dx, dy = affine
    x = boxes[:, [0, 2]] * sx + dx
    y = boxes[:, [1, 3]] * sy + dy
    return np.stack([x.min(axis=1), y[:, 0], x.max(axis=1), y[:, 1]], axis=1)


def look(canvas: np.ndarray, truth: np.ndarray, kinds: np.ndarray, features: ort.InferenceSession) -> Look:
    """Run the localiser with its features on one placed photo (truth already in the square's pixels)."""
    output, *maps = features.run(None, {features.get_inputs()[0].name: to_tensor(canvas[None])})
    boxes = xywh_to_xyxy(output[0].T[:, :4])
    return Look(tuple(m[0].reshape(m.shape[1], -1).T.copy() for m in maps), boxes, truth.reshape(-1, 4), kinds)


def anchor_points(look_: Look, size: int) -> np.ndarray:
    """The centre of each anchor's grid cell in the square's pixels, in the output's order (scale by scale, row
    by row)."""
    points = []
    for features in look_.features:
        side = round(np.sqrt(len(features)))
        stride = size / side
        xs, ys = np.meshgrid(np.arange(side) + 0.5, np.arange(side) + 0.5)
        points.append(np.stack([xs, ys], axis=-1).reshape(-1, 2) * stride)
    return np.concatenate(points)


def soft_targets(points: np.ndarray, boxes: np.ndarray, scores: np.ndarray, truth: np.ndarray, kinds: np.ndarray
                 ) -> np.ndarray:
    """The target score of each class at each anchor (anchors × classes), as ultralytics' task-aligned assigner
    sets them for the base: of the anchors inside a labelled tile, the TOP_K whose base box and score align best
    with it (score^ALIGN_SCORE × IoU^ALIGN_IOU, for the tile's class) are positives of its class, their targets
    that alignment scaled so that the best one's is the best IoU; every other anchor is a negative, duplicates
    inside a tile included."""
    targets = np.zeros_like(scores, dtype=np.float32)
    for box, kind in zip(truth, kinds, strict=True):
        within = np.flatnonzero((points[:, 0] > box[0]) & (points[:, 0] < box[2])
                                & (points[:, 1] > box[1]) & (points[:, 1] < box[3]))
        if not len(within):  # a tile smaller than the finest grid's cell: its nearest anchor
            within = np.array([int(np.argmin(np.sum((points - (box[:2] + box[2:]) / 2) ** 2, axis=1)))])
        overlaps = iou(box, boxes[within])
        alignment = scores[within, kind] ** ALIGN_SCORE * overlaps ** ALIGN_IOU
        best = np.argsort(-alignment)[:TOP_K]
        scaled = alignment[best] / max(float(alignment[best[0]]), 1e-12) * overlaps.max()
        targets[within[best], kind] = np.maximum(targets[within[best], kind], scaled)
    return targets


def base_scores(look_: Look, head: LocaliserHead) -> np.ndarray:
    """The class scores (anchors × classes) of `head` on a look's features."""
    logits = [f @ w.T + b for f, w, b in zip(look_.features, head.weights, head.biases, strict=True)]
    return 1 / (1 + np.exp(-np.concatenate(logits)))


def samples(look_: Look, base: LocaliserHead, size: int, rng: np.random.Generator) -> Samples:
    """The anchors of one look to fit on: all positives and hard negatives, EASY_KEPT of the easy ones."""
    scores = base_scores(look_, base)
    targets = soft_targets(anchor_points(look_, size), look_.boxes, scores, look_.truth, look_.kinds)
    easy = (scores.max(axis=1) < EASY_BELOW) & (targets.max(axis=1) == 0)
    kept = ~easy | (rng.random(len(easy)) < EASY_KEPT)
    weights = np.where(easy, 1 / EASY_KEPT, 1.0).astype(np.float32)
    bounds = np.cumsum([0, *(len(f) for f in look_.features)])
    parts = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    return Samples(tuple(f[kept[p]] for f, p in zip(look_.features, parts, strict=True)),
                   tuple(targets[p][kept[p]] for p in parts), tuple(weights[p][kept[p]] for p in parts))


def join(parts: Sequence[Samples]) -> Samples:
    scales = range(len(parts[0].features))
    return Samples(*(tuple(np.concatenate([getattr(p, field)[s] for p in parts]) for s in scales)
                     for field in ("features", "targets", "weights")))


class Adam:
    """Adam (β1 0.9, β2 0.999) on some arrays, updated in place: full-batch fitting of a last layer."""

    def __init__(self, params: Sequence[np.ndarray], rate: float) -> None:
        self.params, self.rate, self.step = params, np.float32(rate), 0
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]

    def update(self, grads: Sequence[np.ndarray]) -> None:
        self.step += 1
        beta1, beta2 = np.float32(0.9), np.float32(0.999)
        for param, grad, (m, v) in zip(self.params, grads, self.moments, strict=True):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad**2
            param -= self.rate * (m / (1 - beta1**self.step)) / (np.sqrt(v / (1 - beta2**self.step)) + 1e-8)


def fit_localiser_head(base: LocaliserHead, data: Samples, strength: float) -> LocaliserHead:
    """Weighted binary cross-entropy per scale from the base Convs (Adam, full batch), with an L2 pull of
    `strength` towards them; the loss is averaged over all scales' anchors together."""
    total = sum(float(w.sum()) for w in data.weights)
    if not total:
        return base
    weights, biases = [], []
    for x, y, sample_weight, w0, b0 in zip(data.features, data.targets, data.weights, base.weights, base.biases,
                                           strict=True):
        weight, bias = w0.copy(), b0.copy()
        adam = Adam((weight, bias), RATE)
        for _ in range(FIT_STEPS):
            p = 1 / (1 + np.exp(-(x @ weight.T + bias)))
            error = (p - y) * (sample_weight[:, None] / total)
            adam.update((error.T @ x + strength * (weight - w0), error.sum(axis=0) + strength * (bias - b0)))
        weights.append(weight.astype(np.float32))
        biases.append(bias.astype(np.float32))
    return LocaliserHead(tuple(weights), tuple(biases))


def detections(look_: Look, head: LocaliserHead, conf: float, class_names: Sequence[str], nms_iou: float) -> Boxes:
    """What the localiser with `head` finds in a look at score ≥ conf, after NMS at `nms_iou`, as
    `Recogniser.localise` decodes it."""
    boxes, found, classes = best_class(look_.boxes, base_scores(look_, head), conf)
    keep = nms(boxes, found, nms_iou)
    return Boxes(boxes[keep], [class_names[c] for c in classes[keep]], found[keep])
