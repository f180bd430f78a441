"""Import a label set with other class names (YOLO folder or COCO JSON): remap its classes onto our 43 and
write a new YOLO folder."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from fanshot.datasets.classes import CLASS_INDEX, CLASSES, code_map
from fanshot.datasets.corrections import apply_corrections, read_corrections, shipped_corrections
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.progress import progress
from fanshot.datasets.yolo import (
    Example,
    format_data_yaml,
    place_file,
    read_names,
    read_split,
    split_names,
    write_example,
)


@dataclass(frozen=True)
class SplitSummary:
    split: str
    images: int
    boxes: int
    mirrored: int = 0  # left out: found mirrored
    undetermined: int = 0  # left out: mirroring could not be decided
    corrected: int = 0  # photos relabelled by a corrections file (datasets/corrections/)
    relabelled: int = 0  # their boxes whose class the correction changed


def remap(example: Example, codes: list[str]) -> Example:
    """The example with each box's source class index replaced by our class index."""
    boxes = tuple(replace(box, cls=CLASS_INDEX[codes[box.cls]]) for box in example.boxes)
    return replace(example, boxes=boxes)


def read_remapped(root: Path, splits: list[str] | None = None) -> dict[str, list[Example]]:
    """Splits of the YOLO folder `root` (default: all; "" is a flat folder), remapped to our classes, every
    label line validated."""
    names = read_names(root)
    codes = code_map(names, str(root / "data.yaml"))
    return {split: [remap(example, codes) for example in read_split(root / split, len(names))]
            for split in (split_names(root) if splits is None else splits)}


def read_as_imported(root: Path) -> dict[str, list[Example]]:
    """Every split of a YOLO folder as `fanshot dataset import` writes it by default: in our classes, with the
    corrections shipped for a folder of its name (if any)."""
    splits = read_remapped(root)
    corrections = shipped_corrections(root)
    return apply_corrections(splits, root, read_corrections(corrections)) if corrections else splits


def read_dataset(root: Path) -> dict[str, list[Example]]:
    """Every split of a YOLO folder, or of a COCO JSON file (one flat split ""), in our classes."""
    if root.suffix.lower() == ".json" and root.is_file():
        from fanshot.datasets.coco import read_coco

        return {"": read_coco(root)}
    if not root.is_dir():
        raise DatasetError(f"{root}: not a folder")
    return read_remapped(root)


def ensure_new_folder(dst: Path) -> None:
    if dst.exists() and (not dst.is_dir() or any(dst.iterdir())):
        raise DatasetError(f"{dst}: exists and is not an empty folder; choose a new folder")


def write_dataset(dst: Path, splits: dict[str, list[Example]]) -> None:
    """Write examples already in our classes as a YOLO folder with our data.yaml."""
    ensure_new_folder(dst)
    for split, examples in splits.items():
        for example in progress(examples, f"write {dst.name}/{split}".rstrip("/")):
            write_example(dst / split, example)
    dst.mkdir(parents=True, exist_ok=True)
    (dst / "data.yaml").write_text(format_data_yaml(CLASSES, splits), encoding="ascii")


def relabelled(before: Example, after: Example) -> int:
    return sum(old.cls != new.cls for old, new in zip(before.boxes, after.boxes, strict=True))


def import_yolo(src: Path, dst: Path, *, drop_mirrored: bool = False,
                corrections: Path | Literal["shipped"] | None = "shipped") -> list[SplitSummary]:
    """Import `src` into `dst`, with the source's README files (attribution, licence); with `drop_mirrored`,
    leave out the train images found mirrored and those whose mirroring cannot be decided (datasets.mirror).
    `corrections` relabels photos (datasets/corrections/): a file, "shipped" for the file shipped under the
    source folder's name (if any), or None for the labels as they are."""
    ensure_new_folder(dst)
    if corrections == "shipped":
        corrections = shipped_corrections(src) if src.is_dir() else None
    if corrections and not src.is_dir():
        raise DatasetError(f"{src}: corrections apply to YOLO folders only; import without them")
    original = read_dataset(src)
    splits = apply_corrections(original, src, read_corrections(corrections)) if corrections else original
    mirrored: frozenset[Path] = frozenset()
    undetermined: frozenset[Path] = frozenset()
    if drop_mirrored:
        from fanshot.datasets.mirror import find_mirrored

        report = find_mirrored(splits)
        mirrored, undetermined = report.mirrored, report.undetermined
    dropped = mirrored | undetermined
    kept = {split: [e for e in examples if e.image not in dropped]
            for split, examples in splits.items()}
    write_dataset(dst, kept)
    for readme in sorted(src.glob("README*")) if src.is_dir() else ():  # attribution and licence travel along
        place_file(readme, dst / readme.name)
    # apply_corrections returns a new Example exactly for each corrected photo
    changed = {split: [relabelled(old, new) for old, new in zip(original[split], examples, strict=True)
                       if old is not new]
               for split, examples in splits.items()}
    return [SplitSummary(split or ".", len(examples), sum(len(e.boxes) for e in examples),
                         sum(e.image in mirrored for e in splits[split]),
                         sum(e.image in undetermined for e in splits[split]),
                         len(changed[split]), sum(changed[split]))
            for split, examples in kept.items()]
