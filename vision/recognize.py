"""Photo → recognition result (docs/API.md, without `id`) on ONNX Runtime: the localiser finds tiles, the crop
classifier names each one, layout groups them and proposes a hand. No torch or ultralytics here."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

from fanshot.scoring.tiles import BACK
from fanshot.vision.geometry import cut_crop, decode_yolo, letterbox, nms, turn_boxes, unletterbox
from fanshot.vision.layout import group_tiles, place_hand, propose_hand, rows, rows_run_down, straighten
from fanshot.vision.suggest import suggest

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_CONF = 0.3  # localiser score threshold for a vision.json that names none (each model sets its own)
NMS_IOU = 0.5
ALTERNATIVES = 3
THREADS = 2
# The class an adapted classifier (`fanshot adapt`) gives a box that holds no tile of the user's set: dropped.
NOT_A_TILE = "none"
# The zoom pass. The localiser sees the photo at 416 px, where a row of tiles a few % of a 12 MP frame wide is
# a dozen pixels a tile, and one tile filling a close-up is far larger than any it learnt: one more localiser
# run at a better scale finds them. A photo whose tiles are of the usual size never pays for it.
# Chosen on small-12mp-train (localiser recall 0.836 single, 0.864 at 16/28, 0.893 at 20/32); valid, mixed-rows-train
# and rendered hands of seed 4242 are unchanged by it (their tiles are larger: real photos' ~28 px at 416).
ZOOM_IN_BELOW = 20.0  # px: median tile side in the localiser's input under which the tiles' region is read again
ZOOM_IN_TARGET = 32.0  # px: the tile side that second look aims for
ZOOM_IN_MIN_GAIN = 1.5  # the second look must enlarge the tiles at least this much
# With no sure find, ZOOM_IN_GUIDES unsure ones (`floor` or more) place the closer look instead: tiles a few pixels
# wide in the localiser's input can all score under the threshold. Chosen on the choice sets (MODEL_CARD.md):
# the tuning renders of seed 4343 read 0.7939 → 0.8009 at 6 and 8, 0.8006 at 5; at 1-4 a clutter draw read more
# false tiles; the other sets unchanged.
ZOOM_IN_GUIDES = 6
# With fewer than ZOOM_IN_GUIDES unsure finds, as many faint ones (GUIDE_FLOOR or more, from the same localiser run)
# guide it: tiles 2-3 % of the frame wide score 0.1-0.3 there. They also tell which way the rows run. A closer look
# that no sure find placed is kept only when it finds ZOOM_IN_CONFIRM sure tiles: on clutter-tune it found one at most.
# Chosen on the choice sets (MODEL_CARD.md): the tuning renders of seed 4343 read 0.8317 → 0.8382 (0.8368 at a floor
# of 0.2; 0.8388 at 0.05, with valid a tile lower); kept at 0, 1 or 2 sure tiles, clutter-tune read a false tile
# more; at 5 the renders read 0.8376.
GUIDE_FLOOR = 0.1
ZOOM_IN_CONFIRM = 3
# Fewer tiles found: look again zoomed out, for the tiles of a close-up (a hand shows 13 or more). A localiser can
# see a few fragments in a frame-filling tile; chosen on web-closeups-train (F1 0.983 at 2, 0.990 at 3-6 with the
# localiser of 2026-12-01; 0.807 at 2, 0.995 at 6 with the one tried that evening), valid unchanged. A look that
# finds no such tile leaves the photo to the closer look (tuning renders of seed 4343: 0.753 when it did not, 0.754
# at 2 and at 6).
ZOOM_OUT_BELOW = 6
ZOOM_OUT_FILL = 0.2  # the photo's share of the localiser's input in that look
# A tile only the zoomed-out look finds must be a close-up's: its side (√area) at least ZOOM_OUT_MIN_SHARE of the
# photo's, and tile-shaped, its longer side at most ZOOM_OUT_MAX_ASPECT times its shorter. Wrong finds there are
# bands across valid's stretched crops (sides 2.2-3.6 to 1, shares 0.48-0.67) and, on clutter, shares ≤ 0.3; a
# close-up of two or three tiles has shares of 0.35-0.6, which 0.64 alone lost. Chosen on the choice sets
# (MODEL_CARD.md): the tuning renders of seed 4343 read 0.8242 → 0.8277 at 0.35 and 2 (0.8271-0.8279 at
# 0.25-0.45), no set worse; valid read 0.9389 → 0.9388 at 2.5, and at 0.4 with no bound on the shape.
ZOOM_OUT_MIN_SHARE = 0.35
ZOOM_OUT_MAX_ASPECT = 2.0
# Row filling. The localiser is unsure of some faces a row of sure ones makes plain: a blank white dragon scores
# 0.2-0.55 where its neighbours score 0.8 or more. Such a find is kept when it stands in a row (layout's chains)
# with ROW_FILL_MATES sure tiles, its side within ROW_FILL_SIZE of theirs, at most ROW_FILL_OVERLAP of it lies
# in one of them (a box astride two tiles does), and the classifier names a code at ROW_FILL_CODE_P or more.
# Chosen on valid, the tuning renders, the training parts of the evaluation sets and clutter-tune (MODEL_CARD.md):
# 0.3 read valid 0.9338 → 0.9371 and no set worse; 0.2 tied on the mean with more crops to classify.
ROW_FILL_CONF = 0.3
ROW_FILL_MATES = 2
ROW_FILL_SIZE = 0.25
ROW_FILL_OVERLAP = 0.4
ROW_FILL_CODE_P = 0.5
# A close-up's lone tile. With no sure find, an unsure face of tile shape (ZOOM_OUT_MAX_ASPECT), its side
# LONE_MIN_SHARE or more of the photo's, which the classifier names at LONE_CODE_P or more, is kept: a tile or two
# filling much of the frame can score 0.3-0.55, where clutter's big unsure finds are named not-a-tile. Chosen on
# the choice sets (MODEL_CARD.md): the tuning renders of seed 4343 read 0.8277 → 0.8287 at 0.2 and 0.95; at 0.15
# a clutter draw read one false tile more; at 0.9 fewer right.
LONE_MIN_SHARE = 0.2
LONE_CODE_P = 0.95
EDGE = 2.0  # px: a box this close to a window's inner edge is a cut tile
MIN_WINDOW = 64.0  # px: the smallest window read again (a sliver of a box must not make an empty crop)


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


@dataclass(frozen=True)
class Found:
    """Localised tiles: boxes (N×4 image pixels), scores, localiser classes (face / back)."""

    boxes: np.ndarray
    scores: np.ndarray
    kinds: list[str]

    def __len__(self) -> int:
        return len(self.scores)

    def only(self, keep: np.ndarray) -> Found:
        return Found(self.boxes[keep].reshape(-1, 4), self.scores[keep], [self.kinds[i] for i in np.flatnonzero(keep)])

    def moved(self, dx: float, dy: float) -> Found:
        return Found(self.boxes + [dx, dy, dx, dy], self.scores, self.kinds)

    def merged(self, other: Found) -> Found:
        """Both sets, duplicates removed by NMS."""
        boxes, scores = np.concatenate([self.boxes, other.boxes]), np.concatenate([self.scores, other.scores])
        kinds = self.kinds + other.kinds
        keep = nms(boxes, scores, NMS_IOU)
        return Found(boxes[keep], scores[keep], [kinds[i] for i in keep])


def localise(image: np.ndarray, models: Models, conf: float,
             fill: float = 1.0) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Tile boxes in image pixels, their scores (≥ conf) and localiser classes (face / back), best first;
    `fill` < 1 zooms out (the photo takes that share of the localiser's input)."""
    boxed = letterbox(image, models.localiser_size, fill)
    session = models.localiser
    output = session.run(None, {session.get_inputs()[0].name: to_tensor(boxed.image[None])})[0]
    boxes, scores, classes = decode_yolo(output, conf)
    keep = nms(boxes, scores, NMS_IOU)
    boxes = unletterbox(boxes[keep], boxed, image.shape[1], image.shape[0])
    return boxes, scores[keep], [models.localiser_classes[c] for c in classes[keep]]


def tile_sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's side as the square root of its area: a tile's size whichever way it is turned."""
    return np.sqrt(np.prod(boxes[:, 2:] - boxes[:, :2], axis=1))


def too_thin(width: int, height: int) -> bool:
    """Whether a photo is a strip under MIN_WINDOW px across: no tile fits in it, and the localiser sees tiles in
    such a sliver once it is stretched or turned, so it is neither looked at closer nor turned."""
    return min(width, height) < MIN_WINDOW


def zoom_window(boxes: np.ndarray, width: int, height: int, size: int) -> tuple[int, int, int, int] | None:
    """The window (x1, y1, x2, y2) to read again when the tiles found are small in the localiser's `size`
    px input: centred on them, sized so that they come out ZOOM_IN_TARGET px; None when they are not small, the
    window would not enlarge them ZOOM_IN_MIN_GAIN times, or the photo is `too_thin`."""
    if not len(boxes) or too_thin(width, height):
        return None
    longer, side = max(width, height), float(np.median(tile_sides(boxes)))
    if side * size / longer >= ZOOM_IN_BELOW:
        return None
    window = max(size * side / ZOOM_IN_TARGET, MIN_WINDOW)
    if longer / window < ZOOM_IN_MIN_GAIN:
        return None
    centre = (boxes[:, :2].min(axis=0) + boxes[:, 2:].max(axis=0)) / 2
    w, h = min(window, width), min(window, height)
    x1 = int(np.clip(round(centre[0] - w / 2), 0, width - w))
    y1 = int(np.clip(round(centre[1] - h / 2), 0, height - h))
    return x1, y1, x1 + round(w), y1 + round(h)


def inside(boxes: np.ndarray, window: tuple[int, int, int, int]) -> np.ndarray:
    """Which boxes lie wholly inside the window."""
    x1, y1, x2, y2 = window
    return (boxes[:, 0] >= x1) & (boxes[:, 1] >= y1) & (boxes[:, 2] <= x2) & (boxes[:, 3] <= y2)


def cut_at_edge(boxes: np.ndarray, window: tuple[int, int, int, int], width: int, height: int) -> np.ndarray:
    """Which boxes (window pixels) touch an edge of the window that is not the photo's: tiles cut by it."""
    x1, y1, x2, y2 = window
    return (((boxes[:, 0] <= EDGE) & (x1 > 0)) | ((boxes[:, 1] <= EDGE) & (y1 > 0))
            | ((boxes[:, 2] >= x2 - x1 - EDGE) & (x2 < width)) | ((boxes[:, 3] >= y2 - y1 - EDGE) & (y2 < height)))


def mostly_within(boxes: np.ndarray, others: np.ndarray, share: float = 0.5) -> np.ndarray:
    """Which boxes have more than `share` of their area inside one of `others`."""
    if not len(others) or not len(boxes):
        return np.zeros(len(boxes), dtype=bool)
    low = np.maximum(boxes[:, None, :2], others[None, :, :2])
    high = np.minimum(boxes[:, None, 2:], others[None, :, 2:])
    overlap = np.prod(np.clip(high - low, 0, None), axis=2)
    area = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    return (overlap > share * np.maximum(area, 1e-9)[:, None]).any(axis=1)


def close_up_tiles(boxes: np.ndarray, width: int, height: int, min_share: float = ZOOM_OUT_MIN_SHARE) -> np.ndarray:
    """Which boxes are tiles of a close-up: their side at least `min_share` of the photo's, their longer side at
    most ZOOM_OUT_MAX_ASPECT times their shorter."""
    sizes = boxes[:, 2:] - boxes[:, :2]
    aspect = sizes.max(axis=1) / np.maximum(sizes.min(axis=1), 1e-9)
    return (tile_sides(boxes) >= min_share * np.sqrt(width * height)) & (aspect <= ZOOM_OUT_MAX_ASPECT)


def find_tiles(image: np.ndarray, models: Models, conf: float, zoom: bool = True,
               floor: float | None = None) -> tuple[Found, str]:
    """The localised tiles scoring `floor` (default `conf`) or more, with the zoom pass where their guides (the sure
    ones, `conf` or more, or with none sure the unsure or faint ones: `guides`) call for it; which look ran last
    ("single", "in" or "out")."""
    floor = conf if floor is None else min(floor, conf)
    if not zoom:
        return Found(*localise(image, models, floor)), "single"
    return zoom_pass(image, Found(*localise(image, models, min(floor, GUIDE_FLOOR))), models, conf, floor)


def guides(found: Found, conf: float, floor: float) -> Found:
    """The finds that place the closer look and tell which way the rows run: the sure ones (`conf` or more); with
    none, the unsure ones (`floor` or more) or else all, the faint ones too, whichever first number ZOOM_IN_GUIDES;
    else none."""
    sure = found.only(found.scores >= conf)
    if len(sure):
        return sure
    for least in (floor, 0.0):
        enough = found.only(found.scores >= least)
        if len(enough) >= ZOOM_IN_GUIDES:
            return enough
    return sure


def upright_look(image: np.ndarray, models: Models, conf: float, floor: float) -> tuple[np.ndarray, Found, int]:
    """The single look (finds scoring GUIDE_FLOOR or more, `floor` if lower), taken again at the photo turned a
    quarter when its guides' rows run down it: the image read, its finds and the quarter turns taken (np.rot90's k).
    A photo `too_thin` is read as it stands."""
    faint = min(floor, GUIDE_FLOOR)
    found = Found(*localise(image, models, faint))
    if too_thin(image.shape[1], image.shape[0]) or not rows_run_down(guides(found, conf, floor).boxes):
        return image, found, 0
    turned = np.ascontiguousarray(np.rot90(image, -1))
    return turned, Found(*localise(turned, models, faint)), -1


def zoom_pass(image: np.ndarray, found: Found, models: Models, conf: float, floor: float) -> tuple[Found, str]:
    """The single look's finds scoring `floor` or more, with a zoomed-out or a closer look where they call for it
    (see find_tiles); `found` may hold fainter finds, which only guide the closer look."""
    height, width = image.shape[:2]
    guide = guides(found, conf, floor)
    found = found.only(found.scores >= floor)
    sure = found.only(found.scores >= conf)
    if len(sure) < ZOOM_OUT_BELOW:
        wide = Found(*localise(image, models, conf, ZOOM_OUT_FILL))
        wide = wide.only(close_up_tiles(wide.boxes, width, height))
        if len(wide):
            return found.only(~mostly_within(found.boxes, wide.boxes)).merged(wide), "out"
    window = zoom_window(guide.boxes, width, height, models.localiser_size)
    if window is None:
        return found, "single"
    x1, y1, x2, y2 = window
    closer = Found(*localise(image[y1:y2, x1:x2], models, floor))
    closer = closer.only(~cut_at_edge(closer.boxes, window, width, height)).moved(x1, y1)
    if not len(sure) and np.count_nonzero(closer.scores >= conf) < ZOOM_IN_CONFIRM:
        return found, "single"
    return found.only(~inside(found.boxes, window)).merged(closer), "in"


def in_sure_rows(boxes: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """Which boxes stand in a row with ROW_FILL_MATES or more `sure` boxes, their side within ROW_FILL_SIZE of the
    median of those."""
    keep = np.zeros(len(boxes), dtype=bool)
    sides = tile_sides(boxes)
    for row in map(np.array, rows(straighten(boxes))):
        mates = row[sure[row]]
        if len(mates) >= ROW_FILL_MATES:
            keep[row] = np.abs(sides[row] / np.median(sides[mates]) - 1) <= ROW_FILL_SIZE
    return keep


# Localised and classified tiles, index for index: boxes, localiser scores, localiser classes, class probabilities.
Read = tuple[np.ndarray, np.ndarray, list[str], np.ndarray]


def only_read(keep: np.ndarray, boxes: np.ndarray, scores: np.ndarray, kinds: list[str], probs: np.ndarray) -> Read:
    """The tiles that `keep` marks, their indices kept in step."""
    found = Found(boxes, scores, kinds).only(keep)
    return found.boxes, found.scores, found.kinds, probs[keep]


def face_mask(kinds: list[str]) -> np.ndarray:
    """Which localised tiles are faces (not backs): the ones the classifier can vouch for."""
    return np.array([kind != BACK for kind in kinds], dtype=bool)


def keep_finds(boxes: np.ndarray, scores: np.ndarray, kinds: list[str], probs: np.ndarray, conf: float,
               width: int, height: int) -> Read:
    """The sure finds (`conf` or more), the unsure faces that stand in their rows (ROW_FILL_*) and, with no sure
    find, a close-up's lone tiles (LONE_*) in the `width`×`height` photo."""
    sure = scores >= conf
    if sure.all():
        return boxes, scores, kinds, probs
    faces = face_mask(kinds)
    named = probs.max(axis=1, initial=0.0)
    fits = (in_sure_rows(boxes, sure) & ~mostly_within(boxes, boxes[sure], ROW_FILL_OVERLAP)
            & (named >= ROW_FILL_CODE_P))
    lone = (not sure.any()) & close_up_tiles(boxes, width, height, LONE_MIN_SHARE) & (named >= LONE_CODE_P)
    return only_read(sure | (faces & (fits | lone)), boxes, scores, kinds, probs)


def cut_crops(image: np.ndarray, boxes: np.ndarray, models: Models) -> np.ndarray:
    """The classifier's input crops (N×size×size×3) of the boxes."""
    size = models.classifier_size
    if not len(boxes):
        return np.zeros((0, size, size, 3), dtype=np.uint8)
    return np.stack([cut_crop(image, box, size) for box in boxes])


def read_crops(crops: np.ndarray, models: Models) -> np.ndarray:
    """Class probabilities (N×codes) of tile crops."""
    if not len(crops):
        return np.zeros((0, len(models.codes)), dtype=np.float32)
    session = models.classifier
    return session.run(None, {session.get_inputs()[0].name: to_tensor(crops)})[0]


def classify(image: np.ndarray, boxes: np.ndarray, models: Models) -> np.ndarray:
    """Class probabilities (N×codes) of the tile crops."""
    return read_crops(cut_crops(image, boxes, models), models)


def drop_non_tiles(boxes: np.ndarray, scores: np.ndarray, kinds: list[str], probs: np.ndarray,
                   codes: list[str]) -> Read:
    """Leave out the faces an adapted classifier names `NOT_A_TILE` (a base classifier has no such class)."""
    if NOT_A_TILE not in codes or not len(boxes):
        return boxes, scores, kinds, probs
    keep = np.array([kind == BACK or codes[int(np.argmax(p))] != NOT_A_TILE for kind, p in zip(kinds, probs,
                                                                                               strict=True)])
    return only_read(keep, boxes, scores, kinds, probs)


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


def sureness(probs: np.ndarray) -> float:
    """How surely the classifier reads these faces: the mean log-ratio of each one's best class probability to its
    runner-up's. The best probability alone saturates (0.9999 either way up for most faces); the ratio does not."""
    runner_up, best = np.sort(probs, axis=1)[:, -2:].T
    tiny = np.finfo(probs.dtype).tiny
    return float(np.mean(np.log(np.maximum(best, tiny)) - np.log(np.maximum(runner_up, tiny))))


def right_way_up(image: np.ndarray, found: Found, models: Models) -> tuple[Found, np.ndarray, int]:
    """A photo turned a quarter may now stand upright or upside down (the localiser finds tiles either way up):
    the way the classifier reads its faces more surely (`sureness`). Each crop is read as cut and turned half,
    which is the half-turned photo's crop bar resampling. The tiles that way (boxes half turned when upside down),
    their class probabilities, and the half turns taken (0 or 2)."""
    height, width = image.shape[:2]
    crops = cut_crops(image, found.boxes, models)
    both = read_crops(np.concatenate([crops, crops[:, ::-1, ::-1]]), models)
    upright, flipped = both[:len(crops)], both[len(crops):]
    faces = face_mask(found.kinds)
    if not faces.any() or sureness(flipped[faces]) <= sureness(upright[faces]):
        return found, upright, 0
    return Found(turn_boxes(found.boxes, 2, width, height), found.scores, found.kinds), flipped, 2


def recognize(image: np.ndarray, models: Models | None = None, conf: float | None = None, zoom: bool = True) -> dict:
    """Recognise the tiles in an H×W×3 uint8 RGB photo (already EXIF-oriented); `conf` is the localiser's
    score threshold (default: the models'); `zoom=False` takes the localiser's single look alone: no zoom pass,
    no row filling and no turning.

    A photo whose rows run down it (the camera rolled a quarter turn) is read again turned a quarter, then the
    right way up: the localiser finds upright tiles more surely, and layout reads rows across. Boxes come back in
    the photo's own pixels."""
    models = models or load_models()
    conf = models.conf if conf is None else conf
    height, width = image.shape[:2]
    start = time.perf_counter()
    if zoom:
        floor = min(ROW_FILL_CONF, conf)
        image, found, turns = upright_look(image, models, conf, floor)
        found, _ = zoom_pass(image, found, models, conf, floor)
    else:
        found, _ = find_tiles(image, models, conf, zoom=False)
        turns = 0
    located = time.perf_counter()
    if turns:
        found, probs, half_turns = right_way_up(image, found, models)
        turns += half_turns  # a half turn keeps the frame's width and height
    else:
        probs = classify(image, found.boxes, models)
    classified = time.perf_counter()
    read = drop_non_tiles(found.boxes, found.scores, found.kinds, probs, models.codes)
    boxes, scores, kinds, probs = keep_finds(*read, conf, width, height)
    in_photo = turn_boxes(boxes, -turns, image.shape[1], image.shape[0])
    tiles = [tile_entry(*tile, models.codes) for tile in zip(in_photo, scores, kinds, probs, strict=True)]
    codes = [tile["code"] for tile in tiles]
    groups = group_tiles(boxes, codes)  # in the frame read, where rows run across
    return {
        "image": {"width": width, "height": height},
        "tiles": tiles,
        "groups": groups,
        "hand": propose_hand(groups, codes),
        "hand_tiles": place_hand(groups, codes),
        "suggestions": suggest(tiles, groups),
        "timing_ms": {"localise": round((located - start) * 1000, 1),
                      "classify": round((classified - located) * 1000, 1),
                      "total": round((time.perf_counter() - start) * 1000, 1)},
    }
