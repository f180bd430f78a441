"""Split labelled photos into train/valid/test by source photo, so that near-duplicates never straddle splits.

Photos are grouped when they share a Roboflow source stem (augmented variants of one photo) or when their
perceptual hashes (256-bit difference hash) are within a few bits (the same photo saved twice, resized or
recompressed). Whole groups are then dealt to the splits in a seeded random order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import read_dataset, write_dataset
from fanshot.datasets.mirror import source_stem
from fanshot.datasets.yolo import Example

SPLITS = ("train", "valid", "test")


def dhash(path: Path, size: int = 16) -> np.ndarray:
    """Difference hash (size² bits): is each pixel of a grey (size+1)×size thumbnail brighter than its right
    neighbour. At 256 bits the same photo re-encoded or lightly edited stays within a few bits, while
    different photos of these tables differ by 20 or more."""
    with Image.open(path) as image:
        thumbnail = image.convert("L").resize((size + 1, size), Image.Resampling.LANCZOS)
    pixels = np.asarray(thumbnail, dtype=np.int16)
    return (pixels[:, 1:] > pixels[:, :-1]).ravel()


def group_photos(stems: Sequence[str], hashes: np.ndarray, max_distance: int) -> list[list[int]]:
    """Indices grouped, transitively, by equal source stem or by hash Hamming distance <= max_distance
    (`hashes` has one row of bits per photo); each group sorted, groups ordered by their first index."""
    parent = list(range(len(stems)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_of_stem: dict[str, int] = {}
    for i, stem in enumerate(stems):
        parent[root(i)] = root(first_of_stem.setdefault(source_stem(stem), i))
    for i in range(len(hashes)):
        for j in np.flatnonzero((hashes[i + 1:] != hashes[i]).sum(axis=1) <= max_distance):
            parent[root(i + 1 + int(j))] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(stems)):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())


def assign_groups(sizes: Sequence[int], ratios: Sequence[float], seed: int) -> list[int]:
    """A split index for each group: groups in a seeded random order, each to the split furthest below its
    share of the images."""
    if len(ratios) != len(SPLITS) or min(ratios) < 0 or sum(ratios) <= 0:
        raise DatasetError(f"ratios must be {len(SPLITS)} non-negative numbers with a positive sum")
    targets = [ratio / sum(ratios) * sum(sizes) for ratio in ratios]
    counts = [0] * len(ratios)
    order = list(range(len(sizes)))
    random.Random(seed).shuffle(order)
    assignment = [0] * len(sizes)
    for group in order:
        split = max(range(len(ratios)), key=lambda s: (targets[s] - counts[s], ratios[s]))
        assignment[group] = split
        counts[split] += sizes[group]
    return assignment


def split_examples(examples: Sequence[Example], hashes: np.ndarray, ratios: Sequence[float], seed: int,
                   max_distance: int) -> dict[str, list[Example]]:
    """The examples dealt to train/valid/test by group (splits that get nothing are left out)."""
    groups = group_photos([e.image.stem for e in examples], hashes, max_distance)
    splits: dict[str, list[Example]] = {name: [] for name in SPLITS}
    for group, split in zip(groups, assign_groups([len(g) for g in groups], ratios, seed), strict=True):
        splits[SPLITS[split]].extend(examples[i] for i in group)
    return {name: sorted(chosen, key=lambda e: e.image.name) for name, chosen in splits.items() if chosen}


def split_dataset(src: Path, dst: Path, ratios: Sequence[float], seed: int = 0,
                  max_distance: int = 12) -> dict[str, int]:
    """Pool every split of `src`, re-split it by photo group into `dst`; images per split."""
    examples = sorted((e for split in read_dataset(src).values() for e in split), key=lambda e: e.image.name)
    names = Counter(e.image.name for e in examples)
    clashes = sorted(name for name, n in names.items() if n > 1)
    if clashes:
        raise DatasetError(f"{src}: image names occur in more than one split: {', '.join(clashes[:5])}")
    hashes = np.array([dhash(e.image) for e in examples]).reshape(len(examples), -1)
    splits = split_examples(examples, hashes, ratios, seed, max_distance)
    write_dataset(dst, splits)
    return {name: len(chosen) for name, chosen in splits.items()}
