"""COCO detection JSON: write our examples as one COCO file, and read a COCO file back as examples."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fanshot.datasets.classes import CLASS_INDEX, CLASSES, code_map
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.yolo import Example, box_from_corners


def coco_document(examples: Iterable[tuple[Example, tuple[int, int]]], base: Path) -> dict[str, Any]:
    """A COCO document of examples in our classes, each with its image (width, height); file names are
    relative to `base`, the folder of the JSON file. Category ids are our class indices + 1."""
    images, annotations = [], []
    for image_id, (example, (width, height)) in enumerate(examples, 1):
        file_name = Path(os.path.relpath(os.path.abspath(example.image), os.path.abspath(base))).as_posix()
        images.append({"id": image_id, "file_name": file_name, "width": width, "height": height})
        for b in example.boxes:
            w, h = b.w * width, b.h * height
            annotations.append({
                "id": len(annotations) + 1, "image_id": image_id, "category_id": b.cls + 1,
                "bbox": [round((b.cx - b.w / 2) * width, 3), round((b.cy - b.h / 2) * height, 3),
                         round(w, 3), round(h, 3)],
                "area": round(w * h, 3), "iscrowd": 0,
            })
    categories = [{"id": i + 1, "name": code, "supercategory": "tile"} for i, code in enumerate(CLASSES)]
    return {"images": images, "annotations": annotations, "categories": categories}


def examples_from_coco(document: Any, base: Path, source: str) -> list[Example]:
    """Examples in our classes from a COCO document (category names as our codes or the Roboflow names);
    image paths are resolved against `base`."""
    try:
        categories = {c["id"]: c["name"] for c in document["categories"]}
        codes = dict(zip(categories, code_map(list(categories.values()), source), strict=True))
        sizes = {i["id"]: (i["width"], i["height"]) for i in document["images"]}
        boxes: dict[Any, list] = {image_id: [] for image_id in sizes}
        for a in document["annotations"]:
            width, height = sizes[a["image_id"]]
            x, y, w, h = (float(value) for value in a["bbox"])
            corners = (x / width, y / height, (x + w) / width, (y + h) / height)
            where = f"{source}: annotation {a['id']}"
            boxes[a["image_id"]].append(box_from_corners(CLASS_INDEX[codes[a["category_id"]]], corners, where))
        return [Example(base / i["file_name"], tuple(boxes[i["id"]])) for i in document["images"]]
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as bad:
        raise DatasetError(f"{source}: not a COCO detection document ({type(bad).__name__}: {bad})") from None


def read_coco(path: Path) -> list[Example]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as bad:
        raise DatasetError(f"{path}: not JSON ({bad})") from None
    return examples_from_coco(document, path.parent, str(path))
