"""Confirmed photos → a YOLO dataset zip (data.yaml, images/, labels/) that `fanshot dataset import` reads,
streamed: each photo is read from the image store, added, and its bytes of the zip sent before the next is
read, so the answer starts at once and nothing but one photo is held, however many there are."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any

from PIL import Image, ImageOps

from api import store
from api.images import ImageStore
from datasets.classes import CLASS_INDEX, CLASSES
from datasets.yolo import Box, format_data_yaml, format_labels

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


def upright_photo(photo: bytes, name: str) -> tuple[bytes, str]:
    """The photo in the frame its boxes use (EXIF orientation applied), and its file name: itself when already
    upright, else an upright JPEG copy. Phones store most portrait shots rotated, flagged by EXIF only."""
    image = Image.open(io.BytesIO(photo))
    if image.getexif().get(EXIF_ORIENTATION, 1) == 1:
        return photo, name
    upright = io.BytesIO()
    ImageOps.exif_transpose(image).convert("RGB").save(upright, "JPEG", quality=95)
    return upright.getvalue(), f"{PurePath(name).stem}.jpg"


class Outbox(io.RawIOBase):
    """A write-only, unseekable file whose written bytes are taken out as they come (zipfile writes a
    streamable zip to it: sizes after each member instead of seeking back)."""

    def __init__(self) -> None:
        self._written = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:
        self._written += data
        return len(data)

    def take(self) -> bytes:
        taken = bytes(self._written)
        self._written.clear()
        return taken


def yolo_zip_stream(examples: Iterable[store.Example], images: ImageStore) -> Iterator[bytes]:
    """The zip's bytes, a photo at a time; a photo missing from the image store stops it with FileNotFoundError."""
    outbox = Outbox()
    with zipfile.ZipFile(outbox, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.yaml", format_data_yaml(CLASSES, [""]))
        for example in examples:
            photo = images.get(example.image_file)
            if photo is None:
                raise FileNotFoundError(f"the image store has no {example.image_file}")
            photo, name = upright_photo(photo, example.image_file)
            size = example.recognition["image"]
            boxes = yolo_boxes(example.confirmation["tiles"], size["width"], size["height"])
            archive.writestr(f"images/{name}", photo, zipfile.ZIP_STORED)
            archive.writestr(f"labels/{PurePath(name).stem}.txt", format_labels(boxes))
            yield outbox.take()
    yield outbox.take()  # the central directory
