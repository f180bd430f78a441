"""Confirmed photos → a YOLO dataset zip (data.yaml, images/, labels/) that `fanshot dataset` imports."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps

from api import store
from api.images import ImageStore
from datasets.classes import CLASS_INDEX
from datasets.export import write_yolo_zip
from datasets.yolo import Box
from datasets.yolo import Example as YoloExample

EXIF_ORIENTATION = 0x0112


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


def labelled(example: store.Example, images: ImageStore, scratch: Path) -> YoloExample:
    """The example with its photo fetched from the image store into `scratch`, upright, and its YOLO boxes."""
    size = example.recognition["image"]
    boxes = yolo_boxes(example.confirmation["tiles"], size["width"], size["height"])
    photo = images.get(example.image_file)
    if photo is None:
        raise FileNotFoundError(f"the image store has no {example.image_file}")
    fetched = scratch / "fetched" / example.image_file
    fetched.parent.mkdir(exist_ok=True)
    fetched.write_bytes(photo)
    return YoloExample(upright_image(fetched, scratch), boxes)


def export_yolo_zip(examples: Iterable[store.Example], images: ImageStore, out: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        write_yolo_zip(out, {"": [labelled(example, images, Path(scratch)) for example in examples]})

