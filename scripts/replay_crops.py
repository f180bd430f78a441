"""Replay photos for a localiser fine-tune (models/experiments/2026-12-06-cpu-replay-localiser.md): crops of a YOLO
folder's training photos that show its tiles at the sizes the recogniser's other looks meet them, so that a
fine-tune on new kinds does not forget these.

    python scripts/replay_crops.py closeup SRC OUT --n 300 --seed 7420   1-3 tiles filling much of the frame
    python scripts/replay_crops.py hand SRC OUT --n 300 --seed 7421      8-20 tile widths a side: the closer
                                                                          look's window on a 12 MP photo
    python scripts/replay_crops.py far SRC OUT --n 300 --seed 7424       14-48 tile widths a side: tiles of
                                                                          9-30 px at 416, as the scan and the
                                                                          closer look meet tiny 12 MP tiles

SRC is a YOLO folder (its train/ split, or the folder itself when flat); OUT a flat YOLO folder of SRC's classes.
A tile is labelled when most of it lies in the crop; the rest are cut off by the frame, as in a real close-up.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from fanshot.datasets.yolo import box_from_corners, format_data_yaml, format_labels, read_names, read_split

# the window's side in tile sides (the tile's longer side): close-ups show a tile at 30-90 % of the shorter side;
# the closer look aims for tiles 32 px in its 416 px input, 13 a side, so 8-20 covers around it; the scan reads a
# 12 MP frame at 1,600 px in 416 px windows, where a tile 20-30 px wide in the photo is 8-12 px (35-52 a side)
WINDOW_TILES = {"closeup": (1.1, 3.3), "hand": (8.0, 20.0), "far": (14.0, 48.0)}
INSIDE = 0.6  # a tile with this share of its area in the crop is labelled
LONGEST = 832  # px: crops are stored no larger (the localiser reads 416)


def window(box: np.ndarray, size: tuple[int, int], kind: str, rng: np.random.Generator) -> np.ndarray | None:
    """A crop window [x1, y1, x2, y2] in pixels holding `box`, of a 4:3 shape either way; None if the photo is
    too small for it."""
    side = max(box[2] - box[0], box[3] - box[1]) * rng.uniform(*WINDOW_TILES[kind])
    extent = np.array([side * 4 / 3, side] if rng.random() < 0.5 else [side, side * 4 / 3])
    if np.any(extent > size):
        return None
    low = np.maximum(box[2:] - extent, 0)  # the window's corner range that keeps the box whole and in the photo
    high = np.minimum(box[:2], np.array(size) - extent)
    corner = rng.uniform(low, np.maximum(high, low))
    return np.concatenate([corner, corner + extent])


def labelled_in(boxes: np.ndarray, classes: np.ndarray, crop: np.ndarray, where: str) -> list:
    """The boxes mostly inside `crop`, in its normalised coordinates."""
    inner = np.clip(boxes, np.tile(crop[:2], 2), np.tile(crop[2:], 2))
    area = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    kept = np.prod(np.maximum(inner[:, 2:] - inner[:, :2], 0), axis=1) >= INSIDE * area
    extent = np.tile(crop[2:] - crop[:2], 2)
    return [box_from_corners(int(c), (b - np.tile(crop[:2], 2)) / extent, where)
            for c, b in zip(classes[kept], inner[kept], strict=True)]


def write_crops(src: Path, out: Path, kind: str, n: int, seed: int) -> int:
    names = read_names(src)
    split = src / "train" if (src / "train" / "images").is_dir() else src
    examples = [example for example in read_split(split, len(names)) if example.boxes]
    for folder in ("images", "labels"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    (out / "data.yaml").write_text(format_data_yaml(names, [""]), encoding="utf-8")
    rng, written, tries = np.random.default_rng(seed), 0, 0
    while written < n and tries < 20 * n:
        tries += 1
        example = examples[rng.integers(len(examples))]
        image = cv2.imread(str(example.image))
        size = (image.shape[1], image.shape[0])
        scale = np.tile(size, 2)
        boxes = np.array([(b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2) for b in example.boxes])
        boxes, classes = boxes * scale, np.array([b.cls for b in example.boxes])
        crop = window(boxes[rng.integers(len(boxes))], size, kind, rng)
        if crop is None:
            continue
        name = f"{kind}_{written:05d}"
        labels = labelled_in(boxes, classes, crop, name)
        x1, y1, x2, y2 = crop.round().astype(int)
        pixels = image[y1:y2, x1:x2]
        shrink = min(1.0, LONGEST / max(pixels.shape[:2]))
        if shrink < 1:
            pixels = cv2.resize(pixels, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), pixels, [cv2.IMWRITE_JPEG_QUALITY, 90])
        (out / "labels" / f"{name}.txt").write_text(format_labels(labels), encoding="ascii")
        written += 1
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=sorted(WINDOW_TILES))
    parser.add_argument("src", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args()
    print(f"wrote {write_crops(args.src, args.out, args.kind, args.n, args.seed)} {args.kind} crops to {args.out}")


if __name__ == "__main__":
    main()
