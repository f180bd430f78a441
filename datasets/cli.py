"""`fanshot dataset ...` subcommands: thin shells over the dataset library functions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from datasets.errors import DatasetError


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn dataset and file errors into `error: ...` on stderr and exit code 2."""

    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (DatasetError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2

    return guarded


def _import(args: argparse.Namespace) -> int:
    from datasets.importer import import_yolo

    for summary in import_yolo(args.src, args.dst, drop_mirrored=args.drop_mirrored):
        print(f"{summary.split}: {summary.images} images, {summary.boxes} boxes"
              + (f", {summary.dropped} dropped" if summary.dropped else ""))
    print(f"wrote {args.dst / 'data.yaml'}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("dataset", help="dataset tools: import, stats, split, export, manifest")
    commands = parser.add_subparsers(dest="dataset_command", required=True)

    sub = commands.add_parser("import", help="import a YOLO label set with other class names")
    sub.add_argument("src", type=Path, help="folder with data.yaml and split folders")
    sub.add_argument("dst", type=Path, help="new folder to write")
    sub.add_argument("--drop-mirrored", action="store_true",
                     help="leave out train images that are mirrored augmentations")
    sub.set_defaults(run=_guarded(_import))
