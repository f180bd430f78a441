"""`fanshot read`, and what the vision commands share (`fanshot train` and `adapt` are in
vision/training/cli.py, `fanshot eval` and `choose` in vision/evaluation/cli.py): thin shells over vision's library
functions."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fanshot.vision.recogniser import Recogniser


def guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Unreadable photos, files or manifests → `error: ...` on stderr and exit code 2, not a traceback."""

    def guarded(args: argparse.Namespace) -> int:
        from fanshot.datasets.errors import DatasetError
        from fanshot.scoring.errors import ScoringError
        from fanshot.vision.image import PhotoError

        try:
            return run(args)
        except (PhotoError, DatasetError, ScoringError, OSError, ValueError, KeyError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2

    return guarded


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def threshold(text: str) -> float:
    """A score threshold argument: a number in [0, 1) (at 1 or above no tile would ever be found)."""
    value = number(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"a score threshold is from 0 to below 1, not {value:g}")
    return value


def recogniser_of(args: argparse.Namespace) -> Recogniser:
    """The recogniser of --models (default: the shipped one), with --conf and --without where a command has them."""
    return load_recogniser(args.models, getattr(args, "conf", None), getattr(args, "without", []))


def load_recogniser(models: Path | None, conf: float | None, without: list[str]) -> Recogniser:
    """The recogniser of a models folder (None: the shipped one), its threshold and stages changed as given."""
    from fanshot.vision.recogniser import MODELS_DIR, Recogniser

    recogniser = Recogniser.load(models or MODELS_DIR)
    config = recogniser.config if conf is None else recogniser.config.changed(conf=conf)
    return recogniser.with_config(config.without(*without))


def _read(args: argparse.Namespace) -> int:
    from fanshot.vision.evaluation.evaluate import read_photo

    result, ms = read_photo(args.photo, recogniser_of(args))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"{'#':>3}  {'code':<5} {'conf':>5}  {'box':<25} alternatives")
    for number, tile in enumerate(result["tiles"]):
        box = " ".join(f"{v:.0f}" for v in tile["box"])
        others = " ".join(f"{a['code']}:{a['p']:.2f}" for a in tile["alternatives"])
        print(f"{number:>3}  {tile['code']:<5} {tile['confidence']:>5.2f}  {box:<25} {others}")
    for group in result["groups"]:
        print(f"{group['kind']}: {' '.join(result['tiles'][i]['code'] for i in group['tiles'])}")
    print(f"hand: {json.dumps(result['hand'])}")
    print(f"{len(result['tiles'])} tiles in {ms:.0f} ms")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read", help="recognise the tiles in a photo")
    parser.add_argument("photo", type=Path)
    parser.add_argument("--json", action="store_true", help="print the recognition result JSON")
    parser.add_argument("--models", type=Path, help="models folder with vision.json (default: the shipped one)")
    parser.set_defaults(run=guarded(_read))
