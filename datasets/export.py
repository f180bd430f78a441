"""Export a labelled folder: YOLO (a folder, or a .zip of one, with data.yaml) or one COCO JSON file."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.coco import coco_document
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import read_dataset, write_dataset
from fanshot.datasets.progress import progress
from fanshot.datasets.stats import image_size
from fanshot.datasets.yolo import Example, format_data_yaml, format_labels

FORMATS = ("yolo", "coco")


def write_yolo_zip(out: Path, splits: dict[str, list[Example]]) -> None:
    """A zip laid out like a YOLO folder: data.yaml and <split>/images, <split>/labels."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.yaml", format_data_yaml(CLASSES, splits))
        for split, examples in splits.items():
            folder = f"{split}/" if split else ""
            for example in progress(examples, f"zip {split or out.stem}"):
                archive.write(example.image, f"{folder}images/{example.image.name}", zipfile.ZIP_STORED)
                archive.writestr(f"{folder}labels/{example.image.stem}.txt", format_labels(example.boxes))


def export(src: Path, fmt: str, out: Path) -> int:
    """Export every split of `src` (a YOLO folder or COCO JSON) to `out`; the number of images written.
    YOLO: `out` is a new folder, or a file ending in .zip. COCO: `out` is the JSON file; its image file
    names point at the source images, relative to the JSON file's folder."""
    splits = read_dataset(src)
    if fmt == "yolo" and out.suffix.lower() == ".zip":
        write_yolo_zip(out, splits)
    elif fmt == "yolo":
        write_dataset(out, splits)
    elif fmt == "coco":
        examples = [example for chosen in splits.values() for example in chosen]
        document = coco_document(((e, image_size(e.image)) for e in examples), out.parent)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(document), encoding="utf-8")
    else:
        raise DatasetError(f"unknown export format {fmt!r}; use one of {', '.join(FORMATS)}")
    return sum(len(chosen) for chosen in splits.values())
