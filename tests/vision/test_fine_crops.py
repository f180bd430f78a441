"""`fine_crops`: the small faces of a photo shrunk to be read are named from crops of the photo at full size."""

import io
from dataclasses import dataclass, field

import cv2
import numpy as np
import pytest
from PIL import Image

from fanshot.vision import image as photos
from fanshot.vision.config import RecogniserConfig
from fanshot.vision.geometry import cut_crop
from fanshot.vision.recogniser import Detections, Look
from tests.vision.fakes import fake_recogniser, nothing

FULL = (2400, 3200)  # height, width of the original: 2× the frame read
READ = (1200, 1600)


@dataclass
class FakeOriginal:
    """An original whose pixels are given, counting the decodes asked for."""

    image: np.ndarray
    decodes: list[int] = field(default_factory=list)

    def longer_side(self) -> int:
        return max(self.image.shape[:2])

    def pixels(self) -> np.ndarray:
        self.decodes.append(1)
        return self.image


def recording_recogniser(config: RecogniserConfig | None = None):
    """A recogniser whose classifier notes each batch of crops and answers 0.7 for code 0 of each."""
    recogniser = fake_recogniser(lambda image, conf, fill: nothing(), config)
    read = []

    def read_crops(crops: np.ndarray, sides: np.ndarray | None = None) -> np.ndarray:
        read.append(crops)
        return np.tile([0.7, 0.1, 0.1, 0.1], (len(crops), 1))

    object.__setattr__(recogniser, "read_crops", read_crops)
    return recogniser, read


def original_photo() -> np.ndarray:
    """Random pixels, so that every crop of it differs from its neighbours'."""
    return np.random.default_rng(7).integers(0, 256, (*FULL, 3), dtype=np.uint8)


def look_at(boxes: list[list[float]], kinds: list[str], turns: int = 0, image: np.ndarray | None = None) -> Look:
    read = cv2.resize(original_photo(), READ[::-1], interpolation=cv2.INTER_AREA) if image is None else image
    if turns:
        read = np.ascontiguousarray(np.rot90(read, turns))
    found = Detections(np.array(boxes, float), np.full(len(boxes), 0.9), kinds,
                       np.tile([0.25, 0.25, 0.25, 0.25], (len(boxes), 1)))
    return Look(read, found, turns)


SMALL, BIG = [100.0, 200, 116, 220], [400.0, 300, 460, 380]  # sides (√area) 17.9 and 69 px in the frame read


def test_a_small_face_is_named_from_the_full_size_photo_and_a_big_one_keeps_its_reading():
    recogniser, read = recording_recogniser()
    original = FakeOriginal(original_photo())
    look = recogniser.named_at_full_size(look_at([SMALL, BIG], ["face", "face"]), READ[1], READ[0], original)
    assert len(read) == 1 and len(read[0]) == 1
    assert np.array_equal(read[0][0], cut_crop(original.image, np.array(SMALL) * 2, 64))
    assert look.found.probs[:, 0].tolist() == [0.7, 0.25]


def test_a_turned_look_cuts_its_crops_turned_the_same_way():
    recogniser, read = recording_recogniser()
    original = FakeOriginal(original_photo())
    # the look read the photo turned a quarter (np.rot90 k=-1): the frame is 1600 tall and 1200 wide
    box_in_turned = np.array([300.0, 500, 316, 520])
    recogniser.named_at_full_size(look_at([box_in_turned], ["face"], turns=-1), READ[1], READ[0], original)
    turned_full = np.ascontiguousarray(np.rot90(original.image, -1))
    assert np.array_equal(read[0][0], cut_crop(turned_full, box_in_turned * 2, 64))


@pytest.mark.parametrize("why", ["photo not shrunk enough", "only big faces", "a back", "stage off", "no original"])
def test_no_full_size_decode_where_it_cannot_help(why):
    config = RecogniserConfig(conf=0.5, unsure=0.3)
    if why == "stage off":
        config = config.without("fine_crops")
    recogniser, read = recording_recogniser(config)
    image = original_photo()
    original = FakeOriginal(cv2.resize(image, (2000, 1500)) if why == "photo not shrunk enough" else image)
    boxes, kinds = {"only big faces": ([BIG], ["face"]), "a back": ([SMALL], ["back"])}.get(why, ([SMALL], ["face"]))
    look = look_at(boxes, kinds)
    after = recogniser.named_at_full_size(look, READ[1], READ[0], None if why == "no original" else original)
    assert after is look and read == [] and original.decodes == []


def test_an_original_too_big_to_decode_whole_is_read_as_large_as_the_memory_bound_allows(monkeypatch):
    data = io.BytesIO()
    Image.new("RGB", (2000, 1500), "white").save(data, "JPEG")
    monkeypatch.setattr(photos, "MAX_DECODE_BYTES", 20 * 1024 * 1024)  # 3 MP whole takes ~60 MB; halved, ~15
    with pytest.raises(photos.PhotoError):
        photos.load_photo(data.getvalue())
    assert photos.Original(data.getvalue()).pixels().shape == (750, 1000, 3)
