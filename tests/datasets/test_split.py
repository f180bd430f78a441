from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import read_dataset
from fanshot.datasets.split import assign_groups, dhash, group_photos, split_dataset
from tests.datasets.conftest import write_image


def bits(*ones: int, size: int = 16) -> np.ndarray:
    row = np.zeros(size, bool)
    row[list(ones)] = True
    return row


@pytest.mark.parametrize(("stems", "hashes", "groups"), [
    (["a", "b", "c"], [bits(), bits(0, 1, 2, 3), bits(*range(8, 16))], [[0], [1], [2]]),
    (["a", "b", "c"], [bits(), bits(0, 1), bits(*range(8, 16))], [[0, 1], [2]]),  # 2 bits apart
    (["a", "b", "c"], [bits(), bits(0, 1), bits(0, 1, 2, 3)], [[0, 1, 2]]),  # a~b~c transitively
    (["x_jpg.rf.01", "y", "x_jpg.rf.02"], [bits(), bits(*range(8)), bits(*range(8, 16))], [[0, 2], [1]]),
])
def test_group_photos(stems: list[str], hashes: list[np.ndarray], groups: list[list[int]]) -> None:
    assert group_photos(stems, np.array(hashes), max_distance=2) == groups


@pytest.mark.parametrize(("sizes", "ratios", "counts"), [
    ([1] * 10, [0.8, 0.1, 0.1], [8, 1, 1]),
    ([1] * 10, [1, 0, 1], [5, 0, 5]),
    ([3] * 10, [8, 1, 1], [24, 3, 3]),
])
def test_assign_groups_meets_ratios(sizes: list[int], ratios: list[float], counts: list[int]) -> None:
    assignment = assign_groups(sizes, ratios, seed=3)
    assert [sum(n for n, s in zip(sizes, assignment, strict=True) if s == k) for k in range(3)] == counts
    assert assign_groups(sizes, ratios, seed=3) == assignment  # deterministic


@pytest.mark.parametrize("ratios", [[1, 1], [1, -1, 1], [0, 0, 0]])
def test_assign_groups_rejects_bad_ratios(ratios: list[float]) -> None:
    with pytest.raises(DatasetError, match="ratios"):
        assign_groups([1, 1], ratios, seed=0)


def test_dhash_sees_a_recompressed_copy_as_near(tmp_path: Path) -> None:
    write_image(tmp_path / "a.png", size=(80, 60), seed=1)
    write_image(tmp_path / "b.png", size=(80, 60), seed=2)
    Image.open(tmp_path / "a.png").resize((160, 120)).save(tmp_path / "a_big.jpg", quality=80)
    a, a_big, b = (dhash(tmp_path / name) for name in ("a.png", "a_big.jpg", "b.png"))
    assert a.shape == (256,) and (a != a_big).sum() <= 12 < (a != b).sum()


def test_split_dataset_keeps_groups_together(make_dataset, tmp_path: Path) -> None:
    # 12 source photos with 3 Roboflow variants each, plus one exact duplicate of a photo under a new name.
    images = {f"p{n}_jpg.rf.{v:02x}": "0 .5 .5 .1 .1\n" for n in range(12) for v in range(3)}
    src = make_dataset(["sc1"], {"": images})
    (src / "images" / "copy.jpg").write_bytes((src / "images" / "p5_jpg.rf.01.jpg").read_bytes())
    counts = split_dataset(src, tmp_path / "dst", [0.5, 0.25, 0.25], seed=7)
    assert sum(counts.values()) == 37 and set(counts) == {"train", "valid", "test"}
    split_of = {e.image.name: split for split, chosen in read_dataset(tmp_path / "dst").items() for e in chosen}
    for n in range(12):
        assert len({split_of[f"p{n}_jpg.rf.{v:02x}.jpg"] for v in range(3)}) == 1
    assert split_of["copy.jpg"] == split_of["p5_jpg.rf.01.jpg"]
    again = split_dataset(src, tmp_path / "again", [0.5, 0.25, 0.25], seed=7)
    assert again == counts
    assert sorted(p.name for p in (tmp_path / "again" / "test" / "images").iterdir()) == sorted(
        p.name for p in (tmp_path / "dst" / "test" / "images").iterdir())
