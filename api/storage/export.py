"""Confirmed photos → a YOLO dataset zip (data.yaml, train/ and val/ with images/ and labels/) that
`fanshot dataset` imports. A photo uploaded more than once is exported once, with its latest confirmation; the
split is by photo, decided by its content hash, so a photo keeps its split as the dataset grows. Streamed: each
photo is read from the image store, added, and its bytes of the zip sent before the next is read, so the answer
starts at once and nothing but one photo is held, however many there are."""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any

from fanshot.api.storage import store
from fanshot.api.storage.frames import DamagedPhoto, in_frame
from fanshot.api.storage.images import ImageStore
from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.yolo import Box, format_data_yaml, format_labels

VAL_SHARE = 0.1  # of the photos, at least one once there are two


def yolo_boxes(tiles: Iterable[dict[str, Any]], width: int, height: int) -> tuple[Box, ...]:
    """Pixel boxes [x1, y1, x2, y2] of an image `width`×`height` → normalised YOLO boxes, clipped to it. A tile
    without a box (one of the hand that the photo does not show) is no label."""
    boxes = []
    for tile in tiles:
        if tile["box"] is None:
            continue
        x1, y1, x2, y2 = tile["box"]
        x1, x2 = (min(max(x / width, 0.0), 1.0) for x in (x1, x2))
        y1, y2 = (min(max(y / height, 0.0), 1.0) for y in (y1, y2))
        boxes.append(Box(CLASS_INDEX[tile["code"]], (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1))
    return tuple(boxes)


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


def content_hash(example: store.Example, images: ImageStore) -> str | None:
    """The photo's SHA-256: stored with it since migration 0003, read from the image store for older photos
    (None when the store has lost the photo)."""
    if example.photo_sha256:
        return example.photo_sha256
    photo = images.get(example.image_file)
    return None if photo is None else hashlib.sha256(photo).hexdigest()


def stored_photo(example: store.Example, images: ImageStore) -> bytes:
    photo = images.get(example.image_file)
    if photo is None:
        raise FileNotFoundError(f"the image store has no {example.image_file}")
    return photo


def labelled_files(example: store.Example, stored: bytes) -> tuple[tuple[str, bytes], tuple[str, bytes]]:
    """An example as the files of a YOLO split: (images/STEM.jpg or .png, the photo in the frame of its boxes),
    (labels/STEM.txt, its boxes); `stored`: its photo as the image store holds it."""
    size = example.recognition["image"]
    photo, _, suffix = in_frame(stored, size)
    stem = PurePath(example.image_file).stem
    boxes = yolo_boxes(example.confirmation["tiles"], size["width"], size["height"])
    return (f"images/{stem}{suffix}", photo), (f"labels/{stem}.txt", format_labels(boxes).encode("ascii"))


def split_by_photo(examples: Iterable[store.Example], images: ImageStore
                   ) -> tuple[dict[str, list[store.Example]], list[str]]:
    """One example per distinct photo (the last of each: examples come oldest confirmation first), split into
    train and val by content hash; a single photo is a flat dataset (trained and validated on). Also the image
    files that an older example's hash could not be read from (the store lost them)."""
    latest, missing = {}, []
    for example in examples:
        digest = content_hash(example, images)
        if digest is None:
            missing.append(example.image_file)
        else:
            latest[digest] = example
    return _split(latest), missing


def _split(latest: dict[str, store.Example]) -> dict[str, list[store.Example]]:
    if len(latest) < 2:
        return {"": list(latest.values())}
    ranked = sorted(latest, key=lambda digest: int(digest[:15], 16))  # a uniform draw per photo
    val = {digest for digest in ranked if int(digest[:15], 16) < VAL_SHARE * 16**15} or {ranked[0]}
    return {"train": [latest[digest] for digest in sorted(latest) if digest not in val],
            "val": [latest[digest] for digest in sorted(val)]}


def yolo_zip_stream(examples: Iterable[store.Example], images: ImageStore) -> Iterator[bytes]:
    """The zip's bytes, a photo at a time. A photo the image store has lost or damaged is left out and named in
    `skipped.txt`: one lost file must not break the export of every other."""
    splits, missing = split_by_photo(examples, images)
    skipped = [f"{name}: not in the image store" for name in missing]
    outbox = Outbox()
    with zipfile.ZipFile(outbox, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.yaml", format_data_yaml(CLASSES, splits))
        for split, chosen in splits.items():
            folder = f"{split}/" if split else ""
            for example in chosen:
                stored = images.get(example.image_file)
                if stored is None:
                    skipped.append(f"{example.image_file}: not in the image store")
                    continue
                try:
                    (image, photo), (label, labels) = labelled_files(example, stored)
                except DamagedPhoto:
                    skipped.append(f"{example.image_file}: damaged in the image store (it no longer decodes)")
                    continue
                archive.writestr(f"{folder}{image}", photo, zipfile.ZIP_STORED)
                archive.writestr(f"{folder}{label}", labels)
                yield outbox.take()
        if skipped:
            archive.writestr("skipped.txt", "".join(f"{line}\n" for line in skipped))
    yield outbox.take()  # the central directory
