"""Photo → recognition result (DESIGN.md, without `id`) on ONNX Runtime: the localiser finds tiles, the crop
classifier names each one, layout groups them and proposes a hand. No torch or ultralytics here."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

from scoring.tiles import BACK
from vision.geometry import cut_crop, decode_yolo, letterbox, nms, unletterbox
from vision.layout import group_tiles, place_hand, propose_hand
from vision.suggest import suggest

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_CONF = 0.3  # localiser score threshold for a vision.json that names none (each model sets its own)
NMS_IOU = 0.5
ALTERNATIVES = 3
THREADS = 2
# The class an adapted classifier (`fanshot adapt`) gives a box that holds no tile of the user's set: dropped.
NOT_A_TILE = "none"


@dataclass(frozen=True)
class Models:
    localiser: ort.InferenceSession
    localiser_size: int
    localiser_classes: list[str]
    conf: float  # localiser score threshold, chosen for this model on the valid split
    classifier: ort.InferenceSession
    classifier_size: int
    codes: list[str]


def session(model: Path | bytes) -> ort.InferenceSession:
    """A CPU session of an ONNX file or serialised model."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(model) if isinstance(model, Path) else model, options,
                                providers=["CPUExecutionProvider"])


@cache
def load_models(models_dir: Path = MODELS_DIR) -> Models:
    """Both ONNX sessions and their metadata from `models_dir/vision.json`, loaded once per process."""
    meta = json.loads((models_dir / "vision.json").read_text(encoding="utf-8"))
    loc, cls = meta["localiser"], meta["classifier"]
    return Models(session(models_dir / loc["file"]), loc["imgsz"], loc["classes"], loc.get("conf", DEFAULT_CONF),
                  session(models_dir / cls["file"]), cls["imgsz"], cls["classes"])


def to_tensor(images: np.ndarray) -> np.ndarray:
    """N×H×W×3 uint8 RGB → N×3×H×W float32 in [0, 1], the ultralytics input."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def localise(image: np.ndarray, models: Models, conf: float) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Tile boxes in image pixels, their scores (≥ conf) and localiser classes (face / back), best first."""
    boxed = letterbox(image, models.localiser_size)
    session = models.localiser
    output = session.run(None, {session.get_inputs()[0].name: to_tensor(boxed.image[None])})[0]
    boxes, scores, classes = decode_yolo(output, conf)
    keep = nms(boxes, scores, NMS_IOU)
    boxes = unletterbox(boxes[keep], boxed, image.shape[1], image.shape[0])
    return boxes, scores[keep], [models.localiser_classes[c] for c in classes[keep]]


def classify(image: np.ndarray, boxes: np.ndarray, models: Models) -> np.ndarray:
    """Class probabilities (N×codes) of the tile crops."""
    if not len(boxes):
        return np.zeros((0, len(models.codes)), dtype=np.float32)
    crops = np.stack([cut_crop(image, box, models.classifier_size) for box in boxes])
    session = models.classifier
    return session.run(None, {session.get_inputs()[0].name: to_tensor(crops)})[0]


def drop_non_tiles(boxes: np.ndarray, scores: np.ndarray, kinds: list[str], probs: np.ndarray,
                   codes: list[str]) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
    """Leave out the faces an adapted classifier names `NOT_A_TILE` (a base classifier has no such class)."""
    if NOT_A_TILE not in codes or not len(boxes):
        return boxes, scores, kinds, probs
    keep = np.array([kind == BACK or codes[int(np.argmax(p))] != NOT_A_TILE for kind, p in zip(kinds, probs,
                                                                                               strict=True)])
    return boxes[keep], scores[keep], [kind for kind, k in zip(kinds, keep, strict=True) if k], probs[keep]


def tile_entry(box: np.ndarray, score: float, kind: str, p: np.ndarray, codes: list[str]) -> dict:
    """One result tile. A face: confidence = P(tile) × P(code | tile), alternatives = the next codes.
    A back has no code to rank."""
    entry = {"box": [round(float(v), 1) for v in box], "code": BACK, "confidence": round(float(score), 4),
             "alternatives": []}
    if kind != BACK:
        named = ranked(p, codes)
        entry.update(named, confidence=round(float(score * named["confidence"]), 4))
    return entry


def ranked(p: np.ndarray, codes: list[str]) -> dict:
    """The classifier's answer for one crop: `{code, confidence, alternatives}`, the most likely code first (never
    an adapted classifier's `NOT_A_TILE`: the box holds a tile, as the localiser or the user says)."""
    best, *others = [i for i in np.argsort(-p) if codes[i] != NOT_A_TILE][:ALTERNATIVES + 1]
    return {"code": codes[best], "confidence": float(p[best]),
            "alternatives": [{"code": codes[i], "p": round(float(p[i]), 4)} for i in others]}


def name_tile(image: np.ndarray, box: list[float], models: Models | None = None) -> dict:
    """The code of the tile in a box the user drew: `{code, confidence, alternatives}` from the crop
    classifier alone (no localiser score: the user says there is a tile)."""
    models = models or load_models()
    named = ranked(classify(image, np.array([box], dtype=np.float32), models)[0], models.codes)
    return {**named, "confidence": round(named["confidence"], 4)}


def recognize(image: np.ndarray, models: Models | None = None, conf: float | None = None) -> dict:
    """Recognise the tiles in an H×W×3 uint8 RGB photo (already EXIF-oriented); `conf` is the localiser's
    score threshold (default: the models')."""
    models = models or load_models()
    conf = models.conf if conf is None else conf
    start = time.perf_counter()
    boxes, scores, kinds = localise(image, models, conf)
    located = time.perf_counter()
    probs = classify(image, boxes, models)
    classified = time.perf_counter()
    boxes, scores, kinds, probs = drop_non_tiles(boxes, scores, kinds, probs, models.codes)
    tiles = [tile_entry(*tile, models.codes) for tile in zip(boxes, scores, kinds, probs, strict=True)]
    codes = [tile["code"] for tile in tiles]
    groups = group_tiles(boxes, codes)
    return {
        "image": {"width": int(image.shape[1]), "height": int(image.shape[0])},
        "tiles": tiles,
        "groups": groups,
        "hand": propose_hand(groups, codes),
        "hand_tiles": place_hand(groups, codes),
        "suggestions": suggest(tiles, groups),
        "timing_ms": {"localise": round((located - start) * 1000, 1),
                      "classify": round((classified - located) * 1000, 1),
                      "total": round((time.perf_counter() - start) * 1000, 1)},
    }
