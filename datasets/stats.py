"""Per-split statistics of a YOLO folder: class counts, tiles per image, image sizes."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import median

from PIL import Image

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.importer import read_dataset
from fanshot.datasets.yolo import Example


@dataclass(frozen=True)
class SplitStats:
    images: int
    tiles: int
    class_counts: dict[str, int]  # every class, in class order
    tiles_per_image: dict[str, float]  # min, median, max
    image_sizes: dict[str, int]  # "WxH" -> images, most common first


def split_stats(examples: list[Example], sizes: list[tuple[int, int]]) -> SplitStats:
    """Statistics of one split, given each example's image size."""
    per_image = [len(e.boxes) for e in examples] or [0]
    counts = Counter(CLASSES[b.cls] for e in examples for b in e.boxes)
    return SplitStats(
        images=len(examples),
        tiles=sum(per_image),
        class_counts={code: counts[code] for code in CLASSES},
        tiles_per_image={"min": min(per_image), "median": median(per_image), "max": max(per_image)},
        image_sizes=dict(Counter(f"{w}x{h}" for w, h in sizes).most_common()),
    )


def image_size(path: Path) -> tuple[int, int]:
    """Width and height from the image header (before any EXIF rotation)."""
    with Image.open(path) as image:
        return image.size


def dataset_stats(root: Path) -> dict[str, SplitStats]:
    return {split or ".": split_stats(examples, [image_size(e.image) for e in examples])
            for split, examples in read_dataset(root).items()}


def format_stats(stats: dict[str, SplitStats], as_json: bool = False) -> str:
    """A readable table (classes as rows, splits as columns), or JSON."""
    if as_json:
        return json.dumps({split: asdict(s) for split, s in stats.items()}, indent=2)
    splits = list(stats)
    lines = ["split".ljust(11) + "".join(f"{split:>10}" for split in splits)]
    rows = [("images", [s.images for s in stats.values()]), ("tiles", [s.tiles for s in stats.values()])]
    rows += [(f"{key}/img", [s.tiles_per_image[key] for s in stats.values()]) for key in ("min", "median", "max")]
    rows += [(code, [s.class_counts[code] for s in stats.values()]) for code in CLASSES]
    lines += [name.ljust(11) + "".join(f"{value:>10g}" for value in values) for name, values in rows]
    lines += [f"sizes {split}: " + ", ".join(f"{size} ×{n}" for size, n in s.image_sizes.items())
              for split, s in stats.items()]
    return "\n".join(lines)
