"""YOLO label folders: data.yaml, label lines (boxes and polygons), split folders of images/ + labels/.

A dataset folder holds a data.yaml and split folders (`train/`, `valid/`, `test/`), each with `images/` and
`labels/`; a flat folder has `images/` and `labels/` itself. Boxes are normalised `cx cy w h`.
"""

from __future__ import annotations

import math
import os
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fanshot.datasets.errors import DatasetError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})
# Split folder name -> its key in data.yaml.
SPLIT_KEYS = {"train": "train", "valid": "val", "val": "val", "test": "test"}


@dataclass(frozen=True)
class Box:
    """One labelled tile: a class index into the label set's names, and a normalised centre box."""

    cls: int
    cx: float
    cy: float
    w: float
    h: float


@dataclass(frozen=True)
class Example:
    """An image and its boxes."""

    image: Path
    boxes: tuple[Box, ...]


def parse_label_line(line: str, where: str, class_count: int) -> Box:
    """A box line `c cx cy w h` or a polygon line `c x1 y1 x2 y2 x3 y3 ...` (→ its bounding box), clipped to
    the image. `where` ("file:line") prefixes every error."""
    fields = line.split()
    if len(fields) != 5 and (len(fields) < 7 or len(fields) % 2 == 0):
        raise DatasetError(f"{where}: expected `class cx cy w h` or `class x1 y1 x2 y2 x3 y3 ...`, "
                           f"got {len(fields)} fields")
    if not fields[0].isdigit() or int(fields[0]) >= class_count:
        raise DatasetError(f"{where}: class {fields[0]!r} is not an index below {class_count}")
    try:
        values = [float(field) for field in fields[1:]]
    except ValueError as bad:
        raise DatasetError(f"{where}: {bad}") from None
    if len(values) == 4:
        cx, cy, w, h = values
        return box_from_corners(int(fields[0]), (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), where)
    xs, ys = values[0::2], values[1::2]
    return box_from_corners(int(fields[0]), (min(xs), min(ys), max(xs), max(ys)), where)


def box_from_corners(cls: int, corners: Sequence[float], where: str) -> Box:
    """A box from normalised corners `x1 y1 x2 y2`, clipped to the image."""
    if not all(math.isfinite(value) for value in corners):
        raise DatasetError(f"{where}: coordinates must be finite numbers")
    if corners[2] <= corners[0] or corners[3] <= corners[1]:
        raise DatasetError(f"{where}: box width and height must be positive")
    x1, y1, x2, y2 = (min(max(value, 0.0), 1.0) for value in corners)
    if x2 <= x1 or y2 <= y1:
        raise DatasetError(f"{where}: the box has no area inside the image")
    return Box(cls, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1)


def parse_labels(text: str, source: str, class_count: int) -> tuple[Box, ...]:
    """All boxes of a label file's text; blank lines are skipped."""
    return tuple(parse_label_line(line, f"{source}:{number}", class_count)
                 for number, line in enumerate(text.splitlines(), 1) if line.strip())


def format_labels(boxes: Iterable[Box]) -> str:
    return "".join(f"{b.cls} {b.cx:.6f} {b.cy:.6f} {b.w:.6f} {b.h:.6f}\n" for b in boxes)


_ITEM = re.compile(r"""\s*('[^']*'|"[^"]*"|[^,]+)""")


def _scalar(text: str) -> str:
    text = text.strip()
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


def parse_data_yaml(text: str, source: str) -> dict[str, str | list[str]]:
    """The top-level keys of a data.yaml. Enough YAML for dataset files: `key: value`, flow lists
    (`names: [a, 'b']`), block lists (`- a`) and index maps (`0: a`) under a key."""
    meta: dict[str, str | list[str]] = {}
    key = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #")[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace() and key is not None:
            item = line.strip()
            item = item[1:] if item.startswith("- ") else item.partition(":")[2]
            meta.setdefault(key, [])
            if isinstance(meta[key], list):
                meta[key].append(_scalar(item))  # type: ignore[union-attr]
            continue
        name, colon, value = line.partition(":")
        if not colon or line[0].isspace():
            raise DatasetError(f"{source}:{number}: expected `key: value`")
        key, value = name.strip(), value.strip()
        if value.startswith("["):
            if not value.endswith("]"):
                raise DatasetError(f"{source}:{number}: a flow list must end on its line with ']'")
            meta[key] = [_scalar(match.group(1)) for match in _ITEM.finditer(value[1:-1])]
        elif value:
            meta[key] = _scalar(value)
    return meta


def read_names(root: Path) -> list[str]:
    """The class names in `root/data.yaml`."""
    path = root / "data.yaml"
    if not path.is_file():
        raise DatasetError(f"{root}: no data.yaml")
    names = parse_data_yaml(path.read_text(encoding="utf-8"), str(path)).get("names")
    if not isinstance(names, list) or not names:
        raise DatasetError(f"{path}: no `names` list")
    return names


def format_data_yaml(names: Sequence[str], splits: Iterable[str]) -> str:
    """A data.yaml with paths relative to its own folder; `splits` are split folder names ("" for flat)."""
    # No `path:` key: ultralytics then resolves the split paths against this file's folder (`path: .` would
    # resolve against the working directory).
    lines = ["# Ultralytics dataset file. Split paths are relative to this file's folder."]
    for split in splits:
        lines.append(f"{SPLIT_KEYS.get(split, split or 'train')}: {split + '/' if split else ''}images")
    if lines[-1] == "train: images":  # a flat folder: train on it and validate on it
        lines.append("val: images")
    lines += [f"nc: {len(names)}", "names: [" + ", ".join(f"'{name}'" for name in names) + "]"]
    return "\n".join(lines) + "\n"


def split_names(root: Path) -> list[str]:
    """Split folder names under `root` (those with an images/ folder), or [""] for a flat folder."""
    if (root / "images").is_dir():
        return [""]
    names = sorted(child.name for child in root.iterdir() if (child / "images").is_dir())
    if not names:
        raise DatasetError(f"{root}: no split folders with images/ (nor images/ itself)")
    order = list(SPLIT_KEYS)
    return sorted(names, key=lambda name: (order.index(name) if name in order else len(order), name))


def read_split(split_dir: Path, class_count: int) -> list[Example]:
    """Every image of a split with its boxes (none when it has no label file), sorted by file name."""
    images = sorted(p for p in (split_dir / "images").iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    examples = []
    for image in images:
        label = split_dir / "labels" / f"{image.stem}.txt"
        text = label.read_text(encoding="utf-8") if label.is_file() else ""
        examples.append(Example(image, parse_labels(text, str(label), class_count)))
    return examples


def place_file(src: Path, dst: Path) -> None:
    """Put `src` at `dst` without copying where possible: a hard link, else a symlink, else a copy."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.unlink(missing_ok=True)
    try:
        os.link(src.resolve(), dst)
    except OSError:
        try:
            dst.symlink_to(src.resolve())
        except OSError:
            shutil.copyfile(src, dst)


def write_example(split_dir: Path, example: Example) -> None:
    """Place an example's image under split_dir/images and write its labels under split_dir/labels."""
    place_file(example.image, split_dir / "images" / example.image.name)
    label = split_dir / "labels" / f"{example.image.stem}.txt"
    label.parent.mkdir(parents=True, exist_ok=True)
    label.write_text(format_labels(example.boxes), encoding="ascii")
