"""The dataset export streams: the zip's first bytes go out after the first photo is read, not after the last."""

import io
import zipfile

import numpy as np

from fanshot.api.storage.export import yolo_zip_stream
from fanshot.api.storage.store import Example
from tests.api.conftest import fake_recognise, jpeg
from tests.api.test_recognitions import confirmation_of


class CountingImages:
    def __init__(self) -> None:
        self.reads = 0

    def get(self, name: str) -> bytes:
        self.reads += 1
        return jpeg()


def example(name: str, digest: str | None) -> Example:
    result = {"id": "r", **fake_recognise(np.zeros((480, 640, 3), np.uint8))}
    return Example(name, digest, result, confirmation_of(result))


def test_the_zip_is_sent_a_photo_at_a_time():
    # stored content hashes: r0's falls in val, r1's and r2's in train
    examples = [example(f"r{i}.jpg", digit * 64) for i, digit in enumerate("089")]
    images = CountingImages()
    stream = yolo_zip_stream(examples, images)
    first = next(stream)
    assert images.reads == 1 and len(first) > len(jpeg())  # data.yaml and the first photo, already sent
    whole = first + b"".join(stream)
    assert images.reads == 3
    names = zipfile.ZipFile(io.BytesIO(whole)).namelist()
    assert names == ["data.yaml", *(f"{split}/{folder}/r{i}.{ext}"
                                    for split, i in (("train", 1), ("train", 2), ("val", 0))
                                    for folder, ext in (("images", "jpg"), ("labels", "txt")))]


def test_photos_stored_before_their_hash_was_are_hashed_from_the_image_store():
    images = CountingImages()  # the same photo every time: one example
    names = zipfile.ZipFile(io.BytesIO(b"".join(yolo_zip_stream([example(f"r{i}.jpg", None) for i in range(3)],
                                                                  images)))).namelist()
    assert names == ["data.yaml", "images/r2.jpg", "labels/r2.txt"] and images.reads == 4


class LosingImages(CountingImages):
    """An image store that has lost some photos."""

    def __init__(self, lost: set[str]) -> None:
        super().__init__()
        self.lost = lost

    def get(self, name: str) -> bytes | None:
        return None if name in self.lost else super().get(name)


def test_a_photo_the_store_lost_is_skipped_and_listed_and_the_rest_exported():
    # issue 36: one stored photo missing used to break every export (200, then 0 bytes)
    examples = [example(f"r{i}.jpg", digit * 64) for i, digit in enumerate("089")]
    examples.append(example("old.jpg", None))  # stored before hashes: its hash needs the photo, lost too
    whole = b"".join(yolo_zip_stream(examples, LosingImages({"r1.jpg", "old.jpg"})))
    archive = zipfile.ZipFile(io.BytesIO(whole))
    assert archive.testzip() is None
    names = archive.namelist()
    assert "train/images/r2.jpg" in names and "val/images/r0.jpg" in names
    assert not any("r1" in name or "old" in name for name in names if name != "skipped.txt")
    assert archive.read("skipped.txt").decode().splitlines() == ["old.jpg: not in the image store",
                                                                 "r1.jpg: not in the image store"]


class DamagingImages(CountingImages):
    """An image store that returns some photos' bytes damaged (cut short to no image at all)."""

    def __init__(self, damaged: set[str]) -> None:
        super().__init__()
        self.damaged = damaged

    def get(self, name: str) -> bytes:
        return b"\xff\xd8 damaged" if name in self.damaged else super().get(name)


def test_a_photo_the_store_damaged_is_skipped_and_listed_and_the_rest_exported():
    examples = [example(f"r{i}.jpg", digit * 64) for i, digit in enumerate("089")]
    archive = zipfile.ZipFile(io.BytesIO(b"".join(yolo_zip_stream(examples, DamagingImages({"r2.jpg"})))))
    names = archive.namelist()
    assert "train/images/r1.jpg" in names and "val/images/r0.jpg" in names and "train/images/r2.jpg" not in names
    assert archive.read("skipped.txt").decode().splitlines() == [
        "r2.jpg: damaged in the image store (it no longer decodes)"]
