from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from fanshot.datasets.mirror import find_mirrored, group_verdicts, relative_mirroring, source_stem
from fanshot.datasets.yolo import Box, Example


@pytest.mark.parametrize(("stem", "source"), [
    ("IMG_1_jpg.rf.0a1b2c", "IMG_1"),
    ("367362342_966_n_jpg.rf.026a7052decc93c7a0973daaebdf9171", "367362342_966_n"),
    ("photo_png.rf.ff", "photo"),
    ("plain_name", "plain_name"),
    ("x_jpg.rf.not-hex", "x_jpg.rf.not-hex"),
])
def test_source_stem(stem: str, source: str) -> None:
    assert source_stem(stem) == source


@pytest.mark.parametrize(("same", "flipped", "verdict"), [
    (400, 20, False), (15, 300, True), (10, 20, None), (100, 60, None),
])
def test_relative_mirroring(same: int, flipped: int, verdict: bool | None) -> None:
    assert relative_mirroring(same, flipped) is verdict


@pytest.mark.parametrize(("relative", "votes", "verdicts"), [
    ([False, True, False], [(90, 10), (5, 80), (70, 20)], [False, True, False]),  # first is upright
    ([False, True, False], [(10, 90), (80, 5), (20, 70)], [True, False, True]),  # first is mirrored
    ([False, None, True], [(50, 10), (99, 0), (5, 40)], [False, None, True]),  # unregistered: no vote
    ([False, True], [(50, 45), (45, 50)], [None, None]),  # votes too close to call
    ([False], [(0, 0)], [None]),
])
def test_group_verdicts(relative: list[bool | None], votes: list[tuple[int, int]],
                        verdicts: list[bool | None]) -> None:
    assert group_verdicts(relative, votes) == verdicts


def scene(seed: int, size: int = 320) -> tuple[np.ndarray, list[Box]]:
    """A grey table with 20 white 'tiles', each with two chiral glyphs (letters and digits)."""
    rng = np.random.default_rng(seed)
    image = np.full((size, size), 40, np.uint8)
    boxes = []
    for row in range(4):
        for col in range(5):
            x, y = 12 + col * 60, 12 + row * 76
            image[y:y + 64, x:x + 48] = 235
            first, second = rng.choice(list("FRGJLKPQ74"), 2)
            cv2.putText(image, first, (x + 6, y + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 20, 2)
            cv2.putText(image, second, (x + 14, y + 58), cv2.FONT_HERSHEY_COMPLEX, 0.9, 60, 2)
            boxes.append(Box(0, (x + 24) / size, (y + 32) / size, 48 / size, 64 / size))
    return image, boxes


def turn(image: np.ndarray, flip_code: int | None, rotation: int | None) -> np.ndarray:
    image = image if flip_code is None else cv2.flip(image, flip_code)
    return image if rotation is None else cv2.rotate(image, rotation)


# (horizontal/vertical/both flip code or None, cv2 rotation or None, mirrored?)
VARIANTS = [
    (1, None, True), (None, cv2.ROTATE_90_CLOCKWISE, False), (0, cv2.ROTATE_180, True),
    (-1, None, False), (None, None, False), (0, cv2.ROTATE_90_COUNTERCLOCKWISE, True),
]


def test_find_mirrored_on_augmented_variants(tmp_path: Path) -> None:
    def example(name: str, image: np.ndarray, boxes: list[Box]) -> Example:
        cv2.imwrite(str(tmp_path / name), image)
        return Example(tmp_path / name, tuple(boxes))  # boxes only steer the glyph mask; keep them loose

    reference = [example(f"ref{seed}.png", *scene(seed)) for seed in range(3)]
    full_frame = [Box(0, 0.5, 0.5, 1.0, 1.0)]
    train, truth = [], {}
    for group, source in enumerate((10, 11)):
        image, _ = scene(source)
        for number, (flip_code, rotation, mirrored) in enumerate(VARIANTS[group * 3:group * 3 + 3]):
            name = f"s{source}_jpg.rf.{number:02x}.png"
            train.append(example(name, turn(image, flip_code, rotation), full_frame))
            truth[tmp_path / name] = mirrored
    report = find_mirrored({"train": train, "valid": reference})
    assert report.undetermined == frozenset()
    assert report.mirrored == {path for path, mirrored in truth.items() if mirrored}
