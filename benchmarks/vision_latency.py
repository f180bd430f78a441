"""Recogniser latency on this machine: median and p95 milliseconds per photo, decode included, over the first
photos of a folder (default: the shared test split, 640×640). Usage:
    .venv/bin/python benchmarks/vision_latency.py [FOLDER] [--photos 20]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from vision.evaluate import read_photo

DEFAULT = Path(__file__).resolve().parents[2] / "shared/data/chinese-mahjong-detection/test/images"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT)
    parser.add_argument("--photos", type=int, default=20)
    args = parser.parse_args()
    photos = sorted(args.folder.glob("*.jpg"))[:args.photos]
    read_photo(photos[0])  # load the sessions outside the timing
    timings = [read_photo(photo) for photo in photos]
    total = [ms for _, ms in timings]
    stages = {key: float(np.median([result["timing_ms"][key] for result, _ in timings]))
              for key in ("localise", "classify")}
    print(json.dumps({"photos": len(photos), "cpus": os.cpu_count(), "median_ms": float(np.median(total)),
                      "p95_ms": float(np.percentile(total, 95)), "median_stage_ms": stages}))


if __name__ == "__main__":
    main()
