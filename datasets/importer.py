"""Import a YOLO label set with other class names: remap its classes onto our 43, write a new YOLO folder."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from datasets.classes import CLASS_INDEX, CLASSES, code_map
from datasets.errors import DatasetError
from datasets.yolo import Example, format_data_yaml, read_names, read_split, split_names, write_example


@dataclass(frozen=True)
class SplitSummary:
    split: str
    images: int
    boxes: int
    dropped: int


def remap(example: Example, codes: list[str]) -> Example:
    """The example with each box's source class index replaced by our class index."""
    boxes = tuple(replace(box, cls=CLASS_INDEX[codes[box.cls]]) for box in example.boxes)
    return replace(example, boxes=boxes)


def read_dataset(root: Path) -> dict[str, list[Example]]:
    """Every split of a YOLO folder, remapped to our classes (validating every label line)."""
    if not root.is_dir():
        raise DatasetError(f"{root}: not a folder")
    names = read_names(root)
    codes = code_map(names, str(root / "data.yaml"))
    return {split: [remap(example, codes) for example in read_split(root / split, len(names))]
            for split in split_names(root)}


def write_dataset(dst: Path, splits: dict[str, list[Example]]) -> None:
    """Write examples already in our classes as a YOLO folder with our data.yaml."""
    if dst.exists() and any(dst.iterdir()):
        raise DatasetError(f"{dst}: exists and is not empty; choose a new folder")
    for split, examples in splits.items():
        for example in examples:
            write_example(dst / split, example)
    dst.mkdir(parents=True, exist_ok=True)
    (dst / "data.yaml").write_text(format_data_yaml(CLASSES, splits), encoding="ascii")


def import_yolo(src: Path, dst: Path, *, drop_mirrored: bool = False) -> list[SplitSummary]:
    """Import `src` into `dst`; with `drop_mirrored`, leave out the train images found to be mirrored."""
    splits = read_dataset(src)
    dropped: set[Path] = set()
    if drop_mirrored:
        from datasets.mirror import find_mirrored

        dropped = find_mirrored(splits)
    kept = {split: [e for e in examples if e.image not in dropped] for split, examples in splits.items()}
    write_dataset(dst, kept)
    return [SplitSummary(split or ".", len(examples), sum(len(e.boxes) for e in examples),
                         len(splits[split]) - len(examples)) for split, examples in kept.items()]
