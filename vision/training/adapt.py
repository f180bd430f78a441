"""Adapt the recogniser to a user's own tile set (docs/API.md "Adapting to a user's tile set"), on CPU, without
torch. The classifier's last layer (a Gemm over the pooled features) is refitted on the user's labelled photos,
pulled towards the base model's weights, with one more class, `NOT_A_TILE`, for what the localiser finds that
the user did not label (book spines, tiles cut by the frame); the localiser's threshold is chosen anew, since
that class can now turn down its weak finds. The localiser's class scores are refitted too
(`vision.training.localiser_head`), and kept where cross-validation says the photos are read better with them. Part of
the photos is held out: the adapted models are kept only if they read those photos better than the base models
do, both read by the `Recogniser` as serving reads an upload; otherwise the output is a copy of the base.

Every photo is run through the localiser (a few looks: mirrored, scaled, moved) and the classifier's trunk once;
choosing the pulls, the threshold and the keep-or-not decision then only refit last layers (logistic and softmax
regression in numpy) on cached features, and read each photo's boxes again with the localisers fitted."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.yolo import read_names, read_split, split_names
from fanshot.scoring.tiles import BACK
from fanshot.vision.config import VisionFile
from fanshot.vision.evaluation.evaluate import read_photo
from fanshot.vision.evaluation.metrics import Boxes, class_scores, multiset_scores
from fanshot.vision.geometry import cut_crop
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import NOT_A_TILE, Recogniser, session, to_tensor
from fanshot.vision.training import finetune
from fanshot.vision.training.finetune import LabelledPhoto, Progress
from fanshot.vision.training.localiser_head import (
    Adam,
    LocaliserHead,
    Look,
    Samples,
    base_localiser_head,
    detections,
    feature_session,
    fit_localiser_head,
    join,
    look,
    map_boxes,
    place,
    samples,
    write_localiser,
)
from fanshot.vision.training.matching import match_labels
from fanshot.vision.training.train import jitter_box

LOWEST_CONF = 0.1  # candidate boxes are kept down to this localiser score; the threshold is chosen above it
CONF_GRID = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
STRENGTH_GRID = (0.001, 0.01, 0.1)  # L2 pull of the refitted layer towards the base weights
HELD_OUT_SHARE = 0.3  # of the photos, for the keep-or-not decision (at least one photo)
MIN_PHOTOS = 2
# The adapted models must agree with the user's own labels on at least this F1 on held-out photos: labels that
# a model fitted on the other photos cannot reproduce are not consistent enough to learn from.
MIN_HELD_OUT_F1 = 0.5
LABEL_JITTERS = 32  # training crops per labelled box, jittered like a localiser's error and augmented
FOUND_JITTERS = 8  # more such crops per localiser box
AUGMENT_DEGREES, AUGMENT_SCALE, AUGMENT_SHIFT = 12.0, 0.12, 0.06
AUGMENT_CONTRAST, AUGMENT_BRIGHTNESS = 0.25, 20.0
FIT_STEPS = 100
FOLDS = 3  # for choosing the pull and the threshold on the photos that are not held out
LOCALISER_LOOKS = 4  # looks at each photo for the localiser besides the plain one: mirrored, scaled, moved
LOOK_FILL = (0.6, 1.0)  # the photo's long side in those looks, as a share of the localiser's input
LOCALISER_STRENGTH_GRID = (0.001, 0.01, 0.1)  # L2 pull of the localiser's class Convs towards the base
# Photos not held out that the localiser needs before it is adapted: two a fold, so that no fold's figure is
# one photo's (its 390 weights are judged by cross-validation).
LOCALISER_MIN_PHOTOS = 2 * FOLDS
SEED = 0
DEEP_FOLDS = 2  # the deep adaptation's k-fold: each fit costs what the final one does (steps scale with photos)



@dataclass(frozen=True)
class Head:
    """The classifier's last layer: logits = features @ weight.T + bias, one row per class."""

    weight: np.ndarray
    bias: np.ndarray
    classes: tuple[str, ...]

    def codes(self, features: np.ndarray) -> list[str]:
        return [self.classes[i] for i in np.argmax(features @ self.weight.T + self.bias, axis=1)]


@dataclass(frozen=True)
class Photo:
    """One labelled photo, as the adaptation sees it: the localiser's candidate boxes (score ≥ LOWEST_CONF,
    after NMS) with their kind and the classifier's features of their crops, and training crops with targets."""

    name: str
    truth: tuple[str, ...]
    scores: np.ndarray
    backs: np.ndarray
    features: np.ndarray
    train_features: np.ndarray
    train_targets: np.ndarray  # head class indices


@dataclass(frozen=True)
class Choice:
    strength: float
    conf: float
    f1: float = 0.0  # the cross-validated tile F1 it was chosen by


def _head_gemm(model: onnx.ModelProto) -> onnx.NodeProto:
    """The Gemm whose output feeds the Softmax that is the graph's output: the classifier's last layer."""
    output = model.graph.output[0].name
    softmax = next((n for n in model.graph.node if n.op_type == "Softmax" and output in n.output), None)
    gemm = next((n for n in model.graph.node if n.op_type == "Gemm" and softmax and n.output[0] in softmax.input),
                None)
    if gemm is None or any(a.name == "transB" and a.i != 1 for a in gemm.attribute) or \
            not any(a.name == "transB" for a in gemm.attribute):
        raise ValueError("the classifier does not end in Gemm(transB=1) → Softmax; it cannot be adapted")
    return gemm


def base_head(model: onnx.ModelProto, codes: Sequence[str]) -> Head:
    """The base classifier's last layer, with a `NOT_A_TILE` row added (never chosen: bias far below) if absent."""
    gemm = _head_gemm(model)
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    weight, bias = weights[gemm.input[1]], weights[gemm.input[2]]
    if NOT_A_TILE in codes:
        return Head(weight, bias, tuple(codes))
    return Head(np.vstack([weight, np.zeros((1, weight.shape[1]), weight.dtype)]), np.append(bias, np.float32(-20)),
                (*codes, NOT_A_TILE))


def embedding_session(model: onnx.ModelProto) -> ort.InferenceSession:
    """The classifier with the last layer's input (the pooled features) as a second output."""
    features = _head_gemm(model).input[0]
    with_features = onnx.ModelProto()
    with_features.CopyFrom(model)
    with_features.graph.output.append(onnx.helper.make_tensor_value_info(features, onnx.TensorProto.FLOAT, None))
    return session(with_features.SerializeToString())


def write_classifier(model: onnx.ModelProto, head: Head, out: Path) -> None:
    """The base classifier with `head` as its last layer."""
    adapted = onnx.ModelProto()
    adapted.CopyFrom(model)
    gemm = _head_gemm(adapted)
    for initializer in adapted.graph.initializer:
        if initializer.name in gemm.input[1:3]:
            value = head.weight if initializer.name == gemm.input[1] else head.bias
            initializer.CopyFrom(numpy_helper.from_array(value.astype(np.float32), initializer.name))
    for value in (*adapted.graph.output, *adapted.graph.value_info):  # the class count, where a shape names it
        dims = value.type.tensor_type.shape.dim
        if value.name in (gemm.output[0], adapted.graph.output[0].name) and dims:
            dims[-1].Clear()
            dims[-1].dim_value = len(head.classes)
    onnx.checker.check_model(adapted)
    onnx.save(adapted, str(out))


def augment(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop as another photo of the same tile might show it: turned a little, scaled, shifted, lit otherwise."""
    size = crop.shape[0]
    turn = cv2.getRotationMatrix2D((size / 2, size / 2), rng.uniform(-1, 1) * AUGMENT_DEGREES,
                                   1 + rng.uniform(-1, 1) * AUGMENT_SCALE)
    turn[:, 2] += rng.uniform(-1, 1, 2) * AUGMENT_SHIFT * size
    moved = cv2.warpAffine(crop, turn, (size, size), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    lit = moved * (1 + rng.uniform(-1, 1) * AUGMENT_CONTRAST) + rng.uniform(-1, 1) * AUGMENT_BRIGHTNESS
    return np.clip(lit, 0, 255).astype(np.uint8)


def _features(image: np.ndarray, boxes: Sequence[np.ndarray], embed: ort.InferenceSession, size: int,
              width: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """The pooled features (N×width) of the crops at `boxes` (each augmented, given `rng`)."""
    if not len(boxes):
        return np.zeros((0, width), dtype=np.float32)
    crops = [cut_crop(image, box, size) for box in boxes]
    crops = [augment(crop, rng) for crop in crops] if rng is not None else crops
    return embed.run(None, {embed.get_inputs()[0].name: to_tensor(np.stack(crops))})[1]


def photo_features(image_path: Path, labels: Sequence[tuple[str, np.ndarray]], models: Recogniser,
                   embed: ort.InferenceSession, base: Head, rng: np.random.Generator, *,
                   training: bool = True, label_jitters: int | None = None,
                   found_jitters: int | None = None) -> Photo:
    """Run the localiser (down to LOWEST_CONF) and the classifier's trunk on one labelled photo. `labels`:
    (code, normalised [x1, y1, x2, y2]). Without `training`, only the localiser's boxes: a photo to read.
    `label_jitters` / `found_jitters`: training crops per labelled tile / per localiser box (default
    LABEL_JITTERS / FOUND_JITTERS, read at call time)."""
    image = load_photo(image_path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    height, width = image.shape[:2]
    truth = np.array([box for _, box in labels]).reshape(-1, 4) * [width, height, width, height]
    codes = [code for code, _ in labels]
    candidates = models.localise(image, LOWEST_CONF)
    found, scores, kinds = candidates.boxes, candidates.scores, candidates.kinds
    backs = np.array([kind == BACK for kind in kinds], dtype=bool)
    size, width = models.classifier_size, base.weight.shape[1]
    features = _features(image, list(found), embed, size, width)
    if not training:
        return Photo(image_path.name, tuple(codes), scores, backs, features, np.zeros((0, width), dtype=np.float32),
                     np.zeros(0, dtype=np.int64))
    label_jitters = LABEL_JITTERS if label_jitters is None else label_jitters
    found_jitters = FOUND_JITTERS if found_jitters is None else found_jitters
    # Training crops: the localiser's own boxes (as found, and jittered) with the code of the label they claim or
    # "not a tile", and jittered crops of every labelled face. Boxes on backs are the localiser's business.
    claims = match_labels(found, scores, truth)
    kept = [i for i, claim in enumerate(claims)
            if claim != -2 and not backs[i] and (claim == -1 or codes[claim] != BACK)]
    found_targets = [NOT_A_TILE if claims[i] == -1 else codes[claims[i]] for i in kept]
    boxes = [jitter_box(found[i], rng) for i in kept for _ in range(found_jitters)]
    targets = [target for target in found_targets for _ in range(found_jitters)]
    for code, box in zip(codes, truth, strict=True):
        if code != BACK:
            boxes += [jitter_box(box, rng) for _ in range(label_jitters)]
            targets += [code] * label_jitters
    train = np.vstack([features[kept], _features(image, boxes, embed, size, width, rng)])
    index = {code: i for i, code in enumerate(base.classes)}
    return Photo(image_path.name, tuple(codes), scores, backs, features, train,
                 np.array([index[t] for t in found_targets + targets], dtype=np.int64))


def fit_head(base: Head, features: np.ndarray, targets: np.ndarray, strength: float) -> Head:
    """Softmax regression from the base layer (Adam, full batch), with an L2 pull of `strength` towards it."""
    weight, bias = base.weight.astype(np.float32), base.bias.astype(np.float32)
    if not len(targets):
        return base
    onehot = np.eye(len(base.classes), dtype=np.float32)[targets]
    adam = Adam((weight, bias), 0.01)
    for _ in range(FIT_STEPS):
        logits = features @ weight.T + bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - onehot) / len(targets)
        adam.update((error.T @ features + strength * (weight - base.weight), error.sum(axis=0)))
    return Head(weight, bias, base.classes)


def read_photo_codes(photo: Photo, head: Head, conf: float) -> list[str]:
    """The codes the recogniser reports for this photo with this last layer and threshold (backs as `back`)."""
    keep = photo.scores >= conf
    faces = keep & ~photo.backs
    codes = [BACK] * int((keep & photo.backs).sum())
    return codes + [code for code in head.codes(photo.features[faces]) if code != NOT_A_TILE]


def figures(truths: Sequence[Sequence[str]], reads: Sequence[list[str]]) -> dict:
    """Tile precision, recall, F1 (faces) and exact photos (backs included) of photos whose labelled codes are
    `truths`, as `fanshot eval` counts them, and per class (`classes`, backs included), as `fanshot eval --report`
    does (the app's `GET /v1/models/{id}/figures`)."""
    pairs = [([c for c in read if c != BACK], [c for c in truth if c != BACK])
             for truth, read in zip(truths, reads, strict=True)]
    exact = [sorted(read) == sorted(truth) for truth, read in zip(truths, reads, strict=True)]
    return {"photos": len(truths), **multiset_scores(pairs), "exact_photos": int(sum(exact)),
            "classes": class_scores([(read, list(truth)) for truth, read in zip(truths, reads, strict=True)])}


def _rank(result: dict[str, float]) -> tuple[float, int]:
    return result["f1"], result["exact_photos"]


def stack(photos: Sequence[Photo], not_a_tile: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The training rows of the photos (features, targets); less the rows of class index `not_a_tile`, if given."""
    features = np.vstack([p.train_features for p in photos])
    targets = np.concatenate([p.train_targets for p in photos])
    keep = targets != not_a_tile if not_a_tile is not None else np.ones(len(targets), dtype=bool)
    return features[keep], targets[keep]


def fold_numbers(count: int) -> np.ndarray:
    """Each photo's fold, for cross-validation among `count` photos."""
    return np.arange(count) % min(count, FOLDS)


def choose(photos: Sequence[Photo], base: Head, base_conf: float, reads: Sequence[Photo] | None = None) -> Choice:
    """The pull and threshold with the best held-out reading over folds of `photos` (each photo read by a layer
    fitted on the others; `reads`: the same photos as another localiser finds their tiles, read instead); with
    one photo, the middle pull and the base threshold."""
    reads = photos if reads is None else reads
    if len(photos) < 2:
        return Choice(STRENGTH_GRID[len(STRENGTH_GRID) // 2], base_conf)
    folds = fold_numbers(len(photos))
    best: tuple[tuple[float, int, float], Choice] | None = None
    for strength in STRENGTH_GRID:
        codes: dict[float, list[list[str]]] = {conf: [[] for _ in photos] for conf in CONF_GRID}
        for fold in np.unique(folds):
            head = fit_head(base, *stack([p for p, f in zip(photos, folds, strict=True) if f != fold]), strength)
            for i in np.flatnonzero(folds == fold):
                for conf in CONF_GRID:
                    codes[conf][i] = read_photo_codes(reads[i], head, conf)
        for conf, read in codes.items():
            # ties: the stronger pull, the closer to the base
            key = (*_rank(figures([p.truth for p in photos], read)), strength)
            if best is None or key > best[0]:
                best = (key, Choice(strength, conf, key[0]))
    assert best is not None
    return best[1]


def better(adapted: dict[str, float], base: dict[str, float]) -> bool:
    """Whether the adapted models read the held-out photos at least as well as the base (F1, then exact photos:
    on a tie, the models that saw more of the set), and agree with the user's labels enough (MIN_HELD_OUT_F1) for
    those labels to be worth learning."""
    return _rank(adapted) >= _rank(base) and adapted["f1"] >= MIN_HELD_OUT_F1


def split_held_out(count: int, seed: int = SEED) -> tuple[list[int], list[int]]:
    """(fit, held out) photo indices: a seeded shuffle, HELD_OUT_SHARE of the photos held out (at least one)."""
    order = np.random.default_rng(seed).permutation(count)
    held = max(1, round(count * HELD_OUT_SHARE))
    return sorted(order[held:].tolist()), sorted(order[:held].tolist())


@dataclass(frozen=True)
class LocaliserPhoto:
    """One labelled photo as the localiser's adaptation sees it: the plain look (letterboxed as `localise` does
    it), on which the localiser is judged, and the anchors of all its looks to fit on."""

    plain: Look
    fitting: Samples


def localiser_photo(image_path: Path, labels: Sequence[tuple[str, np.ndarray]], features: ort.InferenceSession,
                    models: Recogniser, base: LocaliserHead, rng: np.random.Generator) -> LocaliserPhoto:
    """The localiser's features of one labelled photo in its plain look and LOCALISER_LOOKS others, each mirrored
    or not, scaled within LOOK_FILL and moved anywhere in the localiser's input."""
    image = load_photo(image_path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    classes = models.localiser_classes
    face = next(i for i, name in enumerate(classes) if name != BACK)
    kinds = np.array([classes.index(BACK) if code == BACK else face for code, _ in labels], dtype=np.int64)
    boxes = np.array([box for _, box in labels]).reshape(-1, 4)
    settings = [(1.0, (0.5, 0.5), False)] + [(rng.uniform(*LOOK_FILL), (rng.random(), rng.random()),
                                               bool(rng.random() < 0.5)) for _ in range(LOCALISER_LOOKS)]
    looks = []
    for fill, offset, flip in settings:
        canvas, affine = place(image, models.localiser_size, fill, offset, flip)
        looks.append(look(canvas, map_boxes(boxes, affine), kinds, features))
    return LocaliserPhoto(looks[0], join([samples(lk, base, models.localiser_size, rng) for lk in looks]))


def boxing_f1(looks: Sequence[Look], found: Sequence[Boxes]) -> float:
    """F1 of the localiser's boxes as the adaptation pairs them with labels (`match_labels`): a box that claims a
    labelled tile is right, any other (a duplicate, a box across tiles, no tile) wrong. Inside, not IoU, for the
    reason `match_labels` gives."""
    right = sum(int((match_labels(f.boxes, f.scores, lk.truth) >= 0).sum()) for lk, f in zip(looks, found, strict=True))
    boxes, tiles = sum(len(f.scores) for f in found), sum(len(lk.truth) for lk in looks)
    return 2 * right / (boxes + tiles) if boxes + tiles else 0.0


def choose_localiser(photos: Sequence[LocaliserPhoto], base: LocaliserHead, classes: Sequence[str],
                     nms_iou: float) -> float | None:
    """The localiser pull whose class Convs, fitted on the other folds, box the tiles of each fold best
    (`boxing_f1` at the best threshold of CONF_GRID); None when the base Convs box them at least as well, or
    with one photo."""
    if len(photos) < 2:
        return None
    looks = [photo.plain for photo in photos]
    folds = fold_numbers(len(photos))

    def best_f1(heads: Sequence[LocaliserHead]) -> float:
        return max(boxing_f1(looks, [detections(lk, head, conf, classes, nms_iou)
                                       for lk, head in zip(looks, heads, strict=True)])
                   for conf in CONF_GRID)

    best_score, best_strength = best_f1([base] * len(photos)), None
    for strength in sorted(LOCALISER_STRENGTH_GRID, reverse=True):  # ties: the stronger pull
        fitted = {fold: fit_localiser_head(base, join([p.fitting for p, f in zip(photos, folds, strict=True)
                                                       if f != fold]), strength) for fold in np.unique(folds)}
        score = best_f1([fitted[fold] for fold in folds])
        if score > best_score:
            best_score, best_strength = score, strength
    return best_strength


def split_photos(split_dir: Path, names: Sequence[str]) -> list[tuple[Path, list[tuple[str, np.ndarray]]]]:
    """Every photo of one YOLO split folder, those with no label too: (image, [(code, normalised xyxy)])."""
    return [(example.image, [(names[b.cls], np.array([b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2,
                                                      b.cy + b.h / 2])) for b in example.boxes])
            for example in read_split(split_dir, len(names))]


def labelled_photos(root: Path) -> list[tuple[Path, list[tuple[str, np.ndarray]]]]:
    """Every labelled photo of a YOLO folder (flat or with splits): (image, [(code, normalised xyxy)])."""
    names = read_names(root)
    return [photo for split in split_names(root) for photo in split_photos(root / split, names) if photo[1]]


def adapt(yolo_dir: Path, out: Path, base_dir: Path, *, progress: Progress | None = None,
          command: str = "", adapt_localiser: bool = False, deep: bool | None = None, folds: bool = False,
          fine_tuning: finetune.FineTuning | None = None) -> dict:
    """Write to `out` a complete models folder adapted to the labelled photos of `yolo_dir` (or a copy of the
    base, if the adaptation reads the held-out photos no better); returns the `adaptation` record of its
    vision.json: its kind, the figures on the held-out photos, base and adapted, the choice, and the time taken.
    `deep` (by default where the `train` extra is installed): fine-tune the whole localiser too (`deep_adapt`);
    otherwise refit last layers only (`head_adapt`), where `adapt_localiser` tries refitting the localiser's class
    scores too (off by default: it costs ~20× the time and has not yet measured better on unseen art), and
    `folds` judges it by k-fold on every photo as the deep kind is (`head_adapt_by_folds`; the server's learning as
    you play), not on a held-out share. `fine_tuning`: the deep kind's settings (default finetune.FINE_TUNING,
    read at call time)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    report = progress or (lambda fraction, message: None)
    if out.resolve() == base_dir.resolve():
        raise ValueError(f"--out {out} is the base models folder; write the adapted models elsewhere")
    photos_in = labelled_photos(yolo_dir)
    if len(photos_in) < MIN_PHOTOS:
        raise DatasetError(f"{yolo_dir}: {len(photos_in)} labelled photo(s); adapting needs at least {MIN_PHOTOS}")
    deep = finetune.available() if deep is None else deep
    if deep and not finetune.available():
        raise DatasetError("adapting the whole localiser needs torch and ultralytics: pip install 'fanshot[train]'")
    meta = VisionFile.read(base_dir)
    if deep:
        record = deep_adapt(photos_in, out, base_dir, meta, report, fine_tuning or finetune.FINE_TUNING)
    elif folds and not adapt_localiser:
        record = head_adapt_by_folds(photos_in, out, base_dir, meta, report)
    else:
        record = head_adapt(photos_in, out, base_dir, meta, report, adapt_localiser)
    record = {
        "kind": "deep" if deep else "head", **record,
        "base": str(base_dir), "data": str(yolo_dir),
        "photos": len(photos_in), "tiles": sum(len(labels) for _, labels in photos_in),
        "seconds": round(time.perf_counter() - started, 1), "cpu_seconds": round(time.process_time() - cpu_started, 1),
        "cores": os.cpu_count(), "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    written = VisionFile.read(out)
    written.model_copy(update={"training": (*written.training, *([command] if command else [])),
                               "adaptation": record}).write(out)
    report(1.0, f"kept the {record['kept']} models")
    return record


def head_adapt(photos_in: Sequence[LabelledPhoto], out: Path, base_dir: Path, meta: VisionFile, report: Progress,
               adapt_localiser: bool = False) -> dict:
    """Refit the classifier's last layer (and, with `adapt_localiser`, the localiser's class scores) on
    HELD_OUT_SHARE of the photos, keep it if it reads the rest better, then refit on all; writes `out` and
    returns the record's figures and choices."""
    models = Recogniser.load(base_dir)
    classifier = onnx.load(str(base_dir / meta.classifier.file))
    localiser = onnx.load(str(base_dir / meta.localiser.file))
    base, base_localiser = base_head(classifier, models.codes), base_localiser_head(localiser)
    embed, features = embedding_session(classifier), feature_session(localiser)
    rng = np.random.default_rng(SEED)
    photos = []
    for number, (image, labels) in enumerate(photos_in, 1):
        photos.append(photo_features(image, labels, models, embed, base, rng))
        report(0.6 * number / len(photos_in), f"read {number} of {len(photos_in)} photos")
    fit, held = split_held_out(len(photos))
    fit_photos, held_photos = [photos[i] for i in fit], [photos[i] for i in held]
    choice = choose(fit_photos, base, models.config.conf)
    report(0.7, "chose the pull and the threshold")
    located, localiser_strength = [], None
    if adapt_localiser and len(fit) >= LOCALISER_MIN_PHOTOS:
        located = [localiser_photo(*photo, features, models, base_localiser, rng) for photo in photos_in]
        localiser_strength = choose_localiser([located[i] for i in fit], base_localiser, models.localiser_classes,
                                              models.config.nms_iou)
    report(0.8, "chose the localiser's pull")

    def localiser_fitted_on(indices: Sequence[int]) -> onnx.ModelProto:
        head = fit_localiser_head(base_localiser, join([located[i].fitting for i in indices]), localiser_strength)
        return write_localiser(localiser, head)

    def read_with(localiser_model: onnx.ModelProto, indices: Sequence[int]) -> list[Photo]:
        finder = replace(models, localiser=session(localiser_model.SerializeToString()))
        return [photo_features(*photos_in[i], finder, embed, base, rng, training=False) for i in indices]

    held_paths = [photos_in[i][0] for i in held]

    # The adapted localiser boxes as the base does (only its scores are new), so the classifier's training crops
    # stay those of the base's boxes; with it, each photo not held out is read as its fold's localiser (fitted
    # on the other folds) finds its tiles, for a cross-validated figure to set against the classifier's alone.
    # Candidates (the localiser fitted on the photos not held out, or None for the base's; the choice), the better
    # cross-validated first.
    candidates, cross_validated = [(None, choice)], {"classifier": choice.f1}
    if localiser_strength is not None:
        folds, reads = fold_numbers(len(fit)), {}
        for fold in np.unique(folds):
            mine, others = ([fit[j] for j in np.flatnonzero(which)] for which in (folds == fold, folds != fold))
            reads.update(zip(mine, read_with(localiser_fitted_on(others), mine), strict=True))
        with_localiser = choose(fit_photos, base, models.config.conf, [reads[i] for i in fit])
        cross_validated["with_localiser"] = with_localiser.f1
        if with_localiser.f1 > choice.f1:
            candidates.insert(0, (localiser_fitted_on(fit), with_localiser))
    report(0.9, "chose whether to adapt the localiser")
    before = served_figures(base_dir, held_photos, held_paths)

    def held_out_figures(localiser_model: onnx.ModelProto | None, chosen: Choice) -> dict:
        trial = fit_head(base, *stack(fit_photos), chosen.strength)
        with tempfile.TemporaryDirectory() as folder:
            write_models(Path(folder), base_dir, meta, classifier, trial, localiser_model, chosen.conf)
            return served_figures(Path(folder), held_photos, held_paths)

    trials = [(localiser_model, chosen, held_out_figures(localiser_model, chosen))
              for localiser_model, chosen in candidates]
    # The first that reads the held-out photos better; if none does, the figures of the classifier's alone.
    trial_localiser, choice, after = next((t for t in trials if better(t[2], before)), trials[-1])
    kept = better(after, before)
    final = fit_head(base, *stack(photos), choice.strength) if kept else None
    final_localiser = localiser_fitted_on(range(len(photos))) if kept and trial_localiser is not None else None
    write_models(out, base_dir, meta, classifier, final, final_localiser, choice.conf)
    return {
        "kept": "adapted" if kept else "base",
        "held_out": {"photos": [photos[i].name for i in held], "base": before, "adapted": after},
        "strength": choice.strength, "conf": choice.conf, "cross_validated_f1": cross_validated,
        "localiser_strength": localiser_strength if final_localiser is not None else None,
    }


def deep_folds(count: int, seed: int = SEED) -> np.ndarray:
    """Each photo's fold for judging the deep adaptation: a seeded shuffle dealt into DEEP_FOLDS."""
    folds = np.empty(count, dtype=np.int64)
    folds[np.random.default_rng(seed).permutation(count)] = np.arange(count) % min(count, DEEP_FOLDS)
    return folds


def fold_reads(paths: Sequence[Path], folds: np.ndarray, fit_on: Callable[[np.ndarray, Path, int], object],
               scratch: Path) -> list[list[str]]:
    """Every photo's codes as serving reads them (`served_reads`) with the models `fit_on(indices, folder, fold)`
    writes to `folder` from the photos of the other folds: each photo is judged by models that never saw it."""
    reads: list[list[str]] = [[] for _ in paths]
    for fold in np.unique(folds):
        held = np.flatnonzero(folds == fold)
        folder = scratch / f"fold{fold}"
        fit_on(np.flatnonzero(folds != fold), folder, int(fold))
        for i, read in zip(held, served_reads(folder, [paths[i] for i in held]), strict=True):
            reads[i] = read
    return reads


def head_adapt_by_folds(photos_in: Sequence[LabelledPhoto], out: Path, base_dir: Path, meta: VisionFile,
                        report: Progress) -> dict:
    """Refit the classifier's last layer as `head_adapt` does, judged as `deep_adapt` is: every photo read, as
    serving reads it, by a layer fitted on the other folds (`fold_reads`), against the base's reading of every
    photo; kept if better, then fitted on all. Learning as you play judges each version so (issue 52). Writes `out`
    and returns the record's figures and choices."""
    models = Recogniser.load(base_dir)
    classifier = onnx.load(str(base_dir / meta.classifier.file))
    base, embed, rng = base_head(classifier, models.codes), embedding_session(classifier), np.random.default_rng(SEED)
    photos = []
    for number, (image, labels) in enumerate(photos_in, 1):
        photos.append(photo_features(image, labels, models, embed, base, rng))
        report(0.6 * number / len(photos_in), f"read {number} of {len(photos_in)} photos")

    def fit_on(indices: Sequence[int], folder: Path, fold: int | None = None) -> Choice:
        chosen = choose([photos[i] for i in indices], base, models.config.conf)
        write_models(folder, base_dir, meta, classifier, fit_head(base, *stack([photos[i] for i in indices]),
                                                                  chosen.strength), None, chosen.conf)
        return chosen

    paths, truths = [path for path, _ in photos_in], [photo.truth for photo in photos]
    before = figures(truths, served_reads(base_dir, paths))
    with tempfile.TemporaryDirectory(prefix="fanshot-folds-") as scratch:
        after = figures(truths, fold_reads(paths, deep_folds(len(photos)), fit_on, Path(scratch)))
    report(0.9, f"judged every photo by {DEEP_FOLDS}-fold")
    kept = better(after, before)
    choice = fit_on(range(len(photos)), out) if kept else Choice(0.0, models.config.conf)
    if not kept:
        write_models(out, base_dir, meta, classifier, None, None, choice.conf)
    return {
        "kept": "adapted" if kept else "base",
        "held_out": {"photos": [photo.name for photo in photos], "folds": DEEP_FOLDS, "base": before,
                     "adapted": after},
        "strength": choice.strength, "conf": choice.conf, "cross_validated_f1": {"classifier": choice.f1},
        "localiser_strength": None,
    }


def deep_adapt(photos_in: Sequence[LabelledPhoto], out: Path, base_dir: Path, meta: VisionFile,
               report: Progress, settings: finetune.FineTuning) -> dict:
    """Fine-tune the localiser and refit the classifier's last layer (`fit_deep`) on the photos of each fold but
    one (by `settings.for_judging()`), read that fold's photos with the result as serving reads them, and keep the
    adaptation if all the photos, so read, read better than with the base; then fit on all the photos (by
    `settings`). Writes `out` and returns the record's figures and choices."""
    paths = [path for path, _ in photos_in]
    truths = [[code for code, _ in labels] for _, labels in photos_in]
    folds = deep_folds(len(photos_in))
    steps = DEEP_FOLDS + 1  # a fit per fold, then the final one: each a share of the progress
    spent = {"localiser": 0.0, "classifier": 0.0, "judging": 0.0}  # wall seconds, summed over the fits
    started = time.perf_counter()
    base_reads = served_reads(base_dir, paths)
    spent["judging"] += time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="fanshot-deep-") as scratch:
        def fit_on(indices: np.ndarray, folder: Path, fold: int) -> None:
            fit_deep([photos_in[i] for i in indices], base_dir, meta, folder, Path(scratch) / f"work{fold}",
                     within(report, fold / steps, (fold + 1) / steps, f"fold {fold + 1} of {DEEP_FOLDS}"), spent,
                     settings.for_judging())

        fitting, started = spent["localiser"] + spent["classifier"], time.perf_counter()
        adapted_reads = fold_reads(paths, folds, fit_on, Path(scratch))
        # the folds' reading, less their fitting (counted by fit_deep)
        spent["judging"] += time.perf_counter() - started - (spent["localiser"] + spent["classifier"] - fitting)
        before, after = figures(truths, base_reads), figures(truths, adapted_reads)
        kept = better(after, before)
        classifier = onnx.load(str(base_dir / meta.classifier.file))
        if kept:
            choice = fit_deep(photos_in, base_dir, meta, out, Path(scratch) / "work",
                              within(report, DEEP_FOLDS / steps, 1.0, "all photos"), spent, settings)
        else:
            choice = Choice(0.0, Recogniser.load(base_dir).config.conf)
            write_models(out, base_dir, meta, classifier, None, None, choice.conf)
    return {
        "kept": "adapted" if kept else "base",
        "held_out": {"photos": [path.name for path in paths], "folds": DEEP_FOLDS, "base": before, "adapted": after},
        "strength": choice.strength, "conf": choice.conf, "cross_validated_f1": {"classifier": choice.f1},
        "localiser_strength": None, "fine_tuning": {**asdict(settings), "epochs": settings.epochs(len(photos_in))},
        "seconds_by_step": {step: round(seconds, 1) for step, seconds in spent.items()},
    }


def fit_deep(photos_in: Sequence[LabelledPhoto], base_dir: Path, meta: VisionFile, out: Path, scratch: Path,
             report: Progress, spent: dict[str, float], settings: finetune.FineTuning) -> Choice:
    """Write to `out` the base models with the localiser fine-tuned on the photos by `settings` (their labels put
    in its box convention first: `finetune.in_localiser_convention`) and the classifier's last layer refitted on
    the crops it cuts, the pull and threshold chosen as `choose` does; returns that choice. Adds the wall seconds
    each model took to `spent`."""
    started = time.perf_counter()
    base = Recogniser.load(base_dir)
    photos = finetune.in_localiser_convention(photos_in, base)
    localiser_file = finetune.finetune_localiser(
        photos, base_dir / meta.localiser.file, base.localiser_classes, base.localiser_size, scratch,
        scratch / "localiser.onnx", settings=settings, progress=within(report, 0.0, 0.8, "fine-tuning the localiser"))
    localiser = onnx.load(str(localiser_file))
    spent["localiser"] += time.perf_counter() - started
    started = time.perf_counter()
    classifier = onnx.load(str(base_dir / meta.classifier.file))
    write_models(scratch / "localised", base_dir, meta, classifier, None, localiser, base.config.conf)
    models = Recogniser.load(scratch / "localised")
    head, embed, rng = base_head(classifier, models.codes), embedding_session(classifier), np.random.default_rng(SEED)
    features = []
    for number, (image, labels) in enumerate(photos, 1):
        features.append(photo_features(image, labels, models, embed, head, rng))
        report(0.8 + 0.15 * number / len(photos), f"read {number} of {len(photos)} photos")
    choice = choose(features, head, models.config.conf)
    write_models(out, base_dir, meta, classifier, fit_head(head, *stack(features), choice.strength), localiser,
                 choice.conf)
    spent["classifier"] += time.perf_counter() - started
    return choice


def within(report: Progress, start: float, end: float, step: str) -> Progress:
    """A progress report of one step, mapped into the share [start, end] of the whole, its messages prefixed."""
    return lambda fraction, message: report(start + (end - start) * fraction, f"{step}: {message}")




def write_models(out: Path, base_dir: Path, meta: VisionFile, classifier: onnx.ModelProto, head: Head | None,
                 localiser: onnx.ModelProto | None, conf: float) -> VisionFile:
    """Write a complete models folder: the base's models where `head` (the classifier's last layer) or `localiser`
    is None, else the adapted ones with the threshold `conf`; the recogniser's other settings are the base's.
    An adapted localiser is read alone: the second look's localiser never saw the user's tiles, and on leo's 19
    photos the adapted pipeline reads 0.962 with it and 0.976 without (2-fold, models/experiments/
    2026-12-06-adaptation-to-095.md). An adapted classifier is read alone too: its classes are the user's, and the
    small faces' classifier knows none of their faces. Returns what its vision.json holds."""
    out.mkdir(parents=True, exist_ok=True)
    if localiser is not None:
        meta = meta.without_second_look()
    if head is not None:
        meta = meta.without_small_faces()
    written = {meta.localiser.file: localiser is not None, meta.classifier.file: head is not None}
    for name in meta.files():  # the base's models not adapted, a second look's localiser too
        if not written.get(name):
            shutil.copyfile(base_dir / name, out / name)
    if localiser is not None:
        onnx.save(localiser, str(out / meta.localiser.file))
    if head is not None:
        write_classifier(classifier, head, out / meta.classifier.file)
        meta = meta.with_classifier(list(head.classes), conf)
    meta.write(out)
    return meta


def served_reads(models_dir: Path, paths: Sequence[Path]) -> list[list[str]]:
    """The codes the `Recogniser` of `models_dir` reads in each photo, as serving reads an upload."""
    recogniser = Recogniser.load(models_dir)
    return [[tile["code"] for tile in read_photo(path, recogniser)[0]["tiles"]] for path in paths]


def served_figures(models_dir: Path, photos: Sequence[Photo], paths: Sequence[Path]) -> dict:
    """`figures` of the photos as the `Recogniser` of `models_dir` reads them, as serving reads an upload: the
    figure a version is kept by, and the one `GET /v1/models` shows."""
    return figures([photo.truth for photo in photos], served_reads(models_dir, paths))
