from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.export import export
from fanshot.datasets.importer import import_yolo, read_dataset
from tests.datasets.conftest import rounded

SPLITS = {
    "train": {"a": "0 0.5 0.5 0.25 0.5\n42 0.1 0.1 0.1 0.1 0.2 0.1 0.2 0.2\n", "b": ""},
    "test": {"c": "33 0.75 0.25 0.5 0.5\n"},
}


def labels_by_name(root: Path) -> dict[str, list[tuple[float, ...]]]:
    return {e.image.name: rounded(e.boxes, 4) for chosen in read_dataset(root).values() for e in chosen}


@pytest.mark.parametrize("out_name", ["yolo_dir", "yolo.zip", "coco.json"])
def test_export_round_trip(make_dataset, tmp_path: Path, out_name: str) -> None:
    src = make_dataset(list(CLASSES), SPLITS)
    out = tmp_path / "out" / out_name
    assert export(src, "coco" if out.suffix == ".json" else "yolo", out) == 3
    if out.suffix == ".zip":
        with zipfile.ZipFile(out) as archive:
            archive.extractall(tmp_path / "unzipped")
        out = tmp_path / "unzipped"
    import_yolo(out, tmp_path / "again")
    assert labels_by_name(tmp_path / "again") == labels_by_name(src)


def test_coco_document_contents(make_dataset, tmp_path: Path) -> None:
    src = make_dataset(list(CLASSES), SPLITS)
    export(src, "coco", src / "coco.json")
    document = json.loads((src / "coco.json").read_text())
    assert [c["name"] for c in document["categories"]] == list(CLASSES)
    assert [i["file_name"] for i in document["images"]] == ["train/images/a.jpg", "train/images/b.jpg",
                                                            "test/images/c.jpg"]
    first = document["annotations"][0]
    assert (first["category_id"], first["bbox"], first["area"]) == (1, [24.0, 12.0, 16.0, 24.0], 384.0)


@pytest.mark.parametrize(("document", "message"), [
    ("{", "not JSON"),
    ('{"images": []}', "not a COCO detection document"),
    (json.dumps({"categories": [{"id": 1, "name": "1m"}], "images": [{"id": 1, "file_name": "a.jpg",
                 "width": 10, "height": 10}], "annotations": [{"id": 7, "image_id": 1, "category_id": 1,
                                                               "bbox": [1, 1, 0, 2]}]}), "annotation 7: box"),
    (json.dumps({"categories": [{"id": 1, "name": "tile"}], "images": [], "annotations": []}),
     "unknown class name"),
])
def test_bad_coco_files(tmp_path: Path, document: str, message: str) -> None:
    (tmp_path / "c.json").write_text(document)
    with pytest.raises(DatasetError, match=message):
        read_dataset(tmp_path / "c.json")


def test_export_refuses_unknown_format(make_dataset, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="unknown export format"):
        export(make_dataset(list(CLASSES), SPLITS), "voc", tmp_path / "x")
