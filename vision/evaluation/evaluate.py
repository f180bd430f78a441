"""`fanshot eval`: run a `Recogniser` over an evaluation manifest (docs/API.md) or a YOLO folder and score it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from fanshot.datasets.classes import CLASSES, unknown_names
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import read_as_imported
from fanshot.datasets.progress import progress
from fanshot.datasets.yolo import Example, read_names, split_names
from fanshot.scoring.tiles import BACK, parse, to_string
from fanshot.vision.config import Layout
from fanshot.vision.evaluation.breakdown import Reading, places
from fanshot.vision.evaluation.metrics import (
    COCO_THRESHOLDS,
    Boxes,
    matched,
    mean_ap,
    multiset_scores,
    scores_by_width,
    stage_scores,
)
from fanshot.vision.image import RECOGNITION_MAX_SIDE, Original, load_photo
from fanshot.vision.layout import group_tiles, place_hand, propose_hand
from fanshot.vision.recogniser import Recogniser


def read_photo(path: Path, recogniser: Recogniser) -> tuple[dict, float]:
    """Recognition result of a photo file (docs/API.md's JSON shape), read as serving reads an upload, and the
    milliseconds it took, decoding included."""
    start = time.perf_counter()
    data = path.read_bytes()
    result = recogniser(load_photo(data, max_side=RECOGNITION_MAX_SIDE, of_a_hand=True), Original(data))
    return result.as_dict(), (time.perf_counter() - start) * 1000


def manifest_entries(manifest: Path) -> Iterator[tuple[Path, list[str], int]]:
    """(image path, face-up codes, backs) per manifest line; image paths are relative to the manifest."""
    for line in manifest.read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            yield (manifest.parent / entry["image"], parse(entry["tiles"], allow_flowers=True),
                   int(entry.get("backs", 0)))


def split_backs(codes: list[str]) -> tuple[list[str], int]:
    return [code for code in codes if code != BACK], codes.count(BACK)


HandView = tuple[str, tuple[tuple[str, str, bool], ...], str]


def hand_view(hand: dict) -> HandView:
    """What a photo can show of a score-request hand, order-free: the standing tiles, the melds (kind, tiles,
    concealed) and the flowers. Who fed a meld, added kongs and the winning tile are not visible."""
    melds = sorted((m["kind"], to_string(parse(m["tiles"])), bool(m.get("concealed"))) for m in hand.get("melds", []))
    return (to_string(parse(hand.get("concealed", ""))), tuple(melds),
            to_string(parse(hand.get("flowers", ""), allow_flowers=True)))


def read_sidecar(image: Path) -> dict:
    """A rendered photo's `fanshot synth` sidecar (IMAGE.json), or {}."""
    sidecar = image.with_suffix(".json")
    return json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.is_file() else {}


def true_hand(image: Path) -> dict | None:
    """The hand a rendered photo shows, from its sidecar, if it has one and the photo shows all of it (a
    randomised close-up shows a few of its tiles)."""
    meta = read_sidecar(image)
    if not meta or meta.get("variants", {}).get("framing") == "closeup":
        return None
    return meta["request"]["hand"]


# Tiles that `fanshot synth --randomise` draws differently, scored apart: (variant key, value) -> codes.
VARIANT_CODES = {("fives", "red"): ("5m", "5p", "5s"), ("white", "blank"): ("5z",), ("white", "framed"): ("5z",)}


def variant_counts(variants: dict, found: list[str], truth: list[str]) -> dict[str, tuple[int, int]]:
    """Per drawn variant of a photo (e.g. `fives=red`): (its tiles read right, its true tiles)."""
    counts = {}
    for (key, value), codes in VARIANT_CODES.items():
        if variants.get(key) == value:
            mine = [code for code in truth if code in codes]
            counts[f"{key}={value}"] = (matched([code for code in found if code in codes], mine), len(mine))
    return counts


def layout_hand(boxes: np.ndarray, codes: list[str], layout: Layout) -> dict:
    """The hand the layout proposes for tiles at these boxes: what the recogniser does after reading them."""
    return propose_hand(group_tiles(boxes, codes, layout), codes)


@dataclass
class Tally:
    """Per-photo tile multisets, exact matches and times, summarised as `fanshot eval` reports them."""

    pairs: list[tuple[list[str], list[str]]] = field(default_factory=list)
    exact: list[bool] = field(default_factory=list)
    millis: list[float] = field(default_factory=list)
    false: list[int] = field(default_factory=list)  # tiles found beyond the photo's true ones, backs included
    variants: dict[str, list[int]] = field(default_factory=dict)  # variant -> [read right, true]
    hands: list[bool] = field(default_factory=list)  # proposed hand right, where the true hand is known
    layouts: list[bool] = field(default_factory=list)  # the same from the true boxes and codes: layout alone

    def add(self, result: dict, ms: float, truth: list[str]) -> None:
        """`truth`: the photo's true codes, backs included."""
        faces, backs = split_backs([tile["code"] for tile in result["tiles"]])
        true_faces, true_backs = split_backs(truth)
        self.pairs.append((faces, true_faces))
        self.false.append(len(faces) - matched(faces, true_faces) + max(0, backs - true_backs))
        self.exact.append(sorted(faces) == sorted(true_faces) and backs == true_backs)
        self.millis.append(ms)

    def add_variants(self, result: dict, truth: list[str], variants: dict) -> None:
        """Count the tiles of a randomised photo's drawn variants (red fives, blank or framed white dragons)."""
        for name, (right, total) in variant_counts(variants, [t["code"] for t in result["tiles"]], truth).items():
            tally = self.variants.setdefault(name, [0, 0])
            tally[0] += right
            tally[1] += total

    def add_hand(self, result: dict, truth: dict, labelled: Boxes, layout: Layout) -> None:
        """Score the proposed hand of a photo whose true hand is known, and the layout on its true boxes."""
        expected = hand_view(truth)
        self.hands.append(hand_view(result["hand"]) == expected)
        self.layouts.append(hand_view(layout_hand(labelled.boxes, list(labelled.classes), layout)) == expected)

    def summary(self, photos: bool = False) -> dict:
        """`false_per_photo`: tiles found beyond the true multiset (faces and backs), per photo (on photos with no
        tile, every tile found is false). With `photos`, also each photo's faces found and true and its false
        tiles (`photos`), for a paired comparison (vision/evaluation/choice.py)."""
        hands = {"hands": len(self.hands), "hand_exact": float(np.mean(self.hands)),
                 "layout_exact_on_labels": float(np.mean(self.layouts))} if self.hands else {}
        variants = {f"recall[{name}]": right / total for name, (right, total) in sorted(self.variants.items())
                    if total}
        return {"images": len(self.pairs), **multiset_scores(self.pairs), **variants,
                "false_per_photo": float(np.mean(self.false)) if self.false else 0.0,
                "exact_match": float(np.mean(self.exact)) if self.exact else 0.0,
                "median_ms": float(np.median(self.millis)) if self.millis else 0.0,
                "p95_ms": float(np.percentile(self.millis, 95)) if self.millis else 0.0, **hands,
                **({"photos": [{"found": found, "true": true, "false": false} for (found, true), false
                               in zip(self.pairs, self.false, strict=True)]} if photos else {})}


def found_boxes(result: dict) -> Boxes:
    """The tiles a recognition result reports, as scored `Boxes` in the frame it read."""
    tiles = result["tiles"]
    return Boxes(np.array([t["box"] for t in tiles]).reshape(-1, 4), [t["code"] for t in tiles],
                 np.array([t["confidence"] for t in tiles]))


def evaluate_manifest(manifest: Path, recogniser: Recogniser, photos: bool = False,
                      readings: list[Reading] | None = None) -> dict:
    """`readings`, if given, gets each photo's `Reading` (for `fanshot eval --report`); a manifest has no boxes."""
    tally = Tally()
    entries = list(manifest_entries(manifest))
    for image, truth, backs in progress(entries, f"eval {manifest.parent.name}", len(entries)):
        result, ms = read_photo(image, recogniser)
        tally.add(result, ms, truth + [BACK] * backs)
        if readings is not None:
            readings.append(Reading(image, Boxes(np.zeros((0, 4)), truth + [BACK] * backs), found_boxes(result),
                                    places(result["hand_tiles"], len(result["tiles"])), ms))
    return tally.summary(photos)


def labelled_split(root: Path, split: str) -> list[Example]:
    """One split of a YOLO folder ("" or a missing split: the folder itself) as `fanshot dataset import` reads it:
    another set's class names (a Roboflow export's `sc1`, `bs1`, ...) mapped onto our codes, its shipped
    corrections applied. Names no importer knows are refused, with the fix."""
    if unknown := unknown_names(read_names(root)):
        raise DatasetError(f"{root / 'data.yaml'}: class names {', '.join(map(repr, unknown))} are neither tile "
                           "codes (scoring/tiles.py) nor names `fanshot dataset import` knows; relabel or map them "
                           "(datasets/classes.py), import the folder with `fanshot dataset import SRC DST` and "
                           "evaluate DST")
    return read_as_imported(root)[split if split in split_names(root) else ""]


def evaluate_yolo(root: Path, recogniser: Recogniser, split: str = "test", photos: bool = False,
                  readings: list[Reading] | None = None) -> dict:
    """The manifest metrics plus mAP50 and mAP50-95 of the final boxes (localiser box, classifier code)
    against the labels of one split of a YOLO folder (read as imported, `labelled_split`), the localiser's box
    P/R/F1 and the classifier's accuracy on the boxes it matched (`stage_scores`), and P/R/F1 by the tiles' width
    at the photo's full resolution (`by_width`). Photos with a `fanshot synth` sidecar also score the proposed
    hand (`hand_exact`) and the layout alone on the true boxes (`layout_exact_on_labels`).
    `readings`, if given, gets each photo's `Reading`, its true tiles placed by the layout on their labelled boxes."""
    tally, detections, truths, scales = Tally(), [], [], []
    for example in progress(labelled_split(root, split), f"eval {root.name}"):
        image, boxes = example.image, example.boxes
        result, ms = read_photo(image, recogniser)
        width, height = result["image"]["width"], result["image"]["height"]
        with Image.open(image) as full:  # the header only: the size the photo was taken at
            scales.append(max(full.size) / max(width, height))
        truth = [CLASSES[b.cls] for b in boxes]
        corners = [(b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2) for b in boxes]
        truths.append(Boxes(np.array(corners).reshape(-1, 4) * [width, height, width, height], truth))
        detections.append(found_boxes(result))
        if readings is not None:
            layout = recogniser.config.layout
            readings.append(Reading(image, truths[-1], detections[-1],
                                    places(result["hand_tiles"], len(result["tiles"])), ms, scales[-1],
                                    places(place_hand(group_tiles(truths[-1].boxes, truth, layout), truth),
                                           len(truth))))
        tally.add(result, ms, truth)
        if (hand := true_hand(image)) is not None:
            tally.add_hand(result, hand, truths[-1], recogniser.config.layout)
        if variants := read_sidecar(image).get("variants"):
            tally.add_variants(result, truth, variants)
    return {**tally.summary(photos), "mAP50": mean_ap(detections, truths),
            "mAP50-95": mean_ap(detections, truths, COCO_THRESHOLDS), **stage_scores(detections, truths),
            "by_width": scores_by_width(detections, truths, scales)}


def evaluate_set(path: Path, recogniser: Recogniser, split: str = "test", photos: bool = False,
                 readings: list[Reading] | None = None) -> dict:
    """`evaluate_yolo` for a folder (a YOLO folder with data.yaml), `evaluate_manifest` for a manifest file."""
    if path.is_dir():
        return evaluate_yolo(path, recogniser, split, photos, readings)
    return evaluate_manifest(path, recogniser, photos, readings)
