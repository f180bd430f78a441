"""`fanshot eval` and `fanshot choose`: thin shells over the evaluation library functions."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from fanshot.vision.cli import guarded, load_recogniser, recogniser_of, threshold

if TYPE_CHECKING:
    from fanshot.vision.evaluation.choice import Verdict


ROW_COLUMNS = ("images", "precision", "recall", "f1", "exact_match", "false_per_photo", "median_ms")


def _eval(args: argparse.Namespace) -> int:
    from fanshot.vision.evaluation.evaluate import evaluate_set

    sets = [*args.sets, *args.yolo]
    if not sets:
        raise ValueError("name at least one manifest (.jsonl) or YOLO folder to evaluate")
    if args.compare:
        return _compare(args, sets)
    if not args.report and not args.figures:
        recogniser = recogniser_of(args)  # loaded once, outside the per-photo timing
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

    recogniser = load_recogniser(models, conf, without)
    results = []
    for path in sets:
        readings: list = []
        summary = evaluate_set(path, recogniser, args.split, True, readings)
        if not args.photos:  # per-photo multisets only where asked for (--json --photos, --compare)
            summary.pop("photos")
        results.append(SetResult(str(path), summary, readings))
    return results


def _about(models: Path | None, conf: float | None, without: list[str], args: argparse.Namespace) -> dict:
    """What a report is of: the models folder, its version (a digest of its models and settings), the settings
    read with and the command line."""
    from fanshot.vision.config import models_version
    from fanshot.vision.recogniser import MODELS_DIR

    config = load_recogniser(models, conf, without).config
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


def register(subparsers: argparse._SubParsersAction) -> None:
    from fanshot.vision.config import STAGES

    parser = subparsers.add_parser("eval", help="score the recogniser on evaluation manifests (JSONL) or YOLO "
                                   "folders: one row per set")
    parser.add_argument("sets", type=Path, nargs="*", metavar="SET",
                        help="an evaluation manifest (.jsonl) or a YOLO folder with data.yaml (adds mAP)")
    parser.add_argument("--yolo", type=Path, action="append", default=[], metavar="DIR",
                        help="a YOLO folder with data.yaml (repeatable; the same as naming it as a SET)")
    parser.add_argument("--split", default="test", help="split folder of YOLO folders that have splits (default test)")
    parser.add_argument("--conf", type=threshold, help="localiser score threshold (default: the models' vision.json)")
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
        parser.add_argument(f"--{side}-conf", type=threshold, help=f"with --compare: the {side}'s localiser "
                            "score threshold")
        parser.add_argument(f"--{side}-without", action="append", default=[], choices=STAGES, metavar="STAGE",
                            help=f"with --compare: the {side} reads with this stage switched off (repeatable)")
    parser.set_defaults(run=guarded(_eval))

    parser = subparsers.add_parser("choose", help="judge a candidate by the choice rule: two `fanshot eval --json "
                                   "--photos` reports of the same sets, the shipped models' and the candidate's")
    parser.add_argument("base", type=Path, help="the report of the models that ship now")
    parser.add_argument("candidate", type=Path, help="the candidate's report (a model, a threshold, a rule)")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(run=guarded(_choose))
