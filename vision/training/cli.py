"""`fanshot train` and `fanshot adapt`: thin shells over the training library functions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fanshot.vision.cli import guarded, number, threshold


def _jitter_scale(text: str) -> float:
    """A crop jitter argument: a fraction in [0, 0.5] (beyond it a box could shrink to nothing)."""
    value = number(text)
    if not 0 <= value <= 0.5:
        raise argparse.ArgumentTypeError(f"a jitter scale is from 0 to 0.5, not {value:g}")
    return value


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a count is a whole number from 1, not {text!r}")
    return int(text)


def _webp_quality(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100:
        raise argparse.ArgumentTypeError(f"a WebP quality is a whole number from 1 to 100, not {text!r}")
    return int(text)


def _share(text: str) -> float:
    """A share argument: a fraction in [0, 1]."""
    value = number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share is from 0 to 1, not {value:g}")
    return value


def _train_data(args: argparse.Namespace) -> int:
    from fanshot.vision.recogniser import MODELS_DIR
    from fanshot.vision.training.refit import source_photos
    from fanshot.vision.training.train import (
        add_localiser_crops,
        add_negative_crops,
        build_crop_dataset,
        build_localiser_dataset,
    )

    negatives = [source_photos(source) for source in args.negatives]  # a bad source fails now, not minutes later
    print(f"wrote {build_localiser_dataset(args.src, args.out / 'localiser', args.extra)}")
    counts = build_crop_dataset(args.src, args.out / "crops", copies=args.copies, extra=args.extra,
                                jitter_scale=args.jitter_scale, small=args.small)
    print(f"wrote {sum(counts.values())} train crops in {len(counts)} classes to {args.out / 'crops'}")
    if args.localiser_crops:
        added = add_localiser_crops(args.src, args.out / "crops", args.localiser_crops)
        print(f"added {added} train crops cut by the localiser in {args.localiser_crops}")
    if negatives:
        added = add_negative_crops(negatives, args.out / "crops", args.localiser_crops or MODELS_DIR)
        print(f"added {added} not-a-tile crops from {len(args.negatives)} sources")
    return 0


def _train_pack(args: argparse.Namespace) -> int:
    from fanshot.vision.training.train import pack

    written = pack(args.src, args.out, args.extra, args.negatives, args.size, args.most_valid, args.variants,
                   args.quality)
    used = sum(path.stat().st_size for path in args.out.rglob("*") if path.is_file())
    print(f"wrote {', '.join(f'{n} photos to {args.out / name}' for name, n in written.items())} "
          f"({used / 2**20:.1f} MiB)")
    return 0


def _train(args: argparse.Namespace) -> int:
    from fanshot.vision.training.train import train

    data = args.data / "localiser" / "data.yaml" if args.train_command == "localiser" else args.data / "crops"
    best = train(args.train_command, data, args.runs, hours=args.hours, batch=args.batch, lr0=args.lr0,
                 resume=args.resume, init=args.init, name=args.name, device=args.device, workers=args.workers,
                 warmup_epochs=args.warmup_epochs)
    print(f"best: {best}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from fanshot.vision.config import VISION_JSON, RecogniserConfig, Stage, VisionFile
    from fanshot.vision.training.train import CLASSIFIER_IMGSZ, LOCALISER_IMGSZ, export

    # --only: export that stage; the other stays as OUT/vision.json describes it (with its training commands).
    # The recogniser's settings stay as OUT/vision.json has them (the defaults for a new folder).
    previous = VisionFile.read(args.out) if (args.out / VISION_JSON).is_file() else None
    config = previous.recogniser if previous else RecogniserConfig()
    stages = {"localiser": previous.localiser, "classifier": previous.classifier} if previous and args.only else {}
    for kind, imgsz in (("localiser", LOCALISER_IMGSZ), ("classifier", CLASSIFIER_IMGSZ)):
        if args.only not in (None, kind):
            continue
        weights = getattr(args, kind) or args.runs / kind / "weights" / "best.pt"
        path, names = export(weights, args.out / f"{kind}.onnx", imgsz, dynamic=kind == "classifier", runs=args.runs)
        stages[kind] = Stage(file=path.name, imgsz=imgsz, classes=names)
        if kind == "localiser" and args.conf is not None:
            config = config.changed(conf=args.conf)
        print(f"wrote {path}")
    training = args.command_line or (previous.training if previous and args.only else ())
    exported = VisionFile(**stages, recogniser=config, training=training)
    if previous:
        exported = exported.small_faces_naming(previous.classifier.classes)
    print(f"wrote {exported.write(args.out)}")
    return 0


def _average(args: argparse.Namespace) -> int:
    from fanshot.vision.training.train import averaged_model

    print(f"wrote {averaged_model(args.checkpoints, args.out)}")
    return 0


def _refit(args: argparse.Namespace) -> int:
    from fanshot.vision.recogniser import MODELS_DIR
    from fanshot.vision.training.refit import refit

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    command = " ".join(["fanshot train refit", *(f"--fit {p}" for p in args.fit), *(f"--tune {p}" for p in args.tune),
                        *(f"--valid {p}" for p in args.valid), f"--out {args.out}"]
                       + ([f"--most {args.most}"] if args.most else [])
                       + ([f"--models {args.models}"] if args.models else []))
    record = refit(args.fit, args.tune, args.valid, args.out, args.models or MODELS_DIR, most=args.most,
                   cache=args.cache, progress=progress, command=command)
    if args.json:
        print(json.dumps(record))
        return 0
    print(f"setting: {record['setting']}; {record['rows']} training rows; wrote {args.out} in "
          f"{record['seconds']:.0f} s")
    for name, figures in record["valid"].items():
        print(f"{name}: F1 {figures['f1']:.4f}, exact {figures['exact_photos']}/{figures['photos']} "
              f"(base {record['choice']['base'][name]:.4f})")
    return 0


def _quantise(args: argparse.Namespace) -> int:
    from fanshot.vision.recogniser import MODELS_DIR
    from fanshot.vision.training.quantise import STAGES, quantise

    for path in quantise(args.models or MODELS_DIR, args.photos, args.out, count=args.count, only=args.only or STAGES):
        print(f"wrote {path}")
    return 0


def _adapt(args: argparse.Namespace) -> int:
    from fanshot.vision.recogniser import MODELS_DIR
    from fanshot.vision.training.adapt import adapt

    def progress(fraction: float, message: str) -> None:
        print(f"{fraction:4.0%} {message}", file=sys.stderr)

    command = (f"fanshot adapt --yolo {args.yolo} --out {args.out}"
               + (f" --models {args.models}" if args.models else "") + (" --localiser" if args.localiser else "")
               + (f" --kind {args.kind}" if args.kind else ""))
    record = adapt(args.yolo, args.out, args.models or MODELS_DIR, progress=progress, command=command,
                   adapt_localiser=args.localiser, deep={"deep": True, "head": False}.get(args.kind))
    if args.json:
        print(json.dumps(record))
        return 0
    held = record["held_out"]
    for kind in ("base", "adapted"):
        figures = held[kind]
        print(f"{kind:>8} on {figures['photos']} held-out photos: F1 {figures['f1']:.4f}, "
              f"exact {figures['exact_photos']}/{figures['photos']}")
    print(f"kept the {record['kept']} models ({record['kind']} adaptation, threshold {record['conf']}); wrote "
          f"{args.out} in {record['seconds']:.0f} s ({record['cpu_seconds']:.0f} s CPU)")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("train", help="train and export the tile localiser and crop classifier")
    commands = parser.add_subparsers(dest="train_command", required=True)
    _register_datasets(commands)
    _register_fits(commands)
    _register_refits(commands)
    _register_adapt(subparsers)


def _register_datasets(commands: argparse._SubParsersAction) -> None:
    """`train data` and `train pack`: the training sets, built here or carried to a GPU machine."""
    from fanshot.vision.training.train import JITTER_SCALE

    sub = commands.add_parser("data", help="build the localiser and crop datasets from a 43-class YOLO folder")
    sub.add_argument("src", type=Path, help="YOLO folder with data.yaml, train/ and valid/")
    sub.add_argument("--out", type=Path, default=Path("work/train-data"))
    sub.add_argument("--copies", type=int, default=1, help="jittered crops per train tile")
    sub.add_argument("--jitter-scale", type=_jitter_scale, default=JITTER_SCALE, metavar="FRACTION",
                     help=f"each side of a crop's box is scaled by up to this fraction (default {JITTER_SCALE})")
    sub.add_argument("--small", type=_share, default=0.0, metavar="SHARE",
                     help="this share of the train crops shown as a far tile's: shrunk to 16-44 px wide, "
                     "JPEG-coded, enlarged back (default 0)")
    sub.add_argument("--extra", type=Path, action="append", default=[], metavar="DIR",
                     help="YOLO folder (e.g. `fanshot synth`'s) mixed into both train splits (repeatable)")
    sub.add_argument("--localiser-crops", type=Path, metavar="MODELS_DIR",
                     help="also add train crops cut by the localiser in this models folder")
    sub.add_argument("--negatives", type=Path, action="append", default=[], metavar="SRC",
                     help="add not-a-tile crops: the localiser's finds on no labelled tile of these photos, whose "
                     "every tile must be labelled (a YOLO folder, one split of one, or a manifest of photos of no "
                     "tile or one; repeatable)")
    sub.set_defaults(run=guarded(_train_data))

    sub = commands.add_parser("pack", help="the training photos shrunk and copied, to carry to a GPU machine, "
                              "which builds both training sets from them (scripts/gpu_train.sh)")
    sub.add_argument("src", type=Path, help="YOLO folder with data.yaml, train/ and valid/ (our tile codes)")
    sub.add_argument("--out", type=Path, required=True)
    sub.add_argument("--extra", type=Path, action="append", default=[], metavar="DIR",
                     help="YOLO folder (e.g. `fanshot synth`'s) mixed into train (repeatable)")
    sub.add_argument("--negatives", type=Path, action="append", default=[], metavar="DIR",
                     help="YOLO folder of photos of no tile (e.g. `fanshot evalsets`' clutter), kept apart in "
                     "OUT/negatives: background for the localiser, not-a-tile crops for the classifier (repeatable)")
    sub.add_argument("--size", type=int, default=416, help="longest side (default: the localiser's training size)")
    sub.add_argument("--most-valid", type=int, metavar="N", help="at most N valid photos, a seeded sample (to fit "
                     "what a call may carry)")
    sub.add_argument("--variants", type=_at_least_one, metavar="N", help="at most N augmented copies of each of "
                     "SRC's train photos (a Roboflow export's `<photo>.rf.<hash>` names; to fit what a call may carry)")
    sub.add_argument("--quality", type=_webp_quality, default=80, help="WebP quality, 1-100 (default 80)")
    sub.set_defaults(run=guarded(_train_pack))


def _register_fits(commands: argparse._SubParsersAction) -> None:
    """`train localiser|classifier`, `train export` and `train average`: fitting with ultralytics and its output."""
    for kind in ("localiser", "classifier"):
        sub = commands.add_parser(kind, help=f"train the {kind} (needs the `train` extra)")
        sub.add_argument("--data", type=Path, default=Path("work/train-data"))
        sub.add_argument("--runs", type=Path, default=Path("work/runs"))
        sub.add_argument("--hours", type=float, required=True, help="wall-clock budget; epochs fit to it")
        sub.add_argument("--batch", type=int, default=16 if kind == "localiser" else 128)
        sub.add_argument("--lr0", type=float, default=0.0015)
        sub.add_argument("--resume", action="store_true", help="continue from runs/<name>/weights/last.pt")
        sub.add_argument("--init", type=Path, help="start a new schedule from this checkpoint's weights "
                         f"(or a shipped {kind}.onnx export)")
        sub.add_argument("--name", help=f"run folder under --runs (default {kind})")
        sub.add_argument("--device", default="cpu", help="cpu (default) or a CUDA device index, e.g. 0")
        sub.add_argument("--workers", type=int, default=8, help="data-loading processes on a GPU (CPU: none)")
        sub.add_argument("--warmup-epochs", type=float,
                         help="learning-rate warm-up (default: ultralytics' 3, none with --init)")
        sub.set_defaults(run=_train)

    sub = commands.add_parser("export", help="export both best.pt (or one, --only) to ONNX + vision.json")
    sub.add_argument("--runs", type=Path, default=Path("work/runs"))
    sub.add_argument("--out", type=Path, default=Path("models"))
    sub.add_argument("--localiser", type=Path, help="checkpoint (default RUNS/localiser/weights/best.pt)")
    sub.add_argument("--classifier", type=Path, help="checkpoint (default RUNS/classifier/weights/best.pt)")
    sub.add_argument("--only", choices=("localiser", "classifier"),
                     help="export this stage only; the other stays as OUT/vision.json has it")
    sub.add_argument("--conf", type=threshold, help="the localiser's score threshold to record, chosen on the valid "
                     "split (default: the one OUT/vision.json has, else 0.3)")
    sub.add_argument("--command-line", nargs="*", default=[], help="training commands to record")
    sub.set_defaults(run=_export)

    sub = commands.add_parser("average", help="average checkpoints fine-tuned from one start (classifier or "
                              "localiser), weight by weight (a model soup; needs the `train` extra); `train export` "
                              "takes the result")
    sub.add_argument("checkpoints", type=Path, nargs="+", metavar="CHECKPOINT",
                     help="two or more .pt of one architecture and class list")
    sub.add_argument("--out", type=Path, required=True, help="the averaged .pt")
    sub.set_defaults(run=guarded(_average))


def _register_refits(commands: argparse._SubParsersAction) -> None:
    """`train refit` and `train quantise`: new models from shipped ones, on CPU without torch."""
    sub = commands.add_parser("refit", help="refit the classifier's last layer (with a not-a-tile class) on "
                              "varied training photos, on CPU without torch; compare the output before shipping it")
    sub.add_argument("--fit", type=Path, action="append", default=[], metavar="SRC", required=True,
                     help="photos to fit on: a YOLO folder, one split folder of one, or a manifest of photos of "
                     "one tile or none (repeatable)")
    sub.add_argument("--tune", type=Path, action="append", default=[], metavar="SRC",
                     help="read to choose the setting while held out of the fit, then fitted on (repeatable)")
    sub.add_argument("--valid", type=Path, action="append", default=[], metavar="SRC",
                     help="read to choose the setting, never fitted on: no worse than the base (repeatable)")
    sub.add_argument("--out", type=Path, required=True, metavar="MODELS_DIR", help="models folder to write")
    sub.add_argument("--models", type=Path, help="base models folder (default: the shipped one)")
    sub.add_argument("--most", type=int, help="photos drawn at random from each source, at most")
    sub.add_argument("--cache", type=Path, help="folder to keep each source's features in, for a rerun")
    sub.add_argument("--json", action="store_true", help="print the refit record as JSON")
    sub.set_defaults(run=guarded(_refit))

    sub = commands.add_parser("quantise", help="an int8 copy of a models folder for serving speed (static QDQ, "
                              "calibrated on training photos; no torch); compare it before shipping it")
    sub.add_argument("--out", type=Path, required=True, metavar="MODELS_DIR", help="the new models folder")
    sub.add_argument("--models", type=Path, help="base models folder (default: the shipped one)")
    sub.add_argument("--photos", type=Path, required=True, metavar="DIR",
                     help="calibration photos: a training split (e.g. work/real43/train), never a choice set")
    sub.add_argument("--count", type=int, default=64, help="photos to calibrate on (default 64)")
    sub.add_argument("--only", choices=("localiser", "classifier"), action="append",
                     help="quantise this model only (repeatable; default both); the other is copied")
    sub.set_defaults(run=guarded(_quantise))


def _register_adapt(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("adapt", help="adapt the recogniser to a tile set from its labelled photos "
                                   "(a YOLO folder in our codes, e.g. the app's dataset export)")
    parser.add_argument("--yolo", type=Path, required=True, metavar="DIR", help="YOLO folder with data.yaml")
    parser.add_argument("--out", type=Path, required=True, metavar="MODELS_DIR", help="models folder to write")
    parser.add_argument("--models", type=Path, help="base models folder (default: the shipped one)")
    parser.add_argument("--kind", choices=("deep", "head"),
                        help="deep: fine-tune the whole localiser and refit the classifier's last layer (needs the "
                             "train extra: torch); head: refit last layers only, no torch (default: deep where the "
                             "train extra is installed, else head)")
    parser.add_argument("--localiser", action="store_true",
                        help="head kind: also refit the localiser's class scores (slower; kept only where "
                             "cross-validation and the held-out photos read better with it)")
    parser.add_argument("--json", action="store_true", help="print the adaptation record as JSON")
    parser.set_defaults(run=guarded(_adapt))
