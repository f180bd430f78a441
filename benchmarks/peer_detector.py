"""Fanshot's recogniser against the `mahjong-detector` package (PyPI, a YOLO11n ONNX detector) on the same photos,
in one run. Usage (from the repository root, after `fanshot dataset import` made work/real43):

    pip install --no-deps mahjong-detector==0.0.6     # its deps (numpy, Pillow, onnxruntime) are ours already
    .venv-train/bin/python benchmarks/peer_detector.py [--data work/real43] [--splits valid test] [--json]

mahjong-detector knows 34 classes (the 34 playing tiles in riichi names; no flowers, seasons or backs), so both
systems are scored on that subset only: ground-truth tiles, Fanshot's predictions and the peer's predictions
outside the 34 playing-tile codes (flowers 1f-8f, `back`) are dropped before scoring. Figures per split and system:
tile precision / recall / F1 (multiset match per photo, micro-averaged: `vision.metrics.multiset_scores`), the
exact-photo rate over the subset, mAP50 of the boxes at the system's operating threshold (`vision.metrics.mean_ap`),
and median / p95 milliseconds per photo end to end (file → tile codes, decode included; each system is warmed up
once first, and the two run alternately photo by photo so machine load hits both alike).

Systems: Fanshot's `Recogniser` with the shipped models at their threshold; mahjong-detector's public
`detect_tiles()` at its built-in threshold (`postprocess(conf_threshold=0.5)`, class-agnostic NMS at IoU 0.5);
and, with `valid` among the splits, the peer at the confidence threshold that gives it the best tile F1 on valid
(swept on its detections kept down to SWEEP_FLOOR), applied unchanged to the other splits. `detect_tiles()` returns
names only, so the boxes and confidences are taken from a second, untimed pass through the package's own
preprocess / predict / postprocess functions; the script checks that this pass at the default threshold gives
the same tiles as `detect_tiles()`. No torch is needed: the peer runs on ONNX Runtime.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import numpy as np

from fanshot.datasets.yolo import read_names, read_split
from fanshot.scoring.tiles import NUMBER_TILES, PLAYING_TILES
from fanshot.vision.evaluation.evaluate import Tally, read_photo
from fanshot.vision.evaluation.metrics import Boxes, mean_ap
from fanshot.vision.geometry import iou
from fanshot.vision.recogniser import shipped

ROOT = Path(__file__).resolve().parents[1]
PEER = "mahjong-detector"
PEER_DEFAULT_CONF = 0.5  # mahjong_detector.predict.postprocess(conf_threshold=0.5), what detect_tiles() uses
SWEEP_FLOOR = 0.001  # the untimed pass keeps peer detections down to this confidence (ultralytics val's floor)
SWEEP = tuple(np.round(np.arange(0.05, 0.951, 0.05), 2))
SUBSET = frozenset(PLAYING_TILES)  # the 34 codes both systems know

# mahjong-detector's class names (riichi notation) → our tile codes. Number tiles use the same notation as ours:
# m = 萬 characters, p = 筒 dots, s = 索 bamboo. Honours are romanised Japanese readings.
PEER_NAMES: dict[str, str] = {
    **{code: code for code in NUMBER_TILES},  # "1m".."9m", "1p".."9p", "1s".."9s"
    "tou": "1z",    # 東 East
    "nan": "2z",    # 南 South
    "sha": "3z",    # 西 West
    "pe": "4z",     # 北 North (pei)
    "haku": "5z",   # 白 White dragon
    "hatsu": "6z",  # 發 Green dragon
    "chun": "7z",   # 中 Red dragon
}


class MappingError(ValueError):
    """The peer's class list cannot be mapped one-to-one onto the 34 playing-tile codes."""


def peer_codes(class_names: Sequence[str]) -> list[str]:
    """Our code for each of the peer's classes, in its class order; unknown, duplicate-target or missing classes
    raise MappingError (a different package version must be looked at, not guessed)."""
    unknown = [name for name in class_names if name not in PEER_NAMES]
    if unknown:
        raise MappingError(f"{PEER} classes with no entry in PEER_NAMES: {unknown}")
    codes = [PEER_NAMES[name] for name in class_names]
    if len(set(codes)) != len(codes):
        raise MappingError(f"{PEER} classes map to the same code: {sorted(class_names)}")
    if set(codes) != SUBSET:
        raise MappingError(f"{PEER} classes do not cover the 34 playing tiles; missing "
                           f"{sorted(SUBSET - set(codes))}")
    return codes


def in_subset(codes: Iterable[str]) -> list[str]:
    """The codes that are among the 34 playing tiles (flowers and backs dropped), order kept."""
    return [code for code in codes if code in SUBSET]


def subset_boxes(boxes: Boxes) -> Boxes:
    """The boxes whose class is among the 34 playing tiles."""
    keep = [i for i, code in enumerate(boxes.classes) if code in SUBSET]
    return Boxes(boxes.boxes.reshape(-1, 4)[keep], [boxes.classes[i] for i in keep],
                 None if boxes.scores is None else boxes.scores[keep])


def above(boxes: Boxes, conf: float) -> Boxes:
    """The detections with a score above `conf` (the peer's own comparison is strict: score > threshold)."""
    keep = np.flatnonzero(boxes.scores > conf)
    return Boxes(boxes.boxes.reshape(-1, 4)[keep], [boxes.classes[i] for i in keep], boxes.scores[keep])


def tally_subset(tally: Tally, predicted: Iterable[str], ms: float, truth: Iterable[str]) -> None:
    """Add one photo to `tally` with both multisets cut to the 34-code subset."""
    tally.add({"tiles": [{"code": code} for code in in_subset(predicted)]}, ms, in_subset(truth))


def best_threshold(f1_by_threshold: dict[float, float]) -> float:
    """The threshold with the highest F1 (the lower one on a tie)."""
    return max(sorted(f1_by_threshold), key=lambda t: f1_by_threshold[t])


def true_codes_under(found: Boxes, truth: Boxes, threshold: float = 0.5) -> list[tuple[str, str]]:
    """(predicted code, true code) for each detection whose best-overlapping true box (any code, all 43) has
    IoU >= threshold: how each predicted class lands on the labels, to check the name mapping."""
    pairs = []
    if not len(truth.classes):
        return pairs
    for box, code in zip(found.boxes, found.classes, strict=True):
        overlaps = iou(box, truth.boxes)
        best = int(np.argmax(overlaps))
        if overlaps[best] >= threshold:
            pairs.append((code, truth.classes[best]))
    return pairs


def mapping_check(pairs: Iterable[tuple[str, str]]) -> dict[str, dict]:
    """Per predicted code: how many boxes landed on a true tile, how many of them on the same code, and the
    true code they land on most often (`plurality`; the mapped code itself when the mapping agrees with the
    labels more than with any other code)."""
    by_code: dict[str, Counter] = {}
    for predicted, true in pairs:
        by_code.setdefault(predicted, Counter())[true] += 1
    return {code: {"matched": sum(counts.values()), "same_code": counts[code],
                   "plurality": max(sorted(counts), key=lambda c: (counts[c], c == code))}
            for code, counts in sorted(by_code.items())}


@dataclass
class Photo:
    truth: Boxes       # 34-code ground truth in pixels
    all_truth: Boxes   # every true box (43-code figures for Fanshot, as `fanshot eval` reports them)
    fanshot: Boxes     # Fanshot's tiles, all codes
    fanshot_ms: float
    peer_codes: list[str]  # what detect_tiles() returned, mapped to our codes
    peer_ms: float
    peer: Boxes        # the untimed pass: detections with confidence > SWEEP_FLOOR


class Peer:
    """mahjong-detector, imported here so that this module loads without it (tests)."""

    def __init__(self) -> None:
        import importlib

        import mahjong_detector  # pyright: ignore[reportMissingImports]  # the peer project, installed only to compare

        # the modules, not the package's re-exported `predict` function
        predict = importlib.import_module("mahjong_detector.predict")
        self.preprocess = importlib.import_module("mahjong_detector.preprocess")
        self.detect_tiles, self.predict = mahjong_detector.detect_tiles, predict
        self.codes = peer_codes(predict.CLASS_NAMES)
        self.name_to_code = dict(zip(predict.CLASS_NAMES, self.codes, strict=True))
        self.version = metadata.version(PEER)

    def timed(self, path: Path) -> tuple[list[str], float]:
        """The package's public call, end to end from the file (decode included)."""
        from PIL import Image

        start = time.perf_counter()
        names = self.detect_tiles(Image.open(path))
        return [self.name_to_code[name] for name in names], (time.perf_counter() - start) * 1000

    def detections(self, path: Path) -> Boxes:
        """Boxes, codes and confidences through the package's own steps, kept down to SWEEP_FLOOR."""
        from PIL import Image

        image, padding = self.preprocess.preprocess_image(Image.open(path))
        session = self.predict.get_inference_session()
        output = session.run(None, {session.get_inputs()[0].name: self.predict.create_input_tensor(image)})[0]
        found = self.predict.postprocess(output[0], padding, len(self.codes), conf_threshold=SWEEP_FLOOR)
        return Boxes(np.array([[d.x1, d.y1, d.x2, d.y2] for d in found], dtype=float).reshape(-1, 4),
                     [self.codes[d.class_id] for d in found], np.array([d.confidence for d in found]))


def fanshot_boxes(result: dict) -> Boxes:
    tiles = result["tiles"]
    return Boxes(np.array([t["box"] for t in tiles], dtype=float).reshape(-1, 4), [t["code"] for t in tiles],
                 np.array([t["confidence"] for t in tiles], dtype=float))


def run_split(split_dir: Path, names: list[str], peer: Peer, limit: int | None) -> list[Photo]:
    recogniser = shipped()
    examples = read_split(split_dir, len(names))[:limit]
    read_photo(examples[0].image, recogniser)  # warm-ups, outside the timing
    peer.timed(examples[0].image)
    photos = []
    for example in examples:
        result, fanshot_ms = read_photo(example.image, recogniser)
        peer_found, peer_ms = peer.timed(example.image)
        width, height = result["image"]["width"], result["image"]["height"]
        corners = [(b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2) for b in example.boxes]
        truth = Boxes(np.array(corners, dtype=float).reshape(-1, 4) * [width, height, width, height],
                      [names[b.cls] for b in example.boxes])
        photos.append(Photo(subset_boxes(truth), truth, fanshot_boxes(result), fanshot_ms,
                            peer_found, peer_ms, peer.detections(example.image)))
    return photos


def score(photos: list[Photo], predicted: list[Boxes], millis: list[float]) -> dict:
    """34-subset tile figures, exact photos, mAP50 and latency of one system's detections."""
    tally = Tally()
    for photo, found, ms in zip(photos, predicted, millis, strict=True):
        tally_subset(tally, found.classes, ms, photo.truth.classes)
    return {**tally.summary(), "mAP50": mean_ap([subset_boxes(found) for found in predicted],
                                                [photo.truth for photo in photos])}


def report_split(photos: list[Photo], peer_conf: float | None) -> dict:
    fanshot_ms, peer_ms = [p.fanshot_ms for p in photos], [p.peer_ms for p in photos]
    everything = Tally()  # Fanshot on all 43 codes: the `fanshot eval` figures, as a cross-check
    for photo in photos:
        everything.add({"tiles": [{"code": code} for code in photo.fanshot.classes]}, photo.fanshot_ms,
                       list(photo.all_truth.classes))
    default = [above(p.peer, PEER_DEFAULT_CONF) for p in photos]
    report = {
        "images": len(photos),
        "true_tiles_34": sum(len(p.truth.classes) for p in photos),
        "true_tiles_dropped": sum(len(p.all_truth.classes) - len(p.truth.classes) for p in photos),
        "fanshot": {"conf": shipped().config.conf, **score(photos, [p.fanshot for p in photos], fanshot_ms)},
        "fanshot_all_43_codes": everything.summary(),
        "peer_default": {"conf": PEER_DEFAULT_CONF, **score(photos, default, peer_ms)},
        # detect_tiles() must agree with the untimed pass at its threshold (else the boxes are not its boxes)
        "peer_untimed_pass_disagrees": sum(sorted(p.peer_codes) != sorted(found.classes)
                                           for p, found in zip(photos, default, strict=True)),
        "peer_floor_mAP50": mean_ap([subset_boxes(p.peer) for p in photos], [p.truth for p in photos]),
        "peer_mapping_check": mapping_check(pair for p, found in zip(photos, default, strict=True)
                                            for pair in true_codes_under(found, p.all_truth)),
        "peer_sweep_f1": {}, "peer_best": None,
    }
    for conf in SWEEP:
        tally = Tally()
        for photo in photos:
            tally_subset(tally, above(photo.peer, conf).classes, 0.0, photo.truth.classes)
        report["peer_sweep_f1"][float(conf)] = tally.summary()["f1"]
    if peer_conf is not None:  # latency: the peer's timed default call (the threshold does not change its cost)
        report["peer_best"] = {"conf": peer_conf, **score(photos, [above(p.peer, peer_conf) for p in photos],
                                                          peer_ms)}
    return report


def git_state() -> dict:
    """HEAD and the tracked files that differ from it (the code that runs is HEAD plus those edits)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout

    try:
        return {"commit": git("rev-parse", "--short", "HEAD").strip(),
                "modified": [line[3:] for line in git("status", "--porcelain", "--untracked-files=no").splitlines()]}
    except (OSError, subprocess.CalledProcessError):
        return {"commit": "unknown", "modified": []}


def markdown(report: dict) -> str:
    lines = ["| split | system | threshold | photos | tile P | tile R | tile F1 | exact photos | mAP50 "
             "| median ms | p95 ms |", "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for split, figures in report["splits"].items():
        rows = [("Fanshot (ONNX, 2-stage)", figures["fanshot"]), (f"{PEER} default", figures["peer_default"])]
        if figures["peer_best"]:
            rows.append((f"{PEER}, best threshold on valid", figures["peer_best"]))
        for name, row in rows:
            lines.append(f"| {split} | {name} | {row['conf']:g} | {row['images']} | {row['precision']:.3f} "
                         f"| {row['recall']:.3f} | {row['f1']:.3f} | {100 * row['exact_match']:.1f} % "
                         f"| {row['mAP50']:.3f} | {row['median_ms']:.0f} | {row['p95_ms']:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "work/real43",
                        help="our 43-class YOLO folder (`fanshot dataset import`), default work/real43")
    parser.add_argument("--splits", nargs="+", default=["valid", "test"])
    parser.add_argument("--photos", type=int, help="only the first N photos of each split (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    args = parser.parse_args()

    peer, names = Peer(), read_names(args.data)
    started, git = datetime.now(UTC), git_state()  # before the run: what it runs
    load_start = os.getloadavg()
    photos = {split: run_split(args.data / split, names, peer, args.photos) for split in args.splits}
    load_end = os.getloadavg()
    splits, best = {}, None
    if "valid" in photos:
        valid = report_split(photos["valid"], None)
        best = best_threshold(valid["peer_sweep_f1"])
    for split in args.splits:
        splits[split] = report_split(photos[split], best)
    report = {
        "date_utc": started.strftime("%Y-%m-%d %H:%M"), "commit": git["commit"], "modified": git["modified"],
        "data": str(args.data),
        "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in load_start], "loadavg_end": [round(x, 2) for x in load_end],
        "seconds": round((datetime.now(UTC) - started).total_seconds()),
        "versions": {PEER: peer.version, "onnxruntime": metadata.version("onnxruntime"),
                     "numpy": metadata.version("numpy"), "pillow": metadata.version("pillow")},
        "subset": "34 playing tiles: 1m-9m 1p-9p 1s-9s 1z-7z (flowers and backs dropped from truth and predictions)",
        "peer_best_conf_on_valid": best, "splits": splits,
    }
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
        return
    print(markdown(report))
    for split, figures in splits.items():
        fanshot_all = figures["fanshot_all_43_codes"]
        print(f"\n{split}: {figures['true_tiles_34']} true tiles in the subset, {figures['true_tiles_dropped']} "
              f"dropped; Fanshot on all 43 codes F1 {fanshot_all['f1']:.3f}, exact {fanshot_all['exact_match']:.3f}; "
              f"peer mAP50 at conf > {SWEEP_FLOOR}: {figures['peer_floor_mAP50']:.3f}; "
              f"detect_tiles() vs untimed pass disagree on {figures['peer_untimed_pass_disagrees']} photos")
        check = figures["peer_mapping_check"]
        off = [f"{code}→{row['plurality']} ({row['same_code']}/{row['matched']} on {code})"
               for code, row in check.items() if row["plurality"] != code]
        print(f"mapping check (peer boxes at {PEER_DEFAULT_CONF:g} on a true box, IoU ≥ 0.5): "
              f"{sum(row['same_code'] for row in check.values())} of {sum(row['matched'] for row in check.values())} "
              f"on the mapped code; classes landing most often on another code: {', '.join(off) or 'none'}")
        print("peer F1 by threshold: " + ", ".join(f"{t:g} {f:.3f}" for t, f in figures["peer_sweep_f1"].items()))
    print(f"\n{report['date_utc']} UTC, commit {report['commit']} (modified: {', '.join(git['modified']) or 'none'}), "
          f"{report['cpus']} CPUs, load "
          f"{report['loadavg_start']} → {report['loadavg_end']}, {report['seconds']} s; versions {report['versions']}")


if __name__ == "__main__":
    main()
