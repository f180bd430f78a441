"""Small generated YOLO folders for the dataset tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import astuple
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fanshot.datasets.yolo import Box

MakeDataset = Callable[..., Path]


def write_image(path: Path, size: tuple[int, int] = (64, 48), seed: int = 0) -> None:
    """A small random RGB image (distinct per seed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    Image.fromarray(pixels).save(path)


@pytest.fixture
def make_dataset(tmp_path: Path) -> MakeDataset:
    """Build a YOLO folder: `make_dataset(names, {split: {image_stem: label_text}})`; split "" is flat."""

    def make(names: list[str], splits: dict[str, dict[str, str]], root: Path | None = None) -> Path:
        root = root or tmp_path / "src"
        root.mkdir(parents=True, exist_ok=True)
        (root / "data.yaml").write_text(f"nc: {len(names)}\nnames: {names!r}\n", encoding="utf-8")
        for seed, (split, images) in enumerate(splits.items()):
            for number, (stem, label) in enumerate(images.items()):
                write_image(root / split / "images" / f"{stem}.jpg", seed=seed * 1000 + number)
                (root / split / "labels").mkdir(parents=True, exist_ok=True)
                (root / split / "labels" / f"{stem}.txt").write_text(label, encoding="utf-8")
        return root

    return make


def rounded(boxes: Iterable[Box], places: int = 5) -> list[tuple[float, ...]]:
    """Boxes as comparable tuples, rounded (label files keep six decimals)."""
    return [tuple(round(value, places) for value in astuple(box)) for box in boxes]
