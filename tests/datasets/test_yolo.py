from __future__ import annotations

from pathlib import Path

import pytest

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.yolo import (
    Box,
    format_data_yaml,
    format_labels,
    parse_data_yaml,
    parse_label_line,
    parse_labels,
    read_split,
    split_names,
)
from tests.datasets.conftest import rounded


@pytest.mark.parametrize(("line", "box"), [
    ("3 0.5 0.5 0.2 0.4", Box(3, 0.5, 0.5, 0.2, 0.4)),
    ("0 0.95 0.5 0.2 0.2", Box(0, 0.925, 0.5, 0.15, 0.2)),  # clipped at the right edge
    ("1 0.1 0.2 0.3 0.2 0.3 0.6 0.1 0.6", Box(1, 0.2, 0.4, 0.2, 0.4)),  # polygon -> bounding box
    ("2 -0.1 0.2 0.3 0.2 0.3 1.2 -0.1 0.2", Box(2, 0.15, 0.6, 0.3, 0.8)),  # closed polygon, clipped
])
def test_parse_label_line(line: str, box: Box) -> None:
    assert rounded([parse_label_line(line, "f.txt:1", 5)]) == rounded([box])


@pytest.mark.parametrize(("line", "message"), [
    ("3 0.5 0.5 0.2", "4 fields"),
    ("3 0.1 0.1 0.2 0.2 0.3", "6 fields"),
    ("7 0.5 0.5 0.2 0.2", "class '7' is not an index below 5"),
    ("x 0.5 0.5 0.2 0.2", "class 'x'"),
    ("-1 0.5 0.5 0.2 0.2", "class '-1'"),
    ("1 0.5 zero 0.2 0.2", "could not convert"),
    ("1 0.5 nan 0.2 0.2", "finite"),
    ("1 0.5 0.5 0 0.2", "positive"),
    ("1 1.5 0.5 0.2 0.2", "no area inside the image"),
])
def test_bad_label_lines_name_file_and_line(line: str, message: str) -> None:
    with pytest.raises(DatasetError, match=r"^labels/a\.txt:9: .*" + message):
        parse_label_line(line, "labels/a.txt:9", 5)


def test_parse_labels_counts_lines_from_one_and_skips_blanks() -> None:
    assert len(parse_labels("0 .5 .5 .1 .1\n\n1 .5 .5 .1 .1\n", "a.txt", 2)) == 2
    with pytest.raises(DatasetError, match=r"a\.txt:3:"):
        parse_labels("0 .5 .5 .1 .1\n\n1 .5 .5\n", "a.txt", 2)


def test_format_labels_round_trips() -> None:
    boxes = (Box(0, 0.25, 0.5, 0.1, 0.2), Box(42, 0.123456, 0.9, 0.05, 0.1))
    assert rounded(parse_labels(format_labels(boxes), "x", 43)) == rounded(boxes)


@pytest.mark.parametrize("text", [
    "names: ['a', \"b\", c]\n",
    "# comment\nnc: 3\nnames:\n  - a\n  - 'b'\n  - c\n",
    "names:\n  0: a\n  1: b\n  2: c  # trailing comment\ntrain: ../train/images\n",
])
def test_parse_data_yaml_name_forms(text: str) -> None:
    assert parse_data_yaml(text, "d.yaml")["names"] == ["a", "b", "c"]


def test_parse_data_yaml_rejects_garbage() -> None:
    with pytest.raises(DatasetError, match=r"d\.yaml:2: expected `key: value`"):
        parse_data_yaml("nc: 2\njust words\n", "d.yaml")


@pytest.mark.parametrize(("splits", "keys"), [
    (["train", "valid", "test"], ["train: train/images", "val: valid/images", "test: test/images"]),
    ([""], ["train: images", "val: images"]),
])
def test_format_data_yaml(splits: list[str], keys: list[str]) -> None:
    text = format_data_yaml(["1m", "back"], splits)
    assert all(key in text.splitlines() for key in keys)
    assert parse_data_yaml(text, "x")["names"] == ["1m", "back"] and "path:" not in text


def test_split_names_and_missing_labels(make_dataset, tmp_path: Path) -> None:
    root = make_dataset(["a"], {"test": {"x": ""}, "train": {"y": "0 .5 .5 .1 .1\n"}, "valid": {}})
    (root / "valid" / "images").mkdir(parents=True)
    assert split_names(root) == ["train", "valid", "test"]
    (root / "train" / "labels" / "y.txt").unlink()
    assert [e.boxes for e in read_split(root / "train", 1)] == [()]
    with pytest.raises(DatasetError, match="no split folders"):
        split_names(tmp_path / "src" / "train" / "labels")
