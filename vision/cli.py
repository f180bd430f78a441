"""`fanshot train`, `fanshot read`, `fanshot eval`: thin shells over vision's library functions."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fanshot.vision.evaluation.choice import Verdict
    from fanshot.vision.recogniser import Recogniser


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
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


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def _threshold(text: str) -> float:
    """A score threshold argument: a number in [0, 1) (at 1 or above no tile would ever be found)."""
    value = _number(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"a score threshold is from 0 to below 1, not {value:g}")
    return value


def _jitter_scale(text: str) -> float:
    """A crop jitter argument: a fraction in [0, 0.5] (beyond it a box could shrink to nothing)."""
    value = _number(text)
    if not 0 <= value <= 0.5:
        raise argparse.ArgumentTypeError(f"a jitter scale is from 0 to 0.5, not {value:g}")
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
                                jitter_scale=args.jitter_scale)
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

    written = pack(args.src, args.out, args.extra, args.negatives, args.size, args.most_valid)
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
    from fanshot.vision.config import RecogniserConfig
    from fanshot.vision.training.train import CLASSIFIER_IMGSZ, LOCALISER_IMGSZ, export, write_model_json

    # --only: export that stage; the other stays as OUT/vision.json describes it (with its training commands).
    # The recogniser's settings stay as OUT/vision.json has them (the defaults for a new folder).
    source = args.out / "vision.json"
    previous = json.loads(source.read_text(encoding="utf-8")) if source.is_file() else {}
    config = RecogniserConfig.from_vision_json(previous, str(source))
    stages = previous if args.only else {}
    conf = config.conf if args.conf is None else args.conf
    for kind, imgsz in (("localiser", LOCALISER_IMGSZ), ("classifier", CLASSIFIER_IMGSZ)):
        if args.only not in (None, kind):
            continue
        weights = getattr(args, kind) or args.runs / kind / "weights" / "best.pt"
        path, names = export(weights, args.out / f"{kind}.onnx", imgsz, dynamic=kind == "classifier", runs=args.runs)
        stages[kind] = {"file": path.name, "imgsz": imgsz, "classes": names}
        if kind == "localiser":
            stages[kind]["conf"] = conf
        print(f"wrote {path}")
    write_model_json(source, stages["localiser"], stages["classifier"], config.section(),
                     args.command_line or stages.get("training", []))
    print(f"wrote {args.out / 'vision.json'}")
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


def _recogniser(args: argparse.Namespace) -> Recogniser:
    """The recogniser of --models (default: the shipped one), with --conf and --without where a command has them."""
    return _load(args.models, getattr(args, "conf", None), getattr(args, "without", []))


def _load(models: Path | None, conf: float | None, without: list[str]) -> Recogniser:
    """The recogniser of a models folder (None: the shipped one), its threshold and stages changed as given."""
    from fanshot.vision.recogniser import MODELS_DIR, Recogniser

    recogniser = Recogniser.load(models or MODELS_DIR)
    config = recogniser.config if conf is None else recogniser.config.changed(conf=conf)
    return recogniser.with_config(config.without(*without))


def _read(args: argparse.Namespace) -> int:
    from fanshot.vision.evaluation.evaluate import read_photo

    result, ms = read_photo(args.photo, _recogniser(args))
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


ROW_COLUMNS = ("images", "precision", "recall", "f1", "exact_match", "false_per_photo", "median_ms")


def _eval(args: argparse.Namespace) -> int:
    from fanshot.vision.evaluation.evaluate import evaluate_set

    sets = [*args.sets, *args.yolo]
    if not sets:
        raise ValueError("name at least one manifest (.jsonl) or YOLO folder to evaluate")
    if args.compare:
        return _compare(args, sets)
    if not args.report and not args.figures:
        recogniser = _recogniser(args)  # loaded once, outside the per-photo timing
        _print_reports(args, {str(path): evaluate_set(path, recogniser, args.split, args.photos) for path in sets})
        return 0
    from fanshot.vision.evaluation.report import figures_document, write_report

    results = _evaluate(sets, args.models, args.conf, args.without, args)
    about = _about(args.models, args.conf, args.without, args)
    if args.figures:
        args.figures.write_text(json.dumps(figures_document(results, about)) + "\n", encoding="utf-8")
    if args.report:
        print(f"wrote {write_report(args.report, results, about)}", file=sys.stderr)
    _print_reports(args, {result.name: result.summary for result in results})
    return 0


def _evaluate(sets: list[Path], models: Path | None, conf: float | None, without: list[str],
              args: argparse.Namespace) -> list:
    """Each set read by one version, with each photo's reading kept (vision/evaluation/report.py's `SetResult`s)."""
    from fanshot.vision.evaluation.evaluate import evaluate_set
    from fanshot.vision.evaluation.report import SetResult

    recogniser = _load(models, conf, without)
    results = []
    for path in sets:
        readings: list = []
        summary = evaluate_set(path, recogniser, args.split, True, readings)
        if not args.photos:  # per-photo multisets only where asked for (--json --photos, --compare)
            summary.pop("photos")
        results.append(SetResult(str(path), summary, readings))
    return results


def _about(models: Path | None, conf: float | None, without: list[str], args: argparse.Namespace) -> dict:
    """What a report is of: the models folder, its version (a digest of its files), the settings read with and
    the command line."""
    from fanshot.vision.recogniser import MODELS_DIR, models_version

    config = _load(models, conf, without).config
    return {"models": str(models or MODELS_DIR), "version": models_version(models or MODELS_DIR),
            "settings": {"localiser": {"conf": config.conf}, "recogniser": config.section()},
            "command": shlex.join(["fanshot", *args.argv])}


def _compare(args: argparse.Namespace, sets: list[Path]) -> int:
    """Both versions over the same sets, judged by the choice rule (evaluation/choice.py), as `fanshot choose` does."""
    from fanshot.vision.evaluation.choice import verdict

    if args.conf is not None or args.without or args.photos:
        raise ValueError("with --compare, name each side's settings: --base-conf, --base-without, "
                         "--candidate-conf, --candidate-without (--conf, --without and --photos are for one version)")
    (base_models, candidate_models), sides = args.compare, []
    for models, conf, without in ((base_models, args.base_conf, args.base_without),
                                  (candidate_models, args.candidate_conf, args.candidate_without)):
        args.photos = True
        sides.append((_evaluate(sets, models, conf, without, args), _about(models, conf, without, args)))
    (base, base_about), (candidate, candidate_about) = sides
    result = verdict({r.name: r.summary for r in base}, {r.name: r.summary for r in candidate})
    if args.report:
        from fanshot.vision.evaluation.report import write_report

        names = (_side_name(base_models, args.base_conf, args.base_without),
                 _side_name(candidate_models, args.candidate_conf, args.candidate_without))
        print(f"wrote {write_report(args.report, base, base_about, (result, candidate, names, candidate_about))}",
              file=sys.stderr)
    _print_verdict(result, args.json)
    return 0


def _side_name(models: Path, conf: float | None, without: list[str]) -> str:
    """A version as the report titles it: its folder and what was changed, e.g. `models --without zoom_in`."""
    return " ".join([str(models), *([f"--conf {conf:g}"] if conf is not None else []),
                     *(f"--without {stage}" for stage in without)])


def _print_reports(args: argparse.Namespace, reports: dict[str, dict]) -> None:
    if args.json:  # one set: its report, as before; several: {set: report}
        print(json.dumps(next(iter(reports.values())) if len(reports) == 1 else reports))
    elif len(reports) == 1:
        for key, value in next(iter(reports.values())).items():
            if key == "by_width":
                print(f"{'by_width':>12}: {_widths(value)}")
            else:
                print(f"{key:>12}: {value:.4f}" if isinstance(value, float) else f"{key:>12}: {value}")
    else:
        print("| set | " + " | ".join(ROW_COLUMNS) + " | variants | F1 by tile width (tiles) |")
        print("|---|" + "---:|" * len(ROW_COLUMNS) + "---|---|")
        for name, report in reports.items():
            cells = [f"{report[key]:.4f}" if isinstance(report[key], float) else str(report[key])
                     for key in ROW_COLUMNS]
            variants = ", ".join(f"{key} {value:.3f}" for key, value in report.items() if key.startswith("recall["))
            print(f"| {name} | " + " | ".join(cells) + f" | {variants} | {_widths(report.get('by_width', {}))} |")


def _widths(by_width: dict) -> str:
    """F1 by tile width, e.g. `<20 0.812 (41), 20-30 0.950 (230)`; bins with no tile left out."""
    return ", ".join(f"{name} {figures['f1']:.3f} ({figures['tiles']})" for name, figures in by_width.items()
                     if figures["tiles"])


def _read_report(path: Path) -> dict:
    """A `fanshot eval --json --photos` report as {set: report} (one set's report is written bare)."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: not a `fanshot eval --json --photos` report ({error})") from None
    if not isinstance(report, dict):
        raise ValueError(f"{path}: not a `fanshot eval --json --photos` report (not an object)")
    return {str(path): report} if "photos" in report else report


def _choose(args: argparse.Namespace) -> int:
    from fanshot.vision.evaluation.choice import verdict

    base, candidate = _read_report(args.base), _read_report(args.candidate)
    if len(base) == len(candidate) == 1:  # one set each, named by its report file: pair them
        candidate = dict(zip(base, candidate.values(), strict=True))
    _print_verdict(verdict(base, candidate), args.json)
    return 0


def _print_verdict(result: Verdict, as_json: bool) -> None:
    """The choice rule's verdict: a row per set with its change and interval, then whether the candidate ships."""
    from dataclasses import asdict

    if as_json:
        print(json.dumps({"ships": result.ships, "mean_change": result.mean_change, "reasons": result.reasons,
                          "sets": [{**asdict(c), "change": c.change, "falls": c.falls} for c in result.changes]}))
        return
    print("| set | tiles | base F1 | candidate F1 | change | 95 % interval | tile errors | falls |")
    print("|---|---:|---:|---:|---:|---|---|---|")
    for c in result.changes:
        print(f"| {c.name} | {c.tiles} | {c.base_f1:.4f} | {c.candidate_f1:.4f} | {c.change:+.4f} | "
              f"[{c.interval[0]:+.4f}, {c.interval[1]:+.4f}] | {c.base_errors} → {c.candidate_errors} | "
              f"{'yes' if c.falls else ''} |")
    print(f"mean change {result.mean_change:+.4f}: " + ("ships" if result.ships else
                                                         "does not ship: " + "; ".join(result.reasons)))


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
    from fanshot.vision.config import STAGES
    from fanshot.vision.training.train import JITTER_SCALE

    parser = subparsers.add_parser("train", help="train and export the tile localiser and crop classifier")
    commands = parser.add_subparsers(dest="train_command", required=True)

    sub = commands.add_parser("data", help="build the localiser and crop datasets from a 43-class YOLO folder")
    sub.add_argument("src", type=Path, help="YOLO folder with data.yaml, train/ and valid/")
    sub.add_argument("--out", type=Path, default=Path("work/train-data"))
    sub.add_argument("--copies", type=int, default=1, help="jittered crops per train tile")
    sub.add_argument("--jitter-scale", type=_jitter_scale, default=JITTER_SCALE, metavar="FRACTION",
                     help=f"each side of a crop's box is scaled by up to this fraction (default {JITTER_SCALE})")
    sub.add_argument("--extra", type=Path, action="append", default=[], metavar="DIR",
                     help="YOLO folder (e.g. `fanshot synth`'s) mixed into both train splits (repeatable)")
    sub.add_argument("--localiser-crops", type=Path, metavar="MODELS_DIR",
                     help="also add train crops cut by the localiser in this models folder")
    sub.add_argument("--negatives", type=Path, action="append", default=[], metavar="SRC",
                     help="add not-a-tile crops: the localiser's finds on no labelled tile of these photos, whose "
                     "every tile must be labelled (a YOLO folder, one split of one, or a manifest of photos of no "
                     "tile or one; repeatable)")
    sub.set_defaults(run=_guarded(_train_data))

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
    sub.set_defaults(run=_guarded(_train_pack))

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
    sub.add_argument("--conf", type=_threshold, help="the localiser's score threshold to record, chosen on the valid "
                     "split (default: the one OUT/vision.json has, else 0.3)")
    sub.add_argument("--command-line", nargs="*", default=[], help="training commands to record")
    sub.set_defaults(run=_export)

    sub = commands.add_parser("average", help="average checkpoints fine-tuned from one start (classifier or "
                              "localiser), weight by weight (a model soup; needs the `train` extra); `train export` "
                              "takes the result")
    sub.add_argument("checkpoints", type=Path, nargs="+", metavar="CHECKPOINT",
                     help="two or more .pt of one architecture and class list")
    sub.add_argument("--out", type=Path, required=True, help="the averaged .pt")
    sub.set_defaults(run=_guarded(_average))

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
    sub.set_defaults(run=_guarded(_refit))

    sub = commands.add_parser("quantise", help="an int8 copy of a models folder for serving speed (static QDQ, "
                              "calibrated on training photos; no torch); compare it before shipping it")
    sub.add_argument("--out", type=Path, required=True, metavar="MODELS_DIR", help="the new models folder")
    sub.add_argument("--models", type=Path, help="base models folder (default: the shipped one)")
    sub.add_argument("--photos", type=Path, required=True, metavar="DIR",
                     help="calibration photos: a training split (e.g. work/real43/train), never a choice set")
    sub.add_argument("--count", type=int, default=64, help="photos to calibrate on (default 64)")
    sub.add_argument("--only", choices=("localiser", "classifier"), action="append",
                     help="quantise this model only (repeatable; default both); the other is copied")
    sub.set_defaults(run=_guarded(_quantise))

    parser = subparsers.add_parser("read", help="recognise the tiles in a photo")
    parser.add_argument("photo", type=Path)
    parser.add_argument("--json", action="store_true", help="print the recognition result JSON")
    parser.add_argument("--models", type=Path, help="models folder with vision.json (default: the shipped one)")
    parser.set_defaults(run=_guarded(_read))

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
    parser.set_defaults(run=_guarded(_adapt))

    parser = subparsers.add_parser("eval", help="score the recogniser on evaluation manifests (JSONL) or YOLO "
                                   "folders: one row per set")
    parser.add_argument("sets", type=Path, nargs="*", metavar="SET",
                        help="an evaluation manifest (.jsonl) or a YOLO folder with data.yaml (adds mAP)")
    parser.add_argument("--yolo", type=Path, action="append", default=[], metavar="DIR",
                        help="a YOLO folder with data.yaml (repeatable; the same as naming it as a SET)")
    parser.add_argument("--split", default="test", help="split folder of YOLO folders that have splits (default test)")
    parser.add_argument("--conf", type=_threshold, help="localiser score threshold (default: the models' vision.json)")
    parser.add_argument("--models", type=Path, help="models folder with vision.json (default: the shipped one)")
    parser.add_argument("--without", action="append", default=[], choices=STAGES, metavar="STAGE",
                        help=f"read with this stage switched off (repeatable; {', '.join(STAGES)})")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--photos", action="store_true",
                        help="with --json: each photo's tiles found and true, for `fanshot choose`")
    parser.add_argument("--report", type=Path, metavar="DIR",
                        help="write a report to look at: DIR/index.html (opens from disk), its images and "
                        "figures.json: per-class figures, a confusion matrix, F1 by tile width and position, the "
                        "worst photos drawn")
    parser.add_argument("--figures", type=Path, metavar="FILE",
                        help="write the report's figures alone (its figures.json) to FILE")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BASE", "CANDIDATE"),
                        help="read the sets with two models folders and judge the candidate by the choice rule, as "
                        "`fanshot choose` does (with --report: the photos they read differently, side by side)")
    for side in ("base", "candidate"):
        parser.add_argument(f"--{side}-conf", type=_threshold, help=f"with --compare: the {side}'s localiser "
                            "score threshold")
        parser.add_argument(f"--{side}-without", action="append", default=[], choices=STAGES, metavar="STAGE",
                            help=f"with --compare: the {side} reads with this stage switched off (repeatable)")
    parser.set_defaults(run=_guarded(_eval))

    parser = subparsers.add_parser("choose", help="judge a candidate by the choice rule: two `fanshot eval --json "
                                   "--photos` reports of the same sets, the shipped models' and the candidate's")
    parser.add_argument("base", type=Path, help="the report of the models that ship now")
    parser.add_argument("candidate", type=Path, help="the candidate's report (a model, a threshold, a rule)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=_guarded(_choose))
