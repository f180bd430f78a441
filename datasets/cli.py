"""`fanshot dataset ...` subcommands: thin shells over the dataset library functions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from fanshot.datasets.errors import DatasetError


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
    from fanshot.datasets.importer import import_yolo

    corrections = None if args.no_corrections else args.corrections or "shipped"
    for s in import_yolo(args.src, args.dst, drop_mirrored=args.drop_mirrored, corrections=corrections):
        dropped = f", left out {s.mirrored} mirrored and {s.undetermined} undetermined" if args.drop_mirrored else ""
        fixed = f", corrected {s.corrected} photos ({s.relabelled} boxes relabelled)" if s.corrected else ""
        print(f"{s.split}: {s.images} images, {s.boxes} boxes{dropped}{fixed}")
    print(f"wrote {args.dst / 'data.yaml'}")
    return 0


def _stats(args: argparse.Namespace) -> int:
    from fanshot.datasets.stats import dataset_stats, format_stats

    print(format_stats(dataset_stats(args.dir), as_json=args.json))
    return 0


def _split(args: argparse.Namespace) -> int:
    from fanshot.datasets.split import split_dataset

    counts = split_dataset(args.src, args.dst, args.ratios, seed=args.seed, max_distance=args.max_distance)
    print(", ".join(f"{split}: {n} images" for split, n in counts.items()))
    print(f"wrote {args.dst / 'data.yaml'}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from fanshot.datasets.export import export

    print(f"exported {export(args.src, args.format, args.out)} images to {args.out}")
    return 0


def _manifest(args: argparse.Namespace) -> int:
    from fanshot.datasets.manifest import write_manifest

    lines = write_manifest(args.split_dir, args.out)
    if args.out:
        print(f"wrote {len(lines)} lines to {args.out}")
    else:
        print("\n".join(lines))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("dataset", help="dataset tools: import, stats, split, export, manifest")
    commands = parser.add_subparsers(dest="dataset_command", required=True)

    def command(name: str, run: Callable[[argparse.Namespace], int], help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.set_defaults(run=_guarded(run))
        return sub

    sub = command("import", _import, "import a YOLO label set (or COCO JSON) with other class names")
    sub.add_argument("src", type=Path, help="folder with data.yaml and split folders, or a COCO .json")
    sub.add_argument("dst", type=Path, help="new folder to write")
    sub.add_argument("--drop-mirrored", action="store_true",
                     help="leave out train images that are mirrored augmentations, or whose mirroring cannot "
                          "be decided (uses valid/test as the unmirrored reference; takes minutes)")
    chosen = sub.add_mutually_exclusive_group()
    chosen.add_argument("--corrections", type=Path, metavar="FILE",
                        help="relabel the photos this TSV names (see datasets/corrections/); default: the file "
                             "shipped in datasets/corrections/ under the source folder's name, if any")
    chosen.add_argument("--no-corrections", action="store_true",
                        help="keep the source's labels as they are, even where a shipped file corrects them")

    sub = command("stats", _stats, "per-split class counts, tiles per image and image sizes")
    sub.add_argument("dir", type=Path, help="YOLO folder with data.yaml")
    sub.add_argument("--json", action="store_true", help="emit JSON")

    sub = command("split", _split, "re-split a YOLO folder by source photo (near-duplicates stay together)")
    sub.add_argument("src", type=Path, help="YOLO folder (flat or with splits; all are pooled)")
    sub.add_argument("dst", type=Path, help="new folder to write")
    sub.add_argument("--ratios", type=float, nargs=3, default=[0.8, 0.1, 0.1], metavar=("TRAIN", "VALID", "TEST"),
                     help="shares of the images (default 0.8 0.1 0.1)")
    sub.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sub.add_argument("--max-distance", type=int, default=12,
                     help="photos whose 256-bit perceptual hashes differ in at most this many bits are grouped")

    sub = command("export", _export, "export as a YOLO folder or zip, or as COCO JSON")
    sub.add_argument("src", type=Path, help="YOLO folder with data.yaml (or COCO JSON)")
    sub.add_argument("--format", choices=("yolo", "coco"), required=True)
    sub.add_argument("--out", type=Path, required=True, help="YOLO: new folder or .zip; COCO: .json file")

    sub = command("manifest", _manifest, "write the evaluation manifest (JSONL) of a YOLO split folder")
    sub.add_argument("split_dir", type=Path, help="split folder with images/ and labels/")
    sub.add_argument("--out", type=Path, help="JSONL file (image paths relative to its folder); default stdout")
