from __future__ import annotations

import json
from pathlib import Path

from fanshot.datasets.stats import dataset_stats, format_stats

# Our codes: index 0 is 1m, 42 is back.
LABELS = {"a": "0 .5 .5 .1 .1\n0 .2 .2 .1 .1\n42 .7 .7 .1 .1\n", "b": "", "c": "33 .5 .5 .1 .1\n"}


def test_dataset_stats(make_dataset, tmp_path: Path) -> None:
    from fanshot.datasets.classes import CLASSES

    stats = dataset_stats(make_dataset(list(CLASSES), {"train": LABELS, "test": {"d": "1 .5 .5 .1 .1\n"}}))
    train = stats["train"]
    assert (train.images, train.tiles) == (3, 4)
    assert train.tiles_per_image == {"min": 0, "median": 1, "max": 3}
    assert {k: v for k, v in train.class_counts.items() if v} == {"1m": 2, "7z": 1, "back": 1}
    assert train.image_sizes == {"64x48": 3}
    assert stats["test"].class_counts["2m"] == 1
    assert json.loads(format_stats(stats, as_json=True))["train"]["tiles"] == 4
    table = format_stats(stats).splitlines()
    assert table[0].split() == ["split", "train", "test"] and ["1m", "2", "0"] in [row.split() for row in table]
