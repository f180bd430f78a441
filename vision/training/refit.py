"""Refit the shipped classifier's last layer on varied training data (issue 10), on CPU, without torch: real
training photos, randomised renders (red fives, blank 白, distractors), web-crop rows, close-ups, small tiles and
photos of clutter with no tile at all. It is `fanshot adapt`'s refit (vision/training/adapt.py) at a larger scale: the
localiser's boxes on what is not a labelled tile (distractors, clutter) teach the `NOT_A_TILE` class, which lets
the localiser's threshold go lower without reading those boxes as tiles.

The pull towards the base weights, whether `NOT_A_TILE` is learnt at all and the localiser's threshold are chosen
by reading photos the layer was not fitted on: the `valid` sets (never fitted; a choice must read them no worse
than the base models do) and the `tune` sets (held out of the fit while choosing, fitted afterwards)."""

from __future__ import annotations

import hashlib
import pickle
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import onnx

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.yolo import read_names, split_names
from fanshot.vision.config import VisionFile
from fanshot.vision.evaluation.evaluate import manifest_entries
from fanshot.vision.recogniser import NOT_A_TILE, Recogniser
from fanshot.vision.training.adapt import (
    Head,
    Photo,
    base_head,
    embedding_session,
    figures,
    fit_head,
    photo_features,
    read_photo_codes,
    split_photos,
    stack,
    write_classifier,
)

# Far fewer training crops per tile than adapt's: here the tiles are thousands, and every crop costs a trunk pass.
LABEL_JITTERS = 2
FOUND_JITTERS = 1
STRENGTHS = (0.01, 0.1)  # 1.0 read the tune sets as 0.1 did, and cost a fit
CONFS = (0.2, 0.3, 0.4, 0.5, 0.55, 0.6)
SEED = 0

Labels = list[tuple[str, np.ndarray]]  # (code, normalised [x1, y1, x2, y2])
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Setting:
    strength: float
    negatives: bool  # learn NOT_A_TILE from the localiser's boxes on no labelled tile
    base_tile_rows: bool  # keep the base's rows of the tiles: only the NOT_A_TILE row is refitted
    conf: float


def manifest_photos(manifest: Path) -> list[tuple[Path, Labels]]:
    """The photos of an evaluation manifest, which has no boxes: a photo of no tile (clutter) or of one tile
    filling the frame (a close-up); a manifest photo of several tiles cannot say where each one is."""
    photos = []
    for image, codes, backs in manifest_entries(manifest):
        if len(codes) + backs > 1:
            raise DatasetError(f"{manifest}: {image.name} has {len(codes) + backs} tiles and no boxes; only photos "
                               "of one tile or none can be refitted on")
        photos.append((image, [(code, np.array([0.0, 0.0, 1.0, 1.0])) for code in codes]))
    return photos


def source_photos(path: Path) -> list[tuple[Path, Labels]]:
    """The photos of a source: a manifest (.jsonl), a YOLO folder (every split) or one split folder of it."""
    if path.suffix == ".jsonl":
        return manifest_photos(path)
    if (path / "data.yaml").is_file():
        names = read_names(path)
        return [photo for split in split_names(path) for photo in split_photos(path / split, names)]
    if (path.parent / "data.yaml").is_file() and (path / "images").is_dir():
        return split_photos(path, read_names(path.parent))
    raise DatasetError(f"{path}: neither a manifest (.jsonl), a YOLO folder with data.yaml nor a split folder of one")


def sample(photos: list, most: int | None, seed: int = SEED) -> list:
    """At most `most` of the photos, drawn at random (seeded), in their order."""
    if most is None or len(photos) <= most:
        return photos
    return [photos[i] for i in sorted(np.random.default_rng(seed).choice(len(photos), most, replace=False))]


@dataclass
class Reader:
    """What reading a photo for the refit needs: the base models, their last layer and the trunk's features."""

    base_dir: Path

    def __post_init__(self) -> None:
        self.meta = VisionFile.read(self.base_dir)
        self.models = Recogniser.load(self.base_dir)
        self.classifier = onnx.load(str(self.base_dir / self.meta.classifier.file))
        self.base = base_head(self.classifier, self.models.codes)
        self.embed = embedding_session(self.classifier)
        digest = hashlib.sha1()
        for name in self.meta.files():
            digest.update((self.base_dir / name).read_bytes())
        self.tag = digest.hexdigest()[:10]  # a cache holds the features of these models only

    def photos(self, path: Path, most: int | None, train: bool, cache: Path | None,
               progress: Progress) -> list[Photo]:
        """The photos of a source as the refit sees them (with training crops when `train`), cached by source."""
        chosen = sample(source_photos(path), most)
        key = f"{'_'.join(path.resolve().parts[1:])}-{len(chosen)}-{'train' if train else 'read'}-{self.tag}.pkl"
        if cache and (cache / key).is_file():
            return pickle.loads((cache / key).read_bytes())
        rng, started, photos = np.random.default_rng(SEED), time.perf_counter(), []
        jitters = (LABEL_JITTERS, FOUND_JITTERS) if train else (0, 0)
        for number, (image, labels) in enumerate(chosen, 1):
            photos.append(photo_features(image, labels, self.models, self.embed, self.base, rng,
                                         label_jitters=jitters[0], found_jitters=jitters[1]))
            if number % 50 == 0 or number == len(chosen):
                progress(f"{path}: {number} of {len(chosen)} photos, {time.perf_counter() - started:.0f} s")
        if cache:
            cache.mkdir(parents=True, exist_ok=True)
            (cache / key).write_bytes(pickle.dumps(photos))
        return photos


def with_base_tile_rows(base: Head, fitted: Head) -> Head:
    """The base layer with `fitted`'s NOT_A_TILE row: it reads every tile as the base does, and turns down what
    the refit learnt is not a tile. (The refits of the tile rows read real valid photos a little worse.)"""
    row = base.classes.index(NOT_A_TILE)
    weight, bias = base.weight.copy(), base.bias.copy()
    weight[row], bias[row] = fitted.weight[row], fitted.bias[row]
    return Head(weight, bias, base.classes)


def set_score(photos: Sequence[Photo], head: Head, conf: float) -> dict[str, float]:
    """`figures` of one set read with this layer and threshold, with `score`: the tile F1, or on a set with no
    tile (clutter) the share of photos read as empty."""
    result = figures([p.truth for p in photos], [read_photo_codes(p, head, conf) for p in photos])
    has_tiles = any(p.truth for p in photos)
    return {**result, "score": result["f1"] if has_tiles else result["exact_photos"] / max(len(photos), 1)}


def read_sets(sets: dict[str, Sequence[Photo]], head: Head, conf: float) -> dict[str, dict[str, float]]:
    return {name: set_score(photos, head, conf) for name, photos in sets.items()}


def _rank(setting_reads: dict[str, dict[str, float]], valid: Sequence[str], tune: Sequence[str],
          base_reads: dict[str, dict[str, float]]) -> tuple[bool, float, float]:
    """How good a setting's reading is: whether every valid set reads no worse than with the base models, then
    the mean score over the tune sets, then the mean over the valid sets."""
    keeps_valid = all(setting_reads[name]["score"] >= base_reads[name]["score"] for name in valid)
    mean = lambda names: float(np.mean([setting_reads[n]["score"] for n in names])) if names else 0.0  # noqa: E731
    return keeps_valid, mean(tune), mean(valid)


def choose(fit: Sequence[Photo], valid: dict[str, Sequence[Photo]], tune: dict[str, Sequence[Photo]], base: Head,
           base_conf: float, progress: Progress) -> tuple[Setting, dict]:
    """The setting whose layer, fitted on `fit`, reads the valid and tune sets best (`_rank`), with every
    setting's reading of them and the base models'."""
    sets = {**valid, **tune}
    base_reads = read_sets(sets, base, base_conf)
    not_a_tile = base.classes.index(NOT_A_TILE)
    trials, best = [], None
    for strength in STRENGTHS:
        for negatives in (True, False):
            fitted = fit_head(base, *stack(fit, None if negatives else not_a_tile), strength)
            heads = {False: fitted, True: with_base_tile_rows(base, fitted)} if negatives else {False: fitted}
            for base_tile_rows, head in heads.items():
                for conf in CONFS:
                    setting = Setting(strength, negatives, base_tile_rows, conf)
                    reads = read_sets(sets, head, conf)
                    rank = _rank(reads, list(valid), list(tune), base_reads)
                    trials.append({"setting": setting.__dict__, "rank": rank,
                                   "scores": {name: round(r["score"], 4) for name, r in reads.items()}})
                    if best is None or rank > best[0]:
                        best = (rank, setting)
            progress(f"chose among {len(trials)} settings; best so far {best[1]} {best[0]}")
    assert best is not None
    return best[1], {"base": {name: round(r["score"], 4) for name, r in base_reads.items()}, "trials": trials}


def refit(fit_sources: Sequence[Path], tune_sources: Sequence[Path], valid_sources: Sequence[Path], out: Path,
          base_dir: Path, *, most: int | None = None, cache: Path | None = None, progress: Progress | None = None,
          command: str = "") -> dict:
    """Write to `out` a models folder whose classifier's last layer is refitted on the fit and tune sources (at
    most `most` photos of each), with the setting `choose` takes; returns the `refit` record of its vision.json."""
    started = time.perf_counter()
    report = progress or (lambda message: None)
    if out.resolve() == base_dir.resolve():
        raise ValueError(f"--out {out} is the base models folder; write the refitted models elsewhere and compare")
    if not fit_sources:
        raise ValueError("name at least one source to fit on (--fit)")
    reader = Reader(base_dir)
    read = lambda paths, train: {str(p): reader.photos(p, most, train, cache, report) for p in paths}  # noqa: E731
    fit, tune, valid = read(fit_sources, True), read(tune_sources, True), read(valid_sources, False)
    fit_photos = [photo for photos in fit.values() for photo in photos]
    setting, trials = choose(fit_photos, valid, tune, reader.base, reader.models.config.conf, report)
    all_photos = fit_photos + [photo for photos in tune.values() for photo in photos]
    not_a_tile = reader.base.classes.index(NOT_A_TILE)
    final = fit_head(reader.base, *stack(all_photos, None if setting.negatives else not_a_tile), setting.strength)
    final = with_base_tile_rows(reader.base, final) if setting.base_tile_rows else final
    out.mkdir(parents=True, exist_ok=True)
    meta = reader.meta
    for name in meta.files():  # the localiser (and a second look's) as the base's
        if name != meta.classifier.file:
            shutil.copyfile(base_dir / name, out / name)
    write_classifier(reader.classifier, final, out / meta.classifier.file)
    record = {
        "base": str(base_dir), "photos": {name: len(photos) for name, photos in {**fit, **tune, **valid}.items()},
        "rows": int(sum(len(p.train_targets) for p in all_photos)), "setting": setting.__dict__,
        "valid": {name: read for name, read in read_sets(valid, final, setting.conf).items()},
        "choice": trials, "seconds": round(time.perf_counter() - started, 1),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    meta.with_classifier(list(final.classes), setting.conf).model_copy(
        update={"training": (*meta.training, *([command] if command else [])), "refit": record}).write(out)
    return record
