"""Does the page's live count agree with the full read? Per photo of a manifest folder (default: the valid split,
a choice set): the full read's tile count (`Recogniser` with every stage, the shipped models), and the live count
of each models folder given (the single look the page takes: `Recogniser.localise` at vision.json's conf, on the
photo as the server decodes it). Prints, per folder, the share of photos whose live count is within ±1 of the
full read's, the mean absolute difference and the worst, as one JSON line.

    .venv/bin/python benchmarks/live_count.py MODELS_DIR... [--photos FOLDER] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import Recogniser, shipped

VALID = Path(__file__).resolve().parents[2] / "shared/data/chinese-mahjong-detection/valid/images"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--photos", type=Path, default=VALID)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    full = shipped()
    lives = [Recogniser.load(folder) for folder in args.models]
    photos = sorted(args.photos.glob("*.jpg"))[:args.limit]
    load = round(os.getloadavg()[0], 2)
    differences = np.zeros((len(lives), len(photos)), dtype=int)
    for column, photo in enumerate(photos):
        image = load_photo(photo.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
        read = len(full(image)["tiles"])
        for row, live in enumerate(lives):
            differences[row, column] = len(live.localise(image, live.config.conf)) - read
    for folder, diff in zip(args.models, differences, strict=True):
        print(json.dumps({"models": str(folder), "photos": len(photos),
                          "within_1": round(float(np.mean(abs(diff) <= 1)), 3),
                          "mean_abs": round(float(np.mean(abs(diff))), 2), "worst": int(diff[np.argmax(abs(diff))]),
                          "live_fewer": int(np.sum(diff < -1)), "live_more": int(np.sum(diff > 1)),
                          "load": [load, round(os.getloadavg()[0], 2)]}))


if __name__ == "__main__":
    main()
