"""The photos of a manifest set that a models folder finds half or fewer of (as REPORT, a `measure.sh` report,
read them), read again whole after resizing each way (models/experiments/2026-12-06-squeezed-look.md): how many
of their tiles each resize names right, and how many it adds. Usage (the choice sets only):

    .venv/bin/python scripts/stretched_photos.py work/choice-small-faces.json work/real43/valid.jsonl [--models DIR]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2

from fanshot.vision.evaluation.evaluate import manifest_entries
from fanshot.vision.evaluation.metrics import matched
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser

SCALES = ((1, 1), (1, 0.5), (1, 0.35), (0.5, 1), (0.35, 1), (1, 2), (2, 1))  # (width, height) factors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="a report of `fanshot eval` naming SET (scripts/measure.sh)")
    parser.add_argument("set", help="the manifest (.jsonl) as the report names it")
    parser.add_argument("--models", type=Path, default=MODELS_DIR)
    args = parser.parse_args()
    recogniser = Recogniser.load(args.models)
    photos = json.loads(args.report.read_text(encoding="utf-8"))[args.set]["photos"]
    totals, photos_read, tiles = Counter(), 0, 0
    for (path, _, _), read in zip(manifest_entries(Path(args.set)), photos, strict=True):
        true = read["true"]
        if matched(read["found"], true) > len(true) * 0.5:
            continue
        photos_read, tiles = photos_read + 1, tiles + len(true)
        photo = load_photo(path.read_bytes(), max_side=RECOGNITION_MAX_SIDE, of_a_hand=True)
        row = []
        for scale in SCALES:
            size = (round(photo.shape[1] * scale[0]), round(photo.shape[0] * scale[1]))
            found = [tile["code"] for tile in recogniser(cv2.resize(photo, size, interpolation=cv2.INTER_AREA))
                     .as_dict()["tiles"]]
            hits = matched(found, true)
            totals[scale] += hits
            totals[scale, "false"] += len(found) - hits
            row.append(hits)
        print(len(true), row, flush=True)
    print(photos_read, "photos", tiles, "tiles")
    for scale in SCALES:
        print(scale, "right", totals[scale], "false", totals[scale, "false"])


if __name__ == "__main__":
    main()
