"""Confirmed photos → a YOLO dataset zip (data.yaml, images/, labels/) that `fanshot dataset` imports."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO

from PIL import Image, ImageOps

from api.store import Example
from datasets.yolo import Box, format_data_yaml, format_labels
from scoring.tiles import DETECTOR_CLASSES

EXIF_ORIENTATION = 0x0112


def upright(photo: bytes, suffix: str) -> tuple[bytes, str]:
    """The photo as its boxes see it, EXIF orientation applied; upright photos pass through untouched."""
    image = Image.open(io.BytesIO(photo))
    if image.getexif().get(EXIF_ORIENTATION, 1) == 1:
        return photo, suffix
    buffer = io.BytesIO()
    ImageOps.exif_transpose(image).convert("RGB").save(buffer, "JPEG", quality=95)
    return buffer.getvalue(), ".jpg"


def yolo_boxes(tiles: Iterable[dict[str, Any]], width: int, height: int,
               names: Sequence[str] = DETECTOR_CLASSES) -> list[Box]:
    """Pixel boxes [x1, y1, x2, y2] of an image `width`×`height` → normalised YOLO boxes, clipped to it."""
    boxes = []
    for tile in tiles:
        x1, y1, x2, y2 = tile["box"]
        x1, x2 = (min(max(x / width, 0.0), 1.0) for x in (x1, x2))
        y1, y2 = (min(max(y / height, 0.0), 1.0) for y in (y1, y2))
        boxes.append(Box(names.index(tile["code"]), (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1))
    return boxes


def write_yolo_zip(examples: Iterable[Example], out: BinaryIO) -> int:
    """Write the zip to `out`; returns the number of examples in it."""
    count = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.yaml", format_data_yaml(DETECTOR_CLASSES, [""]))
        for example in examples:
            name = example.recognition["id"]
            photo, suffix = upright(example.image.read_bytes(), example.image.suffix)
            size = example.recognition["image"]
            boxes = yolo_boxes(example.confirmation["tiles"], size["width"], size["height"])
            archive.writestr(f"images/{name}{suffix}", photo, compress_type=zipfile.ZIP_STORED)
            archive.writestr(f"labels/{name}.txt", format_labels(boxes))
            count += 1
    return count
