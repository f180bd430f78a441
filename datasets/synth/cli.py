"""`fanshot synth` and `fanshot art`: thin shells over datasets.synth.dataset and datasets.synth.art."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from fanshot.datasets.cli import _guarded


def _synth(args: argparse.Namespace) -> int:
    from fanshot.datasets.synth.dataset import synth_dataset

    cache = args.art_cache if (args.art_cache / "faces").is_dir() else None
    if cache is None:
        print(f"note: no face sets in {args.art_cache} (run `fanshot art`); using drawn faces only", file=sys.stderr)
    if (args.randomise or args.scatter or args.ink) and not (args.art_cache / "backgrounds" / "source.json").is_file():
        print(f"note: no background photographs in {args.art_cache} (run `fanshot art`); procedural tables only",
              file=sys.stderr)
    start = time.perf_counter()
    tiles = synth_dataset(args.out, args.n, args.seed, cache, args.crops, args.workers, args.art, args.randomise,
                          args.scatter, args.ink)
    print(f"wrote {args.n} images, {tiles} labelled tiles to {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


def _art(args: argparse.Namespace) -> int:
    from fanshot.datasets.synth.art import SOURCE_NAMES, build_cache, write_contact_sheets
    from fanshot.datasets.synth.backgrounds import build_backgrounds

    names = args.source or list(SOURCE_NAMES)
    missing = [name for name in names if args.refresh or not (args.cache / "faces" / name / "source.json").is_file()]
    for folder in build_cache(args.cache, missing) if missing else []:
        print(f"wrote {folder}")
    if not args.source and (args.refresh or not (args.cache / "backgrounds" / "source.json").is_file()):
        print(f"wrote {build_backgrounds(args.cache)}")
    for path in write_contact_sheets(args.cache, args.contact_sheet, names) if args.contact_sheet else []:
        print(f"wrote {path}")
    return 0


def _evalsets(args: argparse.Namespace) -> int:
    from fanshot.datasets.synth.evalsets import build_eval_sets, build_train_rows

    if args.train_rows:
        tiles = build_train_rows(args.out, args.train_rows, args.seed, args.web_tiles)
        print(f"wrote {args.train_rows} training rows, {tiles} tiles, to {args.out}")
        return 0
    for name, path in build_eval_sets(args.out, args.seed, args.web_tiles, args.rows, args.big, args.clutter).items():
        print(f"{name}: {path}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    from fanshot.datasets.synth.art import ADAPTATION_SOURCE_NAMES, DEFAULT_CACHE, SOURCE_NAMES

    parser = subparsers.add_parser("synth", help="render synthetic photos of winning hands with YOLO labels")
    parser.add_argument("--n", type=int, required=True, help="number of images")
    parser.add_argument("--out", type=Path, required=True, help="YOLO folder to write")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--crops", type=Path, help="also write classifier crops here (DIR/<code>/*.png)")
    parser.add_argument("--art-cache", type=Path, default=DEFAULT_CACHE, help=f"default {DEFAULT_CACHE}")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--art", action="append", default=[], choices=SOURCE_NAMES + ADAPTATION_SOURCE_NAMES,
                        help="render in this cached art only (repeatable; default: every training source, never "
                        f"the adaptation-only {', '.join(ADAPTATION_SOURCE_NAMES)})")
    parser.add_argument("--randomise", action="store_true", help="domain randomisation: tile widths 2-90 %% of "
                        "the frame's shorter side (small hands to one-tile close-ups), camera rolled 0/90/180/270° "
                        "and tilted up to 60°, some tiles upside down, white/yellow/green/blue bodies, backgrounds "
                        "from photographs (`fanshot art` fetches them) and wood, stone, felt, cloth, desks, "
                        "distractors (keys, dominoes, dice, coins, cards, fingers), Japanese-style faces, flowers "
                        "from other art or painted, red fives, blank or framed 白, corner indices, faded or bold "
                        "ink, harsher light, glare, cast shadows, blur, noise, JPEG 30-95")
    parser.add_argument("--scatter", action="store_true", help="randomised as --randomise, but the tiles as a "
                        "table shows them: standing, scattered in short runs and alone, some lying, seen from low "
                        "(45-70° from straight down), on felt of several colours most often, the table's rail "
                        "across the far side, the frame cutting tiles at its edges")
    parser.add_argument("--ink", action="store_true", help="randomised as --randomise (or --scatter), and the "
                        "faces' ink varied: its hue turned, each face's ink in a colour of its own, strokes thinned "
                        "or thickened (drawn apart: the rest of each photo is as without --ink)")
    parser.set_defaults(run=_guarded(_synth))

    from fanshot.datasets.synth.evalsets import WEB_TILES

    parser = subparsers.add_parser("evalsets", help="build the per-set evaluation sets (held-out web crops as "
                                   "close-ups, mixed-set rows, small tiles in 12 MP photos, clutter)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--web-tiles", type=Path, default=WEB_TILES, help=f"default {WEB_TILES}")
    parser.add_argument("--rows", type=int, default=100, help="mixed-set row photos (each of held-out and train)")
    parser.add_argument("--big", type=int, default=20, help="12 MP photos of small tiles")
    parser.add_argument("--clutter", type=int, default=60, help="photos with no tile")
    parser.add_argument("--train-rows", type=int, metavar="N", help="instead: N training photos of rows of the "
                        "training two-thirds of the web crops, with distractors")
    parser.set_defaults(run=_guarded(_evalsets))

    parser = subparsers.add_parser("art", help="fetch and rasterise tile art into a cache, and (no --source) the "
                                   "background photographs of `synth --randomise`; contact sheets")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"default {DEFAULT_CACHE}")
    parser.add_argument("--source", action="append", choices=SOURCE_NAMES + ADAPTATION_SOURCE_NAMES,
                        help="only this source (repeatable; adaptation-only sources are built only when named)")
    parser.add_argument("--refresh", action="store_true", help="rebuild face sets already in the cache")
    parser.add_argument("--contact-sheet", type=Path, metavar="OUT.png",
                        help="write one sheet per source, OUT-<source>.png (OUT.png for a single --source)")
    parser.set_defaults(run=_guarded(_art))
