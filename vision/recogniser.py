"""Photo → recognition result (docs/API.md, without `id`) on ONNX Runtime, in one configured pipeline: the
localiser finds tiles (a single look, turned a quarter when rows run down the photo, a second localiser's look
where one is configured and the first suggests misses, then a closer or a zoomed-out look where the tiles call for
it), the crop classifier names each one, unsure finds are kept where a row or a close-up vouches for them, and
layout groups the tiles and proposes a hand. Serving, `fanshot read`,
`fanshot eval`, adaptation and crop mining all run this `Recogniser`; its settings come from the models'
`vision.json` (vision/config.py). No torch or ultralytics here."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

from fanshot.scoring.tiles import BACK
from fanshot.vision.config import VIEWS, VISION_JSON, RecogniserConfig, SecondLook, VisionFile, ZoomOut
from fanshot.vision.geometry import (
    close_up_tiles,
    cut_at_edge,
    cut_crop,
    decode_yolo,
    in_sure_rows,
    inside,
    letterbox,
    mostly_within,
    moved_boxes,
    nms,
    tile_sides,
    tiles_small,
    turn_boxes,
    union_of_looks,
    unletterbox,
    window_starts,
    zoom_window,
)
from fanshot.vision.image import Original
from fanshot.vision.layout import group_tiles, hand_of, place_hand, rows_run_down
from fanshot.vision.suggest import suggest

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
THREADS = 2
# The class an adapted classifier (`fanshot adapt`) gives a box that holds no tile of the user's set: dropped.
NOT_A_TILE = "none"


def session(model: Path | bytes) -> ort.InferenceSession:
    """A CPU session of an ONNX file or serialised model."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(model) if isinstance(model, Path) else model, options,
                                providers=["CPUExecutionProvider"])


def to_tensor(images: np.ndarray) -> np.ndarray:
    """N×H×W×3 uint8 RGB → N×3×H×W float32 in [0, 1], the ultralytics input."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


@dataclass(frozen=True)
class Detections:
    """Tiles through the stages, index for index: boxes (N×4 pixels of the image read), localiser scores,
    localiser classes (face / back) and, once classified, class probabilities (N×codes)."""

    boxes: np.ndarray
    scores: np.ndarray
    kinds: list[str]
    probs: np.ndarray | None = None

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), dtype=np.float32), np.zeros(0, dtype=np.float32), [])

    def __len__(self) -> int:
        return len(self.scores)

    @property
    def faces(self) -> np.ndarray:
        """Which are faces (not backs): the ones the classifier can vouch for."""
        return np.array([kind != BACK for kind in self.kinds], dtype=bool)

    def only(self, keep: np.ndarray) -> Detections:
        return Detections(self.boxes[keep].reshape(-1, 4), self.scores[keep],
                          [self.kinds[i] for i in np.flatnonzero(keep)],
                          None if self.probs is None else self.probs[keep])

    def moved(self, dx: float, dy: float) -> Detections:
        return replace(self, boxes=self.boxes + [dx, dy, dx, dy])

    def joined(self, other: Detections) -> Detections:
        """These finds, then the other's (neither yet classified)."""
        return Detections(np.concatenate([self.boxes, other.boxes]).reshape(-1, 4),
                          np.concatenate([self.scores, other.scores]), self.kinds + other.kinds)

    def merged(self, other: Detections, nms_iou: float) -> Detections:
        """Both sets (not yet classified), duplicates removed by NMS."""
        both = self.joined(other)
        keep = nms(both.boxes, both.scores, nms_iou)
        return Detections(both.boxes[keep].reshape(-1, 4), both.scores[keep], [both.kinds[i] for i in keep])


@dataclass(frozen=True)
class Look:
    """What the localisation stages found: the image as read (turned when the photo's rows ran down it), the
    tiles in its pixels, the quarter turns taken from the photo (np.rot90's k), which look found them last
    ("single", "in" for the closer look, "out" for the zoomed-out one) and whether a second localiser looked too
    (`second_look`)."""

    image: np.ndarray
    found: Detections
    turns: int
    zoom: str = "single"
    second_look: bool = False

    def photo_boxes(self, width: int, height: int) -> np.ndarray:
        """The tiles' boxes in the `width`×`height` photo's own pixels."""
        return turn_boxes(self.found.boxes, -self.turns, self.image.shape[1], self.image.shape[0]) \
            if self.turns else self.found.boxes


def suggests_misses(scores: np.ndarray, conf: float, stage: SecondLook) -> bool:
    """Whether a look whose finds score `scores` suggests tiles missed (`SecondLook`): from `fewest` to under
    `below` sure finds (`conf` or more), or their mean score under `mean_below`."""
    sure = scores[scores >= conf]
    return stage.fewest <= len(sure) < stage.below or (len(sure) > 0 and float(sure.mean()) < stage.mean_below)


def rescaled(scores: np.ndarray, own_conf: float, conf: float) -> np.ndarray:
    """Scores of a localiser sure at `own_conf` on the scale of one sure at `conf`: piecewise linear, 0 → 0,
    `own_conf` → `conf`, 1 → 1, so that sure, unsure and faint mean the same for both."""
    below = scores * (conf / own_conf)
    above = conf + (scores - own_conf) * ((1 - conf) / (1 - own_conf))
    return np.where(scores < own_conf, below, above).astype(scores.dtype)


def sureness(probs: np.ndarray) -> float:
    """How surely the classifier reads these faces: the mean log-ratio of each one's best class probability to its
    runner-up's. The best probability alone saturates (0.9999 either way up for most faces); the ratio does not."""
    runner_up, best = np.sort(probs, axis=1)[:, -2:].T
    tiny = np.finfo(probs.dtype).tiny
    return float(np.mean(np.log(np.maximum(best, tiny)) - np.log(np.maximum(runner_up, tiny))))


def ranked(p: np.ndarray, codes: list[str], alternatives: int) -> dict:
    """The classifier's answer for one crop: `{code, confidence, alternatives}`, the most likely code first (never
    an adapted classifier's `NOT_A_TILE`: the box holds a tile, as the localiser or the user says)."""
    best, *others = [i for i in np.argsort(-p) if codes[i] != NOT_A_TILE][:alternatives + 1]
    return {"code": codes[best], "confidence": float(p[best]),
            "alternatives": [{"code": codes[i], "p": round(float(p[i]), 4)} for i in others]}


def tile_entry(box: np.ndarray, score: float, kind: str, p: np.ndarray, codes: list[str], alternatives: int) -> dict:
    """One result tile. A face: confidence = P(tile) × P(code | tile), alternatives = the next codes.
    A back has no code to rank."""
    entry = {"box": [round(float(v), 1) for v in box], "code": BACK, "confidence": round(float(score), 4),
             "alternatives": []}
    if kind != BACK:
        named = ranked(p, codes, alternatives)
        entry.update(named, confidence=round(float(score * named["confidence"]), 4))
    return entry


@dataclass(frozen=True)
class Recognition:
    """What the recogniser reads in a photo: docs/API.md's recognition result, without `id` and `model_version`
    (`as_dict`, in the contract's key order). Tiles and groups keep the contract's JSON shape; groups, the hand's
    places and suggestions refer to tiles by index."""

    image: dict[str, int]  # {"width", "height"}: the photo's own pixels, which the boxes are in
    tiles: list[dict]  # {box, code, confidence, alternatives}
    groups: list[dict]  # {kind, tiles: indices}
    hand: dict
    hand_tiles: list
    suggestions: list[dict]
    timing_ms: dict[str, float]  # localise, classify, total

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Recogniser:
    """The two ONNX models and the settings they are read with, `second`: the same with the second look's
    localiser, where `second_look` names one, and `small_classifier`, where `small_faces` names one.
    `Recogniser.load(models_dir)` builds one from a models folder; `shipped()` / `for_models(dir)` give the
    process's shared one; `with_config` the same models read with other settings (a threshold, a stage switched
    off)."""

    localiser: ort.InferenceSession
    localiser_size: int
    localiser_classes: list[str]
    classifier: ort.InferenceSession
    classifier_size: int
    codes: list[str]
    config: RecogniserConfig
    second: Recogniser | None = None
    small_classifier: ort.InferenceSession | None = None

    @classmethod
    def load(cls, models_dir: Path) -> Recogniser:
        """Both ONNX sessions (and the second look's localiser and the small faces' classifier, where they are
        named) and the settings of `models_dir/vision.json`."""
        models = VisionFile.read(models_dir)
        loc, named = models.localiser, models.classifier
        first = cls(session(models_dir / loc.file), loc.imgsz, list(loc.classes),
                    session(models_dir / named.file), named.imgsz, list(named.classes), models.recogniser)
        if (small := models.recogniser.small_faces.classifier) is not None:
            first = replace(first, small_classifier=stage_model(models_dir, small, "small_faces.classifier",
                                                                named.imgsz, outputs=len(named.classes)))
        if (second := models.recogniser.second_look.localiser) is None:
            return first
        return replace(first, second=replace(first, localiser=stage_model(models_dir, second,
                                                                          "second_look.localiser", loc.imgsz)))

    def with_config(self, config: RecogniserConfig) -> Recogniser:
        return replace(self, config=config, second=None if self.second is None else self.second.with_config(config))

    # The models, run.

    def localise(self, image: np.ndarray, conf: float, fill: float = 1.0) -> Detections:
        """Tiles found scoring `conf` or more, best first, in image pixels; `fill` < 1 zooms out (the photo takes
        that share of the localiser's input)."""
        boxed = letterbox(image, self.localiser_size, fill)
        output = self.localiser.run(None, {self.localiser.get_inputs()[0].name: to_tensor(boxed.image[None])})[0]
        boxes, scores, classes = decode_yolo(output, conf)
        keep = nms(boxes, scores, self.config.nms_iou)
        boxes = unletterbox(boxes[keep], boxed, image.shape[1], image.shape[0])
        return Detections(boxes.reshape(-1, 4), scores[keep], [self.localiser_classes[c] for c in classes[keep]])

    def cut_crops(self, image: np.ndarray, boxes: np.ndarray, turns: int = 0) -> np.ndarray:
        """The classifier's input crops (N×size×size×3) of the boxes, turned `turns` quarters."""
        size = self.classifier_size
        if not len(boxes):
            return np.zeros((0, size, size, 3), dtype=np.uint8)
        return np.stack([cut_crop(image, box, size, turns) for box in boxes])

    def cut_views(self, image: np.ndarray, boxes: np.ndarray, sides: np.ndarray,
                  turns: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """The crops to read of the boxes of these `sides` (`cut_crops`), a small face's once per view
        (`small_faces.views`), and the box each crop is of."""
        views = self.config.small_faces.views
        small = self.small_faces(sides, len(boxes)) if views > 1 else np.zeros(len(boxes), dtype=bool)
        owners = np.repeat(np.arange(len(boxes)), np.where(small, views, 1))
        looked = [moved_boxes(box, VIEWS[:views]) if one_small else box[None]
                  for box, one_small in zip(boxes, small, strict=True)]
        return self.cut_crops(image, np.concatenate(looked) if looked else boxes, turns), owners

    def read_views(self, crops: np.ndarray, sides: np.ndarray, owners: np.ndarray) -> np.ndarray:
        """Class probabilities of the boxes whose crops these are (`cut_views`; `sides`: the boxes'), each box's
        the mean of its crops'."""
        probs = self.read_crops(crops, sides[owners])
        if len(owners) == len(sides):  # a crop a box
            return probs
        summed = np.zeros((len(sides), probs.shape[1]), dtype=np.float64)
        np.add.at(summed, owners, probs)
        return (summed / np.bincount(owners, minlength=len(sides))[:, None]).astype(probs.dtype)

    def read_crops(self, crops: np.ndarray, sides: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities (N×codes) of tile crops; given each face's side in the image its crop was cut from,
        the small ones are named by the small faces' classifier (`small_faces`)."""
        probs = np.zeros((len(crops), len(self.codes)), dtype=np.float32)
        small = self.small_faces(sides, len(crops))
        for classifier, which in ((self.classifier, ~small), (self.small_classifier, small)):
            if classifier is not None and which.any():
                probs[which] = classifier.run(None, {classifier.get_inputs()[0].name: to_tensor(crops[which])})[0]
        return probs

    def small_faces(self, sides: np.ndarray | None, count: int) -> np.ndarray:
        """Which of `count` faces of these `sides` the small faces' classifier names."""
        stage = self.config.small_faces
        if sides is None or self.small_classifier is None or not stage.enabled:
            return np.zeros(count, dtype=bool)
        return sides < stage.below

    def classify(self, image: np.ndarray, boxes: np.ndarray, turns: int = 0) -> np.ndarray:
        """Class probabilities (N×codes) of the tiles in these boxes, cut turned `turns` quarters."""
        sides = tile_sides(boxes)
        crops, owners = self.cut_views(image, boxes, sides, turns)
        return self.read_views(crops, sides, owners)

    # The localisation stages.

    @property
    def floor(self) -> float:
        """The lowest score a find is kept at: unsure finds only when a stage may keep them."""
        config = self.config
        return min(config.unsure, config.conf) if config.row_fill.enabled else config.conf

    def guides(self, found: Detections) -> Detections:
        """The finds that place the closer look and tell which way the rows run: the sure ones; with none, the
        unsure ones (`floor` or more) or else all, the faint ones too, whichever first number `zoom_in.guides`;
        else none."""
        sure = found.only(found.scores >= self.config.conf)
        if len(sure):
            return sure
        for least in (self.floor, 0.0):
            enough = found.only(found.scores >= least)
            if len(enough) >= self.config.zoom_in.guides:
                return enough
        return sure

    def upright_look(self, image: np.ndarray) -> Look:
        """The single look (with faint finds, `zoom_in.guide_floor` or more, where they guide a later stage),
        taken again at the photo turned a quarter when its guides' rows run down it. A photo thinner than
        `min_window` is read as it stands."""
        config = self.config
        faint = min(self.floor, config.zoom_in.guide_floor) if config.zoom_in.enabled or config.turn.enabled \
            else self.floor
        found = self.localise(image, faint)
        if (not config.turn.enabled or min(image.shape[:2]) < config.min_window
                or not rows_run_down(self.guides(found).boxes, config.layout)):
            return Look(image, found, 0)
        turned = np.ascontiguousarray(np.rot90(image, -1))
        return Look(turned, self.localise(turned, faint), -1)

    def second_looked(self, look: Look) -> Look:
        """The single look's finds pooled with the second localiser's (`second_look`) on the frame it read, when
        they suggest tiles missed; the look as it was otherwise."""
        config = self.config
        stage = config.second_look
        if self.second is None or not stage.enabled or not suggests_misses(look.found.scores, config.conf, stage):
            return look
        height, width = look.image.shape[:2]
        sure = look.found.boxes[look.found.scores >= config.conf]
        if stage.leave_small and tiles_small(sure, width, height, self.localiser_size, config.zoom_in.below):
            return look
        own_conf = config.conf if stage.conf is None else stage.conf
        # the second localiser's own score that `rescaled` maps onto `floor`
        floor = own_conf * self.floor / config.conf if self.floor < config.conf else own_conf
        theirs = self.second.localise(look.image, floor)
        if own_conf != config.conf:
            theirs = replace(theirs, scores=rescaled(theirs.scores, own_conf, config.conf))
        mine, kept = union_of_looks(look.found.boxes, look.found.scores, theirs.boxes, theirs.scores, stage.iou)
        return replace(look, found=look.found.only(mine).joined(theirs.only(kept)), second_look=True)

    def zoomed_out(self, image: np.ndarray, found: Detections, sure: Detections) -> Detections | None:
        """With fewer than `zoom_out.below` sure finds, the close-up's tiles that a zoomed-out look finds, in
        place of the finds mostly inside them; None when it finds none."""
        zoom: ZoomOut = self.config.zoom_out
        if not zoom.enabled or len(sure) >= zoom.below:
            return None
        height, width = image.shape[:2]
        wide = self.localise(image, self.config.conf, zoom.fill)
        wide = wide.only(close_up_tiles(wide.boxes, width, height, zoom.min_share, zoom.max_aspect))
        if not len(wide):
            return None
        return found.only(~mostly_within(found.boxes, wide.boxes)).merged(wide, self.config.nms_iou)

    def scans(self, image: np.ndarray, guide: Detections) -> bool:
        """Whether the closer look is placed by a scan: the single look found no guide (`guides`), and it shrank
        the frame more than `scan.shrink` times."""
        config = self.config
        return (config.scan.enabled and config.zoom_in.enabled and not len(guide)
                and max(image.shape[:2]) > config.scan.shrink * self.localiser_size)

    def scanned(self, image: np.ndarray) -> Detections:
        """The finds (faint ones too) of the frame read at its own resolution, window by window, that are too
        small for the single look: under `scan.largest` px there."""
        size, height, width = self.localiser_size, *image.shape[:2]
        found = Detections.empty()
        for y in window_starts(height, size):
            for x in window_starts(width, size):
                window = self.localise(image[y:y + size, x:x + size], self.config.zoom_in.guide_floor)
                found = found.merged(window.moved(x, y), self.config.nms_iou)
        single_look_scale = size / max(height, width)
        return found.only(tile_sides(found.boxes) * single_look_scale < self.config.scan.largest)

    def zoomed_in(self, image: np.ndarray, found: Detections, sure: Detections,
                  guide: Detections) -> Detections | None:
        """The tiles of a closer look at the window the guides place, in place of the finds inside it; None when
        the tiles are not small, or no sure find placed the look and it confirms too few."""
        config = self.config
        if not config.zoom_in.enabled:
            return None
        height, width = image.shape[:2]
        window = zoom_window(guide.boxes, width, height, self.localiser_size, config.zoom_in, config.min_window)
        if window is None:
            return None
        x1, y1, x2, y2 = window
        closer = self.localise(image[y1:y2, x1:x2], self.floor)
        closer = closer.only(~cut_at_edge(closer.boxes, window, width, height, config.edge)).moved(x1, y1)
        if not len(sure) and np.count_nonzero(closer.scores >= config.conf) < config.zoom_in.confirm:
            return None
        return found.only(~inside(found.boxes, window)).merged(closer, config.nms_iou)

    def find(self, image: np.ndarray) -> Look:
        """The localisation stages on an H×W×3 uint8 RGB photo: the tiles scoring `floor` or more, looked at
        upright (by a second localiser too where the first suggests misses), and zoomed out or closer where they
        call for it (the closer look placed by a scan of a big frame when the single look found nothing to guide
        it)."""
        look = self.second_looked(self.upright_look(image))
        guide = self.guides(look.found)
        found = look.found.only(look.found.scores >= self.floor)
        sure = found.only(found.scores >= self.config.conf)
        if (wide := self.zoomed_out(look.image, found, sure)) is not None:
            return replace(look, found=wide, zoom="out")
        if self.scans(look.image, guide):
            guide = self.guides(self.scanned(look.image))
        if (closer := self.zoomed_in(look.image, found, sure, guide)) is not None:
            return replace(look, found=closer, zoom="in")
        return replace(look, found=found)

    # The reading stages.

    def right_way_up(self, look: Look) -> Look:
        """A photo turned a quarter may now stand upright or upside down (the localiser finds tiles either way up):
        the way the classifier reads its faces more surely (`sureness`), classified. Each crop is read as cut and
        turned half, which is the half-turned photo's crop bar resampling."""
        found, image = look.found, look.image
        sides = tile_sides(found.boxes)
        crops, owners = self.cut_views(image, found.boxes, sides)
        both = self.read_views(np.concatenate([crops, crops[:, ::-1, ::-1]]), np.concatenate([sides, sides]),
                               np.concatenate([owners, owners + len(sides)]))
        upright, flipped = both[:len(sides)], both[len(sides):]
        faces = found.faces
        if not faces.any() or sureness(flipped[faces]) <= sureness(upright[faces]):
            return replace(look, found=replace(found, probs=upright))
        height, width = image.shape[:2]
        turned = Detections(turn_boxes(found.boxes, 2, width, height), found.scores, found.kinds, flipped)
        # a half turn keeps the frame's width and height
        return replace(look, image=np.ascontiguousarray(np.rot90(image, 2)), found=turned, turns=look.turns + 2)

    def classified(self, look: Look) -> Look:
        """The look's faces named by the classifier, the right way up."""
        if look.turns:
            return self.right_way_up(look)
        return replace(look, found=replace(look.found, probs=self.classify(look.image, look.found.boxes)))

    def named_at_full_size(self, look: Look, width: int, height: int, original: Original | None) -> Look:
        """The look's small faces (`fine_crops`) named again from crops of the `width`×`height` photo's original,
        when that is larger enough to show them better."""
        fine = self.config.fine_crops
        if not fine.enabled or original is None or not len(look.found):
            return look
        small = look.found.faces & (tile_sides(look.found.boxes) < fine.below)
        if not small.any() or original.longer_side() < fine.min_gain * max(width, height):
            return look
        full = original.pixels()
        boxes = look.photo_boxes(width, height)[small] * np.array([full.shape[1] / width, full.shape[0] / height] * 2)
        probs = look.found.probs.copy()
        probs[small] = self.classify(full, boxes, look.turns)
        return replace(look, found=replace(look.found, probs=probs))

    def drop_non_tiles(self, found: Detections) -> Detections:
        """Leave out the faces an adapted classifier names `NOT_A_TILE` (a base classifier has no such class)."""
        if not self.config.not_a_tile.enabled or NOT_A_TILE not in self.codes or not len(found):
            return found
        best = [self.codes[int(i)] for i in np.argmax(found.probs, axis=1)]
        return found.only(~found.faces | (np.array(best) != NOT_A_TILE))

    def keep_finds(self, found: Detections) -> Detections:
        """The sure finds, and the unsure faces that stand in their rows (`row_fill`)."""
        config = self.config
        sure = found.scores >= config.conf
        if sure.all() or not config.row_fill.enabled:
            return found.only(sure)
        named = found.probs.max(axis=1, initial=0.0)
        fits = (in_sure_rows(found.boxes, sure, config)
                & ~mostly_within(found.boxes, found.boxes[sure], config.row_fill.overlap)
                & (named >= config.row_fill.code_p))
        return found.only(sure | (found.faces & fits))

    def __call__(self, image: np.ndarray, original: Original | None = None) -> Recognition:
        """Recognise the tiles in an H×W×3 uint8 RGB photo (already EXIF-oriented), decoded from `original` when
        it was shrunk to be read. Boxes come back in the photo's own pixels; groups are found in the frame read,
        where rows run across."""
        height, width = image.shape[:2]
        start = time.perf_counter()
        look = self.find(image)
        located = time.perf_counter()
        look = self.named_at_full_size(self.classified(look), width, height, original)
        classified = time.perf_counter()
        found = self.keep_finds(self.drop_non_tiles(look.found))
        look = replace(look, found=found)
        alternatives = self.config.alternatives
        tiles = [tile_entry(*tile, self.codes, alternatives)
                 for tile in zip(look.photo_boxes(width, height), found.scores, found.kinds, found.probs,
                                 strict=True)]
        codes = [tile["code"] for tile in tiles]
        groups = group_tiles(found.boxes, codes, self.config.layout)
        placed = place_hand(groups, codes)
        return Recognition(
            image={"width": width, "height": height},
            tiles=tiles,
            groups=groups,
            hand=hand_of(placed, codes),
            hand_tiles=placed,
            suggestions=suggest(tiles, groups, self.config.suggestions),
            timing_ms={"localise": round((located - start) * 1000, 1),
                       "classify": round((classified - located) * 1000, 1),
                       "total": round((time.perf_counter() - start) * 1000, 1)},
        )

    def name_tile(self, image: np.ndarray, box: list[float]) -> dict:
        """The code of the tile in a box the user drew: `{code, confidence, alternatives}` from the crop
        classifier alone (no localiser score: the user says there is a tile)."""
        named = ranked(self.classify(image, np.array([box], dtype=np.float32))[0], self.codes,
                       self.config.alternatives)
        return {**named, "confidence": round(named["confidence"], 4)}


def stage_model(models_dir: Path, name: str, setting: str, size: int, outputs: int | None = None
                ) -> ort.InferenceSession:
    """A stage's own model (the second look's localiser, the small faces' classifier), `name` in `models_dir`;
    refused, naming its `setting`, when the file is not there, or takes another input side than the main model's
    `size`, or gives another number of `outputs` (a classifier's classes)."""
    where = f"{models_dir / VISION_JSON}: recogniser.{setting}"
    if not (models_dir / name).is_file():
        raise ValueError(f"{where}: no file {name!r} in {models_dir}; put that model there, or set it to null")
    loaded = session(models_dir / name)
    side = loaded.get_inputs()[0].shape[-2:]
    if any(isinstance(pixels, int) and pixels != size for pixels in side):
        raise ValueError(f"{where}: {name} takes {side[0]}×{side[1]} px and the main model {size}×{size}; "
                         f"the stage needs one of the main one's input")
    given = loaded.get_outputs()[0].shape[-1]
    if outputs is not None and isinstance(given, int) and given != outputs:
        raise ValueError(f"{where}: {name} names {given} classes and the classifier {outputs}; "
                         f"the stage needs one of the classifier's classes")
    return loaded


@cache
def for_models(models_dir: Path = MODELS_DIR) -> Recogniser:
    """The process's recogniser of a models folder, loaded once (a version's folder never changes)."""
    return Recogniser.load(models_dir)


def shipped() -> Recogniser:
    """The recogniser of the shipped models."""
    return for_models(MODELS_DIR)
