"""Recogniser latency on this machine, end to end: median and p95 milliseconds per photo from the file's bytes
to the recognition result (read, decode with EXIF orientation, localise, classify, group), as
POST /v1/recognitions does it (`load_photo(data, max_side=1600)`, then the `Recogniser`), side by side: Fanshot
(with every stage), Fanshot's single look (every stage switched off, `without(*STAGES)`: the pipeline before
them: their cost is the ratio) and, with `--peer`, mahjong-detector, alternately photo by photo. Two cases, same
photos, and any `--zoom` folders:

- `640px`: the first photos of a folder (default: the shared test split, 640×640 JPEGs);
- `12mp`: each of them as a 4000×3000 JPEG (quality 92) made first in a temporary folder: upscaled to
  3000×3000 (Lanczos) and centred on a grey (114) 4000×3000 canvas, i.e. padded to 4:3 left and right; three
  photos in four are stored turned, with the EXIF orientation tag (6, 3, 8) that turns them back upright.

Each case: one untimed photo first (sessions, first-run allocations), then every photo once. Prints one JSON line
per case, with the load average before and after it. Usage:

    .venv/bin/python benchmarks/vision_latency.py [FOLDER] [--photos 20] [--repeat 1] [--peer] [--ablation]
        [--zoom FOLDER ...] [--models DIR ...]

The 12-megapixel copies of a whole evaluation manifest, for `fanshot eval` (writes DIR/manifest.jsonl):

    .venv/bin/python benchmarks/vision_latency.py --make-12mp work/real43/test.jsonl --out DIR
"""

from __future__ import annotations

import argparse
import io
import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from fanshot.vision.config import STAGES
from fanshot.vision.image import RECOGNITION_MAX_SIDE, Original, load_photo
from fanshot.vision.recogniser import Recogniser, for_models, shipped

DEFAULT = Path(__file__).resolve().parents[2] / "shared/data/chinese-mahjong-detection/test/images"
BIG_SIZE, BIG_CONTENT, PAD = (4000, 3000), 3000, (114, 114, 114)
# ONNX Runtime's worker threads spin-wait a moment after each run. On 2 cores the next system's run shares the CPU
# with them: the peer read the test photos in 73 ms right after Fanshot, 44 ms alone (2026-12-04). So each timed
# call waits this long first, for the last one's threads to go idle.
SETTLE_S = 0.02
# EXIF orientation → the turn that stores an upright picture so that this tag turns it back.
STORED_TURN = {1: None, 6: Image.Transpose.ROTATE_90, 3: Image.Transpose.ROTATE_180, 8: Image.Transpose.ROTATE_270}
ORIENTATIONS = (1, 6, 3, 8)


def twelve_megapixels(photo: Path, orientation: int) -> bytes:
    """`photo` as a 4000×3000 quality-92 JPEG (upscaled, padded to 4:3), stored under `orientation`."""
    with Image.open(photo) as source:
        upright = source.convert("RGB").resize((BIG_CONTENT, BIG_CONTENT), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", BIG_SIZE, PAD)
    canvas.paste(upright, ((BIG_SIZE[0] - BIG_CONTENT) // 2, (BIG_SIZE[1] - BIG_CONTENT) // 2))
    exif = Image.Exif()
    if turn := STORED_TURN[orientation]:
        canvas = canvas.transpose(turn)
        exif[0x0112] = orientation
    buffer = io.BytesIO()
    canvas.save(buffer, "JPEG", quality=92, exif=exif)
    return buffer.getvalue()


def write_12mp(photos: list[Path], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, photo in enumerate(photos):
        paths.append(out / f"{photo.stem}.jpg")
        paths[-1].write_bytes(twelve_megapixels(photo, ORIENTATIONS[index % len(ORIENTATIONS)]))
    return paths


def make_12mp_manifest(manifest: Path, out: Path) -> None:
    """12-MP copies of a manifest's photos in `out`, and `out/manifest.jsonl` with the same tiles."""
    entries = [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()]
    paths = write_12mp([manifest.parent / entry["image"] for entry in entries], out)
    lines = [json.dumps({**entry, "image": path.name}) for entry, path in zip(entries, paths, strict=True)]
    (out / "manifest.jsonl").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def systems(peer: bool, ablation: bool = False,
            candidates: Sequence[Path] = ()) -> dict[str, Callable[[bytes], dict | list]]:
    """File bytes → result, for each system timed: Fanshot, Fanshot's single look, with `ablation` Fanshot with
    each stage switched off in turn (`without_STAGE`), each candidate models folder read with every stage
    (`models:DIR`), and with `peer` mahjong-detector's public `detect_tiles` (PyPI; `pip install --no-deps
    mahjong-detector==0.0.6`)."""
    def fanshot(recogniser: Recogniser) -> Callable[[bytes], dict]:
        return lambda data: recogniser(load_photo(data, max_side=RECOGNITION_MAX_SIDE, of_a_hand=True),
                                       Original(data)).as_dict()

    single_look = shipped().with_config(shipped().config.without(*STAGES))
    timed = {"fanshot": fanshot(shipped()), "single_look": fanshot(single_look)}
    if ablation:
        timed |= {f"without_{stage}": fanshot(shipped().with_config(shipped().config.without(stage)))
                  for stage in STAGES}
    timed |= {f"models:{folder}": fanshot(for_models(folder)) for folder in candidates}
    if peer:
        import mahjong_detector  # pyright: ignore[reportMissingImports]  # the peer project, installed only to compare

        timed["peer"] = lambda data: mahjong_detector.detect_tiles(Image.open(io.BytesIO(data)))
    return timed


def measure(case: str, photos: list[Path], timed: dict[str, Callable[[bytes], dict | list]],
            repeat: int = 1) -> dict:
    """Median and p95 ms per photo of each system, run alternately photo by photo (so load hits all alike),
    each warmed up on the first photo and each call `SETTLE_S` after the last; ratios to Fanshot's single look;
    Fanshot's stage medians. With `repeat` > 1 each photo is read that many times by every system in turn and
    its fastest time kept: on a shared host the other engineers' work then adds less noise to either side."""
    data = [photo.read_bytes() for photo in photos]
    load_before = os.getloadavg()
    for run in timed.values():
        run(data[0])
    millis: dict[str, list[float]] = {name: [] for name in timed}
    results = []
    for photo in data:
        fastest = dict.fromkeys(timed, float("inf"))
        for _ in range(repeat):
            for name, run in timed.items():
                time.sleep(SETTLE_S)
                start = time.perf_counter()
                result = run(photo)
                fastest[name] = min(fastest[name], (time.perf_counter() - start) * 1000)
                if name == "fanshot":
                    read = result
        for name, ms in fastest.items():
            millis[name].append(ms)
        results.append(read)
    medians = {name: float(np.median(ms)) for name, ms in millis.items()}
    stages = {key: round(float(np.median([r["timing_ms"][key] for r in results])), 1)
              for key in ("localise", "classify")}
    return {"case": case, "photos": len(photos), "repeat": repeat, "decoded": list(results[0]["image"].values()),
            "median_ms": {name: round(ms, 1) for name, ms in medians.items()},
            "p95_ms": {name: round(float(np.percentile(ms, 95)), 1) for name, ms in millis.items()},
            "ratio_to_single_look": {name: round(ms / medians["single_look"], 3) for name, ms in medians.items()},
            "ratio_to_fanshot": {name: round(ms / medians["fanshot"], 3) for name, ms in medians.items()},
            "fanshot_median_stage_ms": stages, "cpus": os.cpu_count(),
            "loadavg_before": [round(v, 2) for v in load_before],
            "loadavg_after": [round(v, 2) for v in os.getloadavg()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, nargs="?", default=DEFAULT)
    parser.add_argument("--photos", type=int, default=20)
    parser.add_argument("--zoom", type=Path, action="append", default=[], metavar="FOLDER",
                        help="also a case of these photos (e.g. ones the zoom pass reads again; repeatable)")
    parser.add_argument("--peer", action="store_true", help="time mahjong-detector alongside")
    parser.add_argument("--repeat", type=int, default=1, help="read each photo this many times per system, "
                        "alternately, and keep its fastest (a shared host's noise)")
    parser.add_argument("--ablation", action="store_true", help="time each stage switched off in turn alongside")
    parser.add_argument("--models", type=Path, action="append", default=[], metavar="DIR",
                        help="also time this models folder with every stage (a candidate; repeatable)")
    parser.add_argument("--make-12mp", type=Path, metavar="MANIFEST", help="only write 12-MP copies of a manifest")
    parser.add_argument("--out", type=Path, help="folder for --make-12mp")
    args = parser.parse_args()
    if args.make_12mp:
        if not args.out:
            parser.error("--make-12mp needs --out")
        make_12mp_manifest(args.make_12mp, args.out)
        return
    photos = sorted(args.folder.glob("*.jpg"))[:args.photos]
    if not photos:
        parser.error(f"no .jpg photos in {args.folder}")
    timed = systems(args.peer, args.ablation, args.models)
    print(json.dumps(measure("640px", photos, timed, args.repeat)), flush=True)
    with tempfile.TemporaryDirectory(prefix="fanshot-12mp-") as scratch:
        print(json.dumps(measure("12mp", write_12mp(photos, Path(scratch)), timed, args.repeat)), flush=True)
    for folder in args.zoom:
        zoomed = sorted(folder.glob("*.jpg"))[:args.photos]
        print(json.dumps(measure(f"zoom:{folder}", zoomed, timed, args.repeat)), flush=True)


if __name__ == "__main__":
    main()
