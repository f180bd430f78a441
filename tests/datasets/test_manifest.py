from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.manifest import write_manifest


def label(*codes: str) -> str:
    return "".join(f"{CLASS_INDEX[code]} .5 .5 .1 .1\n" for code in codes)


@pytest.mark.parametrize(("codes", "tiles", "backs"), [
    (("7z", "1m", "back", "1m", "5f", "9s"), "11m9s7z5f", 1),
    ((), "", 0),
    (("back", "back"), "", 2),
])
def test_manifest_line(make_dataset, tmp_path: Path, codes: tuple[str, ...], tiles: str, backs: int) -> None:
    src = make_dataset(list(CLASSES), {"test": {"a": label(*codes)}})
    [line] = write_manifest(src / "test", src / "test.jsonl")
    assert json.loads(line) == {"image": "test/images/a.jpg", "tiles": tiles, "backs": backs}
    assert (src / "test.jsonl").read_text() == line + "\n"


def test_manifest_of_a_foreign_flat_folder(make_dataset, tmp_path: Path) -> None:
    src = make_dataset(["sc1", "hdw"], {"": {"a": "1 .5 .5 .1 .1\n0 .5 .5 .1 .1\n"}})
    [line] = write_manifest(src, tmp_path / "elsewhere" / "m.jsonl")
    assert json.loads(line) == {"image": "../src/images/a.jpg", "tiles": "1m5z", "backs": 0}


def test_manifest_needs_a_split_folder(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no images/"):
        write_manifest(tmp_path, None)
    (tmp_path / "images").mkdir()
    with pytest.raises(DatasetError, match="no data.yaml"):
        write_manifest(tmp_path, None)
