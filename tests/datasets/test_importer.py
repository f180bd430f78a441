from __future__ import annotations

from pathlib import Path

import pytest

from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import import_yolo, read_dataset
from fanshot.datasets.yolo import parse_data_yaml

NAMES = ["bs1", "sc1", "hdw", "hdg", "hdr"]  # a foreign order, as in the shared set


def test_import_remaps_classes_and_links_images(make_dataset, tmp_path: Path) -> None:
    src = make_dataset(NAMES, {
        "train": {"a_jpg.rf.01": "0 0.5 0.5 0.2 0.2\n4 0.1 0.1 0.3 0.1 0.3 0.3 0.1 0.3\n"},
        "valid": {"b": "2 0.5 0.5 0.1 0.1\n3 0.2 0.2 0.1 0.1\n"},
    })
    (src / "README.md").write_text("CC BY 4.0, by someone")
    summaries = import_yolo(src, tmp_path / "dst")
    assert (tmp_path / "dst" / "README.md").read_text() == "CC BY 4.0, by someone"
    assert [(s.split, s.images, s.boxes, s.mirrored + s.undetermined) for s in summaries] == [
        ("train", 1, 2, 0), ("valid", 1, 2, 0)]
    meta = parse_data_yaml((tmp_path / "dst" / "data.yaml").read_text(encoding="ascii"), "x")
    assert meta["names"] == list(CLASSES) and meta["train"] == "train/images" and meta["val"] == "valid/images"
    labels = (tmp_path / "dst" / "train" / "labels" / "a_jpg.rf.01.txt").read_text().splitlines()
    assert [line.split()[0] for line in labels] == [str(CLASS_INDEX["5f"]), str(CLASS_INDEX["7z"])]
    assert labels[1].split()[1:] == ["0.200000", "0.200000", "0.200000", "0.200000"]
    image = tmp_path / "dst" / "valid" / "images" / "b.jpg"
    assert image.stat().st_ino == (src / "valid" / "images" / "b.jpg").stat().st_ino or image.is_symlink()
    dataset = read_dataset(tmp_path / "dst")
    assert [CLASSES[b.cls] for b in dataset["valid"][0].boxes] == ["5z", "6z"]


@pytest.mark.parametrize(("names", "label", "message"), [
    (["sc1", "dragon"], "0 .5 .5 .1 .1\n", r"data\.yaml: unknown class name\(s\) 'dragon'"),
    (NAMES, "0 .5 .5 .1 .1\n9 .5 .5 .1 .1\n", r"labels/x\.txt:2: class '9' is not an index below 5"),
    (NAMES, "0 .5 .5\n", r"labels/x\.txt:1: expected"),
])
def test_import_refuses_bad_sets(make_dataset, tmp_path: Path, names: list[str], label: str,
                                 message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        import_yolo(make_dataset(names, {"train": {"x": label}}), tmp_path / "dst")
    assert not (tmp_path / "dst").exists()


def test_import_refuses_a_non_empty_destination(make_dataset, tmp_path: Path) -> None:
    src = make_dataset(NAMES, {"train": {"x": ""}})
    (tmp_path / "dst").mkdir()
    (tmp_path / "dst" / "old.txt").write_text("keep me")
    with pytest.raises(DatasetError, match="not an empty folder"):
        import_yolo(src, tmp_path / "dst")


@pytest.mark.parametrize(("make", "message"), [
    (lambda root: None, "not a folder"),
    (lambda root: root.mkdir(), "no data.yaml"),
    (lambda root: (root.mkdir(), (root / "data.yaml").write_text("nc: 0\n")), "no `names` list"),
])
def test_read_dataset_errors(tmp_path: Path, make, message: str) -> None:
    make(tmp_path / "d")
    with pytest.raises(DatasetError, match=message):
        read_dataset(tmp_path / "d")
