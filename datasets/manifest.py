"""The evaluation manifest of docs/API.md: one JSON line per photo with its face-up tiles and its backs."""

from __future__ import annotations

import json
import os
from pathlib import Path

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import read_remapped
from fanshot.datasets.yolo import Example
from fanshot.scoring.tiles import BACK, to_string


def manifest_line(example: Example, base: Path) -> str:
    """`{"image": path relative to base, "tiles": compact face-up codes, "backs": n}` as one JSON line."""
    codes = [CLASSES[box.cls] for box in example.boxes]
    image = Path(os.path.relpath(os.path.abspath(example.image), os.path.abspath(base))).as_posix()
    record = {"image": image, "tiles": to_string(c for c in codes if c != BACK), "backs": codes.count(BACK)}
    return json.dumps(record, ensure_ascii=False)


def read_split_dir(split_dir: Path) -> list[Example]:
    """A YOLO split folder (images/ + labels/) in our classes, with data.yaml in it or in its parent."""
    if not (split_dir / "images").is_dir():
        raise DatasetError(f"{split_dir}: no images/ folder")
    for root, split in ((split_dir, ""), (split_dir.parent, split_dir.name)):
        if (root / "data.yaml").is_file():
            return read_remapped(root, [split])[split]
    raise DatasetError(f"{split_dir}: no data.yaml in it or in its parent folder")


def write_manifest(split_dir: Path, out: Path | None) -> list[str]:
    """The manifest lines of a split folder, written to `out` (paths relative to its folder) when given,
    else relative to the working directory."""
    base = out.parent if out else Path.cwd()
    lines = [manifest_line(example, base) for example in read_split_dir(split_dir)]
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return lines
