"""Fine-tune the whole localiser on a user's labelled photos, for `fanshot adapt` where the `train` extra (torch,
ultralytics) is installed (docs/API.md "Adapting to a user's tile set").

The labels are first put in the localiser's own box convention. A user boxes a tile as they see it, often with
its body; the localiser boxes the face, and the classifier was trained on the crops it cuts. Trained on the
user's boxes as drawn, the localiser moved every box and the classifier's reading of the crops fell from 0.975
to 0.84-0.89 (models/EXPERIMENTS.md, 2026-12-04 evening). So a tile the shipped localiser finds keeps that box,
and a tile it misses gets the user's box moved by the median offsets of the tiles it found."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path

import cv2
import numpy as np

from fanshot.datasets.yolo import format_data_yaml, read_names, read_split
from fanshot.scoring.tiles import BACK
from fanshot.vision.geometry import iou
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import Recogniser
from fanshot.vision.training.matching import match_labels

Labels = list[tuple[str, np.ndarray]]  # (code, normalised [x1, y1, x2, y2])
LabelledPhoto = tuple[Path, Labels]
Progress = Callable[[float, str], None]
CONVENTION_CONF = 0.25  # the shipped localiser's boxes kept as training boxes: the user's label confirms them
# Scattered standing tiles, which a user's photos may not show, replayed in each fit (`FineTuning.replay`):
# `fanshot synth --scatter --n 40 --seed 7501` (a seed no set uses), rendered once into the cache.
REPLAY_SEED, REPLAY_RENDERS = 7501, 40
# Tiles pasted standing apart (`FineTuning.paste`, `paste_tiles`): scaled as a tile nearer or farther, cut with a
# margin of their box so that their edges come along (models/experiments/2026-12-06-adaptation-to-095.md)
PASTE_SCALES, PASTE_MARGIN, PASTE_TRIES, PASTE_SEED = (0.6, 1.3), 0.1, 50, 7502


@dataclass(frozen=True)
class FineTuning:
    """The localiser's fine-tuning, chosen by cross-validation within the photos of one user's set (leo's 19,
    folds of 10 against 9; models/EXPERIMENTS.md). Steps scale with the photos: `passes` photo passes in all,
    so a fold of 10 photos and the final fit on 19 train as long."""

    passes: int = 400
    min_epochs: int = 10
    lr0: float = 0.0005
    batch: int = 8
    degrees: float = 5.0  # small turns: a phone is held almost level; never flips (mirrored tiles are no tiles)
    freeze: int = 0  # leading layers kept as shipped
    # The judging folds' share of `passes`: a judge weaker than the final fit only errs towards keeping the base.
    # Half: leo's 19 photos adapt in 202 s against 273 s, the same verdict and figures (2 seeds of 10 too).
    judging_passes: float = 0.5
    replay: int = 0  # scattered renders (REPLAY_SEED) trained on beside the photos in each fit, at most REPLAY_RENDERS
    # tiles of the other photos pasted into each photo (`paste_tiles`), which it replaces in the fit: leo's held-out
    # photos with 6 tiles pasted read 0.943 → 0.983, as they are 0.975 → 0.981 (2 seeds, 10 adapted, same seconds)
    paste: int = 6

    def epochs(self, photos: int) -> int:
        return max(self.min_epochs, round(self.passes / max(photos, 1)))

    def for_judging(self) -> FineTuning:
        """The settings of a judging fold's fit: `judging_passes` of the passes."""
        return replace(self, passes=max(1, round(self.passes * self.judging_passes)), judging_passes=1.0)


FINE_TUNING = FineTuning()


def fine_tuning_from(pairs: Sequence[str], base: FineTuning | None = None) -> FineTuning:
    """`base` (default FINE_TUNING) with each KEY=VALUE of `pairs` set (an experiment's arm, e.g. `freeze=10`);
    a ValueError names a bad pair and the keys there are."""
    types = {field.name: type(getattr(FINE_TUNING, field.name)) for field in fields(FineTuning)}
    changes = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in types or not value:
            raise ValueError(f"fine tuning {pair!r}: write KEY=VALUE, KEY one of {', '.join(types)}")
        try:
            changes[key] = types[key](value)
        except ValueError:
            raise ValueError(f"fine tuning {pair!r}: {key} takes a {types[key].__name__}") from None
    settings = replace(base or FINE_TUNING, **changes)
    if not 0 <= settings.replay <= REPLAY_RENDERS:
        raise ValueError(f"fine tuning replay={settings.replay}: between 0 and {REPLAY_RENDERS} renders")
    if settings.paste < 0:
        raise ValueError(f"fine tuning paste={settings.paste}: 0 (none) or more tiles a photo")
    return settings


def replay_folder(cache: Path | None = None) -> Path:
    """The YOLO folder of the REPLAY_RENDERS scattered renders, rendered into `cache` (default: `replay` beside
    the art cache) on first use, in the training art, as `fanshot synth --scatter` draws it."""
    from fanshot.datasets.synth.art import DEFAULT_CACHE

    folder = (cache or DEFAULT_CACHE.parent / "replay") / f"scatter-{REPLAY_SEED}-n{REPLAY_RENDERS}"
    if not (folder / "data.yaml").is_file():
        from fanshot.datasets.synth.dataset import synth_dataset

        partial = folder.with_name(f"{folder.name}.partial")  # renamed when whole: a stopped run renders again
        shutil.rmtree(partial, ignore_errors=True)
        art = DEFAULT_CACHE if (DEFAULT_CACHE / "faces").is_dir() else None
        synth_dataset(partial, REPLAY_RENDERS, REPLAY_SEED, art, workers=1, scatter=True)
        partial.rename(folder)
    return folder


def replay_photos(count: int, folder: Path) -> list[LabelledPhoto]:
    """The first `count` renders of `folder` with their labels: renders box the face already, as the localiser
    was trained on them, so they need no `in_localiser_convention`."""
    names = read_names(folder)
    return [(example.image, [(names[b.cls], np.array([b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2,
                                                      b.cy + b.h / 2])) for b in example.boxes])
            for example in read_split(folder, len(names))[:count]]


def available() -> bool:
    """Whether the `train` extra is installed, so that the localiser can be fine-tuned here."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "ultralytics"))


def box_offsets(pairs: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The median move of each side, (found − labelled) / the label's width or height, over (label, found)
    pairs of boxes in pixels; zero without pairs."""
    if not pairs:
        return np.zeros(4)
    moves = [(found - label) / np.tile(label[2:] - label[:2], 2) for label, found in pairs]
    return np.median(np.array(moves), axis=0)


def in_localiser_convention(photos: Sequence[LabelledPhoto], base: Recogniser) -> list[LabelledPhoto]:
    """The photos with each label in the localiser's box convention (the module's docstring says why): the
    base localiser's box where it finds the tile (`match_labels`), else the label moved by `box_offsets`."""
    found_boxes: list[dict[int, np.ndarray]] = []
    sizes: list[np.ndarray] = []
    for path, labels in photos:
        image = load_photo(path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
        size = np.array([image.shape[1], image.shape[0]] * 2, dtype=np.float64)
        truth = np.array([box for _, box in labels]).reshape(-1, 4) * size
        found = base.localise(image, CONVENTION_CONF)
        claims = match_labels(found.boxes, found.scores, truth)
        found_boxes.append({int(claim): found.boxes[i] / size for i, claim in enumerate(claims) if claim >= 0})
        sizes.append(size)
    offsets = box_offsets([(box * size, found[j] * size) for (_, labels), found, size
                           in zip(photos, found_boxes, sizes, strict=True)
                           for j, (_, box) in enumerate(labels) if j in found])
    return [(path, [(code, np.clip(found.get(j, box + offsets * np.tile(box[2:] - box[:2], 2)), 0, 1))
                    for j, (code, box) in enumerate(labels)])
            for (path, labels), found in zip(photos, found_boxes, strict=True)]


@dataclass(frozen=True)
class CutTile:
    """A labelled tile cut from its photo with PASTE_MARGIN of its box more each way (its edges come along)."""

    code: str
    pixels: np.ndarray
    box: np.ndarray  # x1, y1, x2, y2 of the tile in `pixels`


def cut_tiles(image: np.ndarray, labels: Labels) -> list[CutTile]:
    """The photo's labelled tiles, cut for pasting (`CutTile`); a box with no pixels in the photo is left out."""
    size = np.array([image.shape[1], image.shape[0]] * 2, dtype=np.float64)
    tiles = []
    for code, box in labels:
        tile = box * size
        margin = PASTE_MARGIN * np.tile(tile[2:] - tile[:2], 2) * [-1, -1, 1, 1]
        x1, y1, x2, y2 = np.clip(np.round(tile + margin), 0, size).astype(int)
        if x2 > x1 and y2 > y1:
            tiles.append(CutTile(code, image[y1:y2, x1:x2].copy(), tile - [x1, y1, x1, y1]))
    return tiles


def paste_tiles(image: np.ndarray, labels: Labels, tiles: Sequence[CutTile], count: int,
                rng: np.random.Generator) -> tuple[np.ndarray, Labels]:
    """A copy of the photo with up to `count` of the tiles (cut from other photos) pasted standing apart, and its
    labels with theirs: each scaled by PASTE_SCALES and put, within PASTE_TRIES draws, where it overlaps no labelled
    or pasted tile, no higher than a tile above the photo's own (a table, not the wall behind it)."""
    height, width = image.shape[:2]
    scale_to = np.array([width, height, width, height], dtype=np.float64)
    pasted, labels = image.copy(), list(labels)
    taken = [box * scale_to for _, box in labels]
    lowest_top = max(0, int(min((box[1] - (box[3] - box[1]) for box in taken), default=0.0)))
    for _ in range(count if tiles else 0):
        tile = tiles[rng.integers(len(tiles))]
        scale = rng.uniform(*PASTE_SCALES)
        cut_height, cut_width = (max(1, round(side * scale)) for side in tile.pixels.shape[:2])
        if cut_width >= width or cut_height >= height - lowest_top:
            continue
        for _ in range(PASTE_TRIES):
            x, y = int(rng.integers(0, width - cut_width + 1)), int(rng.integers(lowest_top, height - cut_height + 1))
            place = np.array([x, y, x + cut_width, y + cut_height], dtype=np.float64)
            if not taken or not iou(place, np.array(taken)).any():
                break
        else:
            continue
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        pasted[y:y + cut_height, x:x + cut_width] = cv2.resize(tile.pixels, (cut_width, cut_height),
                                                               interpolation=interpolation)
        taken.append(place)
        labels.append((tile.code, np.clip((tile.box * scale + [x, y, x, y]) / scale_to, 0, 1)))
    return pasted, labels


def pasted_photos(photos: Sequence[LabelledPhoto], count: int, out: Path,
                  seed: int = PASTE_SEED) -> list[LabelledPhoto]:
    """Each photo with `count` tiles of the other photos pasted (`paste_tiles`), written to `out` as JPEG. Only the
    cut tiles are held, not the photos: a user's confirmed photos may be many."""
    out.mkdir(parents=True, exist_ok=True)

    def photo(path: Path) -> np.ndarray:
        return load_photo(path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)

    tiles = [cut_tiles(photo(path), labels) for path, labels in photos]
    written = []
    for number, (path, labels) in enumerate(photos):
        others = [tile for k, cut in enumerate(tiles) if k != number for tile in cut]
        pasted, with_pasted = paste_tiles(photo(path), labels, others, count, np.random.default_rng([seed, number]))
        target = out / f"{number:04d}-{path.stem}.jpg"
        cv2.imwrite(str(target), cv2.cvtColor(pasted, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95])
        written.append((target, with_pasted))
    return written


def write_localiser_dataset(photos: Sequence[LabelledPhoto], root: Path, classes: Sequence[str]) -> Path:
    """A flat face/back YOLO folder of the photos (linked) for ultralytics, which then validates on them too (the
    run keeps its last weights; nothing is chosen on val); returns its data.yaml."""
    back = classes.index(BACK)
    face = next(i for i, name in enumerate(classes) if name != BACK)
    for folder in ("images", "labels"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    for number, (path, labels) in enumerate(photos):
        image = root / "images" / f"{number:04d}{path.suffix.lower()}"
        image.symlink_to(path.resolve())
        lines = [f"{back if code == BACK else face} {(x1 + x2) / 2:.6f} {(y1 + y2) / 2:.6f} {x2 - x1:.6f} "
                 f"{y2 - y1:.6f}\n" for code, (x1, y1, x2, y2) in labels]
        (root / "labels" / f"{image.stem}.txt").write_text("".join(lines), encoding="ascii")
    data = root / "data.yaml"
    data.write_text(format_data_yaml(classes, [""]), encoding="utf-8")
    return data


def finetune_localiser(photos: Sequence[LabelledPhoto], localiser: Path, classes: Sequence[str], imgsz: int,
                       scratch: Path, out: Path, *, settings: FineTuning | None = None,
                       progress: Progress | None = None) -> Path:
    """Fine-tune the `localiser` ONNX model (every layer but `settings.freeze`) on the photos, whose labels are in
    its box convention (`in_localiser_convention`), and `settings.replay` scattered renders (`replay_folder`), by
    `settings` (default FINE_TUNING, read at call time; its epochs count the photos only); writes the ONNX export
    to `out` and returns it."""
    from fanshot.vision.training.train import COMMON_ARGS, checkpoint_from_onnx, configure_ultralytics, export

    report, settings = progress or (lambda fraction, message: None), settings or FINE_TUNING
    os.environ.setdefault("YOLO_VERBOSE", "False")  # the adaptation reports its own progress; read at import
    replayed = replay_photos(settings.replay, replay_folder()) if settings.replay else []
    if settings.paste:
        photos = pasted_photos(photos, settings.paste, scratch / "pasted")
    data = write_localiser_dataset([*photos, *replayed], scratch / "data", classes)
    configure_ultralytics(scratch / "ultralytics-config")
    from ultralytics import YOLO

    images = sorted((scratch / "data" / "images").iterdir())
    init = checkpoint_from_onnx(localiser, images, scratch / "init.pt", names=classes)
    epochs = settings.epochs(len(photos))
    model = YOLO(str(init))
    model.add_callback("on_train_epoch_end",
                       lambda trainer: report((trainer.epoch + 1) / epochs,
                                              f"localiser epoch {trainer.epoch + 1} of {epochs}"))
    with contextlib.redirect_stdout(sys.stderr):  # ultralytics' own bars: stdout stays the command's (--json)
        model.train(data=str(data), project=str(scratch.resolve()), name="localiser", epochs=epochs, imgsz=imgsz,
                    batch=settings.batch, lr0=settings.lr0, warmup_epochs=0, freeze=settings.freeze or None,
                    degrees=settings.degrees, close_mosaic=max(1, epochs // 5), val=False, cache="ram", workers=0,
                    device="cpu", **COMMON_ARGS)
        return export(scratch / "localiser" / "weights" / "last.pt", out, imgsz, dynamic=False, runs=scratch)[0]
