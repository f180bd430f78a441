"""Confirmed photos → a YOLO dataset zip (data.yaml, train/ and val/ with images/ and labels/) that
`fanshot dataset` imports. A photo uploaded more than once is exported once, with its latest confirmation; the
split is by photo, decided by its content hash, so a photo keeps its split as the dataset grows."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps

from api import store
from datasets.classes import CLASS_INDEX
from datasets.export import write_yolo_zip
from datasets.yolo import Box
from datasets.yolo import Example as YoloExample

EXIF_ORIENTATION = 0x0112
VAL_SHARE = 0.1  # of the photos, at least one once there are two


def yolo_boxes(tiles: Iterable[dict[str, Any]], width: int, height: int) -> tuple[Box, ...]:
    """Pixel boxes [x1, y1, x2, y2] of an image `width`×`height` → normalised YOLO boxes, clipped to it."""
    boxes = []
    for tile in tiles:
        x1, y1, x2, y2 = tile["box"]
        x1, x2 = (min(max(x / width, 0.0), 1.0) for x in (x1, x2))
        y1, y2 = (min(max(y / height, 0.0), 1.0) for y in (y1, y2))
        boxes.append(Box(CLASS_INDEX[tile["code"]], (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1))
    return tuple(boxes)


def upright_image(path: Path, scratch: Path) -> Path:
    """The photo in the frame its boxes use (EXIF orientation applied): `path` itself when already upright,
    else an upright copy in `scratch`. Phones store most portrait shots rotated, flagged by EXIF only."""
    image = Image.open(path)
    if image.getexif().get(EXIF_ORIENTATION, 1) == 1:
        return path
    upright = scratch / f"{path.stem}.jpg"
    ImageOps.exif_transpose(image).convert("RGB").save(upright, "JPEG", quality=95)
    return upright


def labelled(example: store.Example, scratch: Path) -> YoloExample:
    size = example.recognition["image"]
    boxes = yolo_boxes(example.confirmation["tiles"], size["width"], size["height"])
    return YoloExample(upright_image(example.image, scratch), boxes)


def content_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def split_by_photo(examples: Iterable[store.Example]) -> dict[str, list[store.Example]]:
    """One example per distinct photo (the last of each: examples come oldest confirmation first), split into
    train and val by content hash; a single photo is a flat dataset (trained and validated on)."""
    latest = {content_hash(example.image): example for example in examples}
    if len(latest) < 2:
        return {"": list(latest.values())}
    ranked = sorted(latest, key=lambda digest: int(digest[:15], 16))  # a uniform draw per photo
    val = {digest for digest in ranked if int(digest[:15], 16) < VAL_SHARE * 16**15} or {ranked[0]}
    return {"train": [latest[digest] for digest in sorted(latest) if digest not in val],
            "val": [latest[digest] for digest in sorted(val)]}


def export_yolo_zip(examples: Iterable[store.Example], out: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        write_yolo_zip(out, {split: [labelled(example, Path(scratch)) for example in chosen]
                             for split, chosen in split_by_photo(examples).items()})
