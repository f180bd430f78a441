"""The dataset export streams: the zip's first bytes go out after the first photo is read, not after the last."""

import io
import zipfile

import numpy as np

from api.export import yolo_zip_stream
from api.store import Example
from tests.api.conftest import fake_recognize, jpeg
from tests.api.test_recognitions import confirmation_of


class CountingImages:
    def __init__(self) -> None:
        self.reads = 0

    def get(self, name: str) -> bytes:
        self.reads += 1
        return jpeg()


def test_the_zip_is_sent_a_photo_at_a_time():
    result = {"id": "r", **fake_recognize(np.zeros((480, 640, 3), np.uint8))}
    examples = [Example(f"r{i}.jpg", result, confirmation_of(result)) for i in range(3)]
    images = CountingImages()
    stream = yolo_zip_stream(examples, images)
    first = next(stream)
    assert images.reads == 1 and len(first) > len(jpeg())  # data.yaml and the first photo, already sent
    whole = first + b"".join(stream)
    assert images.reads == 3
    names = zipfile.ZipFile(io.BytesIO(whole)).namelist()
    assert names == ["data.yaml", *(f"{folder}/r{i}.{ext}" for i in range(3)
                                    for folder, ext in (("images", "jpg"), ("labels", "txt")))]
