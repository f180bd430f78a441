"""A models folder's `vision.json`, owned here (`VisionFile`: read, write, version), and the recogniser's settings
in it: every threshold and every stage switch. A models folder that names no setting gets these defaults, which are
the shipped models' choices; each was chosen on the choice sets (models/EXPERIMENTS.md).

The localiser's threshold has one home: `RecogniserConfig.conf` in code, `localiser.conf` in the file (where the
shipped and every adapted folder keep it, and the page reads it); `recogniser.conf` is refused."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from fanshot.vision.image import MIN_SIDE, RECOGNITION_MAX_SIDE

DEFAULT_CONF = 0.3  # the localiser's score threshold for a vision.json that names none (each model sets its own)
# each can be switched off
STAGES = ("zoom_in", "scan", "zoom_out", "turn", "second_look", "fine_crops", "small_faces", "row_fill",
          "not_a_tile")


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ZoomIn(Settings):
    """The closer look. The localiser sees the photo at 416 px, where a row of tiles a few % of a 12 MP frame wide
    is a dozen pixels a tile: one more localiser run on their region finds them. A photo whose tiles are of the
    usual size never pays for it. Chosen on small-12mp-train (localiser recall 0.836 single, 0.893 at 20/32)."""

    enabled: bool = True
    below: float = Field(20.0, gt=0, description="px: median tile side in the localiser's input under which the "
                                                 "tiles' region is read again")
    target: float = Field(32.0, gt=0, description="px: the tile side that second look aims for")
    min_gain: float = Field(1.5, ge=1, description="the second look must enlarge the tiles at least this much")
    # With no sure find, `guides` unsure ones (`row_fill.conf` or more) place it instead, else as many faint ones
    # (`guide_floor` or more): tiles 2-3 % of the frame wide score 0.1-0.3. They also tell which way rows run. A
    # closer look that no sure find placed is kept only when it finds `confirm` sure tiles (clutter: one at most).
    guides: int = Field(6, ge=1)
    guide_floor: float = Field(0.1, ge=0, le=1)
    confirm: int = Field(3, ge=0)


class Scan(Settings):
    """The search that places the closer look when the single look finds no guide (`zoom_in.guides`) in a big
    frame. A tile 20 px wide in a 12 MP photo is 8 px in the 1,600 px frame and 2 px in the single look, where the
    localiser finds nothing, not even a faint guide; read at the frame's own resolution it scores 0.1 or more about
    half the time. So a frame the single look shrinks more than `shrink` times is read in the fewest
    localiser-sized windows that cover it, and their small finds guide the closer look (`zoom_in`, which must be
    on)."""

    enabled: bool = True
    shrink: float = Field(2.0, gt=1, description="the frame's longer side over the localiser's input above which "
                                                  "it is scanned")
    largest: float = Field(8.0, gt=0, description="px: a scan find whose side would be this or more in the single "
                                                  "look is no guide (the single look sees tiles that size; on "
                                                  "clutter such finds are the distractors)")


class ZoomOut(Settings):
    """The zoomed-out look, for a close-up: with fewer than `below` sure finds (a hand shows 13 or more) the photo
    is read again taking `fill` of the localiser's input. A tile only that look finds must be a close-up's: its
    side (√area) at least `min_share` of the photo's and its longer side at most `max_aspect` times its shorter."""

    enabled: bool = True
    below: int = Field(6, ge=0)
    fill: float = Field(0.2, gt=0, le=1)
    min_share: float = Field(0.35, ge=0, le=1)
    max_aspect: float = Field(2.0, ge=1)


class Turn(Settings):
    """A photo whose rows run down it (the camera rolled a quarter turn) is read again turned a quarter, then the
    right way up: the localiser finds upright tiles more surely, and layout reads rows across."""

    enabled: bool = True


class SecondLook(Settings):
    """A second localiser where the first look suggests misses (issue 52): one tuned on other layouts (scattered
    standing tiles) reads the frame the single look read, and the union of both looks' finds goes on (greedy NMS,
    the better score kept where two overlap more than `iou`). It runs when the single look's sure finds number
    from `fewest` to under `below` (a hand shows 13 or more), or their mean score is under `mean_below`. Off while
    `localiser` names no file: then the version leaves these settings out (`VisionFile.version`)."""

    enabled: bool = True
    localiser: str | None = Field(None, min_length=1, pattern=r"^[^/\\]+$",
                                  description="a localiser ONNX file in the models folder, of the first one's "
                                              "input and output; null: no second look")
    conf: float | None = Field(None, gt=0, lt=1, description="its own sure threshold, mapped onto the first "
                                                             "one's (`rescaled`); null: the first one's")
    fewest: int = Field(1, ge=0, description="it runs when the single look has at least this many sure finds")
    below: int = Field(13, ge=0, description="and fewer than this,")
    mean_below: float = Field(0.0, ge=0, le=1, description="or when their mean score is under this (0: never)")
    iou: float = Field(0.5, gt=0, le=1, description="finds of both looks overlapping more than this are one tile")
    leave_small: bool = Field(False, description="it does not run where the sure finds are small (`zoom_in.below`): "
                                                 "the closer look reads those again, larger")


class FineCrops(Settings):
    """Small faces named from the photo at its own resolution. A photo is read shrunk to 1,600 px, where a tile
    20-30 px wide in a 12 MP frame is 8-12 px: blown up to the classifier's 64 px, its crop is a blur. A face under
    `below` px (side, √area) in a photo shrunk at least `min_gain` times is named from a crop of the photo decoded
    at full size, which is decoded only then. Chosen on tiny-12mp-train (models/EXPERIMENTS.md, 2026-12-05)."""

    enabled: bool = True
    below: float = Field(24.0, gt=0, description="px: a face this small in the frame read is named at full size")
    min_gain: float = Field(1.5, ge=1, description="only when the photo's longer side is at least this many times "
                                                   "the frame read's")


# A small face's box as the localiser's error moves it (scale about its centre, shift across, shift down, as shares of
# its width and height): SmallFaces.views reads the first so many.
VIEWS = ((1.0, 0.0, 0.0), (1.12, 0.0, 0.0), (0.9, 0.0, 0.0), (1.0, -0.06, 0.0), (1.0, 0.06, 0.0), (1.0, 0.0, -0.06),
         (1.0, 0.0, 0.06))


class SmallFaces(Settings):
    """A second classifier for small faces: a face under `below` px (side, √area) in the image its crop is cut from
    is enlarged to the classifier's 64 px, a blur that this one trained on (train crops shown 16-44 px wide,
    `fanshot train data --small`) and the main one did not; it names those faces, each from `views` crops (a box a
    few pixels off is a large share of a small face), the main one every other. Off while `classifier` names no
    file: then the version leaves these settings out (`VisionFile.version`). Chosen on the choice sets
    (models/experiments/2026-12-06-sharp-small-faces.md)."""

    enabled: bool = True
    classifier: str | None = Field(None, min_length=1, pattern=r"^[^/\\]+$",
                                   description="a classifier ONNX file in the models folder, of the main one's "
                                               "input and classes; null: every face named by the main one")
    below: float = Field(48.0, gt=0, description="px: a face this small in the image its crop is cut from")
    views: int = Field(1, ge=1, le=len(VIEWS), description="crops read of each small face, their probabilities "
                                                           "averaged: its box, then the boxes moved a little "
                                                           "(`VIEWS`); 1: the box alone")


class RowFill(Settings):
    """The localiser is unsure of some faces that a row of sure ones makes plain (a blank white dragon scores
    0.2-0.55 where its neighbours score 0.8). An unsure find is kept when it stands in a row with `mates` sure
    tiles, its side within `size` of theirs, at most `overlap` of it inside one of them, and the classifier names a
    code at `code_p` or more."""

    enabled: bool = True
    mates: int = Field(2, ge=1)
    size: float = Field(0.25, ge=0)
    overlap: float = Field(0.4, ge=0, le=1)
    code_p: float = Field(0.5, ge=0, le=1)


class NotATile(Settings):
    """Faces that a classifier with the not-a-tile class names so are left out."""

    enabled: bool = True


class Layout(Settings):
    """Rows, groups and which way rows run (vision/layout.py)."""

    row_drift: float = Field(0.5, gt=0, description="a row's next tile has its centre within this fraction of a "
                                                    "tile height up or down")
    row_reach: float = Field(3.0, gt=0, description="and lies at most this many tile widths to the right")
    group_gap: float = Field(0.35, ge=0, description="a wider gap, in tile widths, starts a new group")
    back_gap: float = Field(1.0, ge=0, description="but between two face-down tiles (a concealed kong laid down "
                                                   "loosely) only a gap wider than this")
    rows_down_tiles: int = Field(3, ge=2, description="rows run down the photo when at least this many tiles,")
    rows_down_share: float = Field(0.7, gt=0, le=1, description="and this share of them, have their nearest "
                                                                "neighbour above or below")


class Suggestions(Settings):
    """Hand-aware corrections (vision/suggest.py)."""

    most: int = Field(3, ge=0, description="suggestions offered at most")
    min_p: float = Field(0.01, ge=0, le=1, description="alternatives less likely than this are not tried")
    double_change_tiles: int = Field(6, ge=0, description="pairs of changes are tried among this many least "
                                                          "confident tiles")


class Live(Settings):
    """The page's live viewfinder (api/static/live/guide.js and shot.js read these from vision.json): when it asks
    the person to move closer, reframe, add light or hold still, and when it takes the shot by itself."""

    min_tile: float = Field(32.0, gt=0, description="px: a median tile width in the shot as sent (the tiles' "
                                                    "region of the full-resolution frame at shot_side px at most) "
                                                    "under this asks to move closer: the classifier reads a tile "
                                                    "at 64 px, and the closer look aims for zoom_in.target px")
    edge: float = Field(0.01, ge=0, le=0.5, description="a box this close to the frame's border, as a share of the "
                                                       "frame's side, is a tile cut at the edge")
    min_luma: float = Field(50.0, ge=0, le=255, description="a frame whose mean luma (0-255) is under this is too dark")
    min_sharpness: float = Field(100.0, ge=0, description="a frame whose sharpness (the variance of the Laplacian "
                                                         "of its grey copy sharpness_width px wide) is under this "
                                                         "is blurred")
    sharpness_width: int = Field(160, ge=16)
    min_detail: float = Field(0.45, ge=0, le=1, description="a frame whose detail (guide.js `detail`: the gradient "
                              "energy of the localiser's 640 px copy over that of its half-size copy, in the "
                              "weaker direction; sharp ~0.55-0.95, a 25 px motion blur or a defocus ~0.3) is under "
                              "this is blurred")
    min_sure: float = Field(0.68, ge=0, le=1, description="tiles whose median localiser score is under this are "
                            "unsure (a sharp row scores ~0.72-0.74, a motion-blurred one ~0.64): no shot by itself")
    min_frames: int = Field(5, ge=1, description="frames analysed within steady_ms before the shot is taken")
    max_shift: float = Field(0.25, ge=0, description="tiles whose centres move more than this many tile widths "
                                                    "from one frame to the next are moving")
    steady_ms: float = Field(1000.0, ge=0, description="the count steady (within one) and the frames sharp for "
                                                       "this long: the shot is taken")
    min_tiles: int = Field(3, ge=1, description="fewer tiles found never takes the shot by itself")
    shot_margin: float = Field(1.0, ge=0, description="the shot sent is the tiles' region grown by this many "
                                                      "tile heights each way,")
    shot_side: int = Field(RECOGNITION_MAX_SIDE, ge=MIN_SIDE, description="px: at most this long (the side the "
                                                                          "server reads at)")


class RecogniserConfig(Settings):
    conf: float = Field(DEFAULT_CONF, ge=0, le=1, description="the localiser's score threshold: a sure find")
    unsure: float = Field(0.3, ge=0, le=1, description="a find scoring this or more (under `conf`) is unsure: "
                          "kept by row filling only, and it guides the closer look when none "
                          "is sure")
    nms_iou: float = Field(0.5, gt=0, le=1)
    alternatives: int = Field(3, ge=0, description="the next codes reported beside each face's best")
    edge: float = Field(2.0, ge=0, description="px: a box this close to a window's inner edge is a cut tile")
    min_window: float = Field(64.0, gt=0, description="px: the smallest window read again; a photo thinner "
                                                      "than this is read as it stands")
    zoom_in: ZoomIn = ZoomIn()
    scan: Scan = Scan()
    zoom_out: ZoomOut = ZoomOut()
    turn: Turn = Turn()
    second_look: SecondLook = SecondLook()
    fine_crops: FineCrops = FineCrops()
    small_faces: SmallFaces = SmallFaces()
    row_fill: RowFill = RowFill()
    not_a_tile: NotATile = NotATile()
    layout: Layout = Layout()
    suggestions: Suggestions = Suggestions()
    live: Live = Live()

    def section(self) -> dict[str, Any]:
        """The `recogniser` section of vision.json (the threshold is kept with the localiser)."""
        return self.model_dump(exclude={"conf"})

    def changed(self, **changes: Any) -> RecogniserConfig:
        """These settings with some changed: `conf=0.4`, or a stage's as `row_fill={"enabled": False}`."""
        merged = self.model_dump()
        for key, value in changes.items():
            merged[key] = {**merged[key], **value} if isinstance(value, dict) else value
        return RecogniserConfig.model_validate(merged)

    def without(self, *stages: str) -> RecogniserConfig:
        """These settings with stages switched off (`without(*STAGES)`: the localiser's single look alone)."""
        if unknown := [stage for stage in stages if stage not in STAGES]:
            raise ValueError(f"no stage {unknown[0]!r}; the stages are {', '.join(STAGES)}")
        return self.changed(**{stage: {"enabled": False} for stage in stages})


VISION_JSON = "vision.json"
RECORDS = ("training", "adaptation", "refit", "quantised")  # what made the models: no part of their version


class Stage(Settings):
    """One of the folder's two ONNX models: its file (beside vision.json), input side and class names."""

    file: str = Field(min_length=1, pattern=r"^[^/\\]+$", description="a file name in the models folder")
    imgsz: int = Field(gt=0)
    classes: tuple[str, ...] = Field(min_length=1)

    @field_validator("classes")
    @classmethod
    def _distinct(cls, classes: tuple[str, ...]) -> tuple[str, ...]:
        if twice := sorted({name for name in classes if classes.count(name) > 1}):
            raise ValueError(f"class {twice[0]!r} is named twice; each output of the model has its own name")
        return classes


class VisionFile(Settings):
    """A models folder's vision.json: both models, the recogniser's settings (`recogniser.conf` is the file's
    `localiser.conf`) and the records of what made them (`RECORDS`: training commands, adaptation, refit,
    quantisation)."""

    localiser: Stage
    classifier: Stage
    recogniser: RecogniserConfig = RecogniserConfig()
    training: tuple[str, ...] = ()
    adaptation: dict[str, Any] | None = None
    refit: dict[str, Any] | None = None
    quantised: dict[str, Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _threshold_from_the_localiser(cls, data: Any) -> Any:
        """The file keeps the threshold with the localiser; in code it is the recogniser's `conf`."""
        if not isinstance(data, dict) or not isinstance(data.get("localiser"), dict):
            return data
        recogniser = data.get("recogniser", {})
        if isinstance(recogniser, dict) and "conf" in recogniser:
            raise ValueError("recogniser.conf: the localiser's threshold is kept as localiser.conf")
        localiser = dict(data["localiser"])
        conf = localiser.pop("conf", DEFAULT_CONF)
        recogniser = {**recogniser, "conf": conf} if isinstance(recogniser, dict) else recogniser
        return {**data, "localiser": localiser, "recogniser": recogniser}

    @classmethod
    def parse(cls, data: dict[str, Any], source: str = VISION_JSON) -> VisionFile:
        """A vision.json's content, refused with each wrong setting named by its place in the file."""
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            problems = "; ".join(f"{_where(problem['loc'])}: {problem['msg']}" if problem["loc"] else problem["msg"]
                                 for problem in error.errors())
            raise ValueError(f"{source}: {problems}") from None

    @classmethod
    def read(cls, folder: Path) -> VisionFile:
        source = folder / VISION_JSON
        return cls.parse(json.loads(source.read_text(encoding="utf-8")), str(source))

    def content(self) -> dict[str, Any]:
        """What the file holds: the threshold under `localiser.conf`, records only where there are some."""
        data = self.model_dump(mode="json")
        data["localiser"]["conf"] = data["recogniser"].pop("conf")
        return {key: value for key, value in data.items() if value is not None}

    def write(self, folder: Path) -> Path:
        """Write `folder/vision.json`, checked first: a file that would not read back is refused, naming the
        setting, and not written (settings changed with `model_copy(update=...)` skip validation)."""
        path = folder / VISION_JSON
        content = self.content()
        VisionFile.parse(json.loads(json.dumps(content)), str(path))
        path.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
        return path

    def with_classifier(self, classes: list[str], conf: float) -> VisionFile:
        """This file for a classifier refitted to `classes`, read at the threshold `conf` (checked by `write`); with
        other classes, naming no small faces' classifier (`small_faces_naming`)."""
        refitted = self.model_copy(update={"classifier": self.classifier.model_copy(update={"classes": tuple(classes)}),
                                           "recogniser": self.recogniser.model_copy(update={"conf": conf})})
        return refitted.small_faces_naming(self.classifier.classes)

    def small_faces_naming(self, classes: Sequence[str]) -> VisionFile:
        """This file, naming no small-face classifier unless its classifier's classes are `classes`, the ones the
        small one was trained on (a classifier refitted or exported with others)."""
        return self if tuple(classes) == self.classifier.classes else self.without_small_faces()

    def without_second_look(self) -> VisionFile:
        """This file naming no second localiser (`second_look` then does nothing)."""
        stage = self.recogniser.second_look.model_copy(update={"localiser": None})
        return self.model_copy(update={"recogniser": self.recogniser.model_copy(update={"second_look": stage})})

    def without_small_faces(self) -> VisionFile:
        """This file naming no small-face classifier (every face then named by the classifier)."""
        stage = self.recogniser.small_faces.model_copy(update={"classifier": None})
        return self.model_copy(update={"recogniser": self.recogniser.model_copy(update={"small_faces": stage})})

    def model_files(self) -> tuple[tuple[str, str], ...]:
        """The model files it names, each with its stage: the localiser, the classifier, then the second look's
        localiser and the small faces' classifier where it names them (each of the main one's input and output)."""
        second, small = self.recogniser.second_look.localiser, self.recogniser.small_faces.classifier
        return (("localiser", self.localiser.file), ("classifier", self.classifier.file),
                *((("localiser", second),) if second else ()), *((("classifier", small),) if small else ()))

    def files(self) -> tuple[str, ...]:
        """The model files it names, localiser first (`model_files`)."""
        return tuple(name for _, name in self.model_files())

    def version(self, folder: Path) -> str:
        """The folder's version: the first 12 hex digits of the SHA-256 of what changes readings, the two models'
        bytes and every setting, so two folders that read alike share it; the records (`RECORDS`, such as the
        training commands' prose), the files' names, the page's viewfinder thresholds (`recogniser.live`: the
        server never reads them) and a second look's settings while it names no localiser (`SecondLook`: they
        change no reading), nor the small faces' while it names no classifier, are left out. A second localiser's
        and a small-face classifier's bytes count with the two models'."""
        optional = {("second_look", "localiser"): self.recogniser.second_look.localiser,
                    ("small_faces", "classifier"): self.recogniser.small_faces.classifier}
        unread = {**dict.fromkeys(RECORDS, True), "localiser": {"file"}, "classifier": {"file"},
                  "recogniser": {"live", *(stage for (stage, _), file in optional.items() if not file)}}
        settings = self.model_dump(mode="json", exclude=unread)
        for (stage, key), file in optional.items():
            if file:
                del settings["recogniser"][stage][key]  # a file name, as the two models' are
        digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
        for name in self.files():
            digest.update((folder / name).read_bytes())
        return digest.hexdigest()[:12]


def models_version(folder: Path) -> str:
    """A models folder's version (`VisionFile.version`)."""
    return VisionFile.read(folder).version(folder)


def _where(loc: tuple) -> str:
    """A setting's place in vision.json, as its keys joined by dots (the threshold's is `localiser.conf`)."""
    return "localiser.conf" if tuple(loc) == ("recogniser", "conf") else ".".join(map(str, loc))
