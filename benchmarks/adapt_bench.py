"""`fanshot adapt` measured: adapt on k photos of a labelled set, evaluate base and adapted models on the rest (or on
another folder of the same set), for a few seeded choices of the k photos. Prints one row per run and the means,
with the adaptation's wall and CPU seconds and the load average it ran under.

    .venv/bin/python benchmarks/adapt_bench.py ../shared/data/japanese-set-leo --k 5 --k 10 --seeds 3
    .venv/bin/python benchmarks/adapt_bench.py ../shared/data/japanese-set-leo --k 10 --seeds 3 --cover
    .venv/bin/python benchmarks/adapt_bench.py work/classic-adapt --k 20 --eval work/classic-eval
    .venv-train/bin/python benchmarks/adapt_bench.py ../shared/data/japanese-set-leo --k 10 --seeds 3 --kind deep
    .venv/bin/python benchmarks/adapt_bench.py ../shared/data/japanese-set-leo --k 10 --seeds 2 --kind deep \
        --fine-tuning freeze=10 --fine-tuning judging_passes=0.5 --fine-tuning replay=10
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from fanshot.datasets.yolo import Box, format_labels, read_names, read_split, split_names
from fanshot.vision.evaluation.evaluate import evaluate_yolo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser
from fanshot.vision.training.adapt import adapt, split_photos
from fanshot.vision.training.finetune import LabelledPhoto, fine_tuning_from, pasted_photos


def subset(root: Path, images: list[Path], out: Path) -> Path:
    """A flat YOLO folder of these images of `root` (linked, with their labels), as the app's export is laid out."""
    for folder in ("images", "labels"):
        (out / folder).mkdir(parents=True)
    shutil.copyfile(root / "data.yaml", out / "data.yaml")
    for image in images:
        (out / "images" / image.name).symlink_to(image.resolve())
        label = image.parent.parent / "labels" / f"{image.stem}.txt"
        if label.is_file():
            (out / "labels" / label.name).symlink_to(label.resolve())
    return out


def pasted_folder(root: Path, photos: list[LabelledPhoto], count: int, out: Path) -> Path:
    """A flat YOLO folder of these photos of `root`, each with `count` tiles of the others pasted standing apart
    (`finetune.pasted_photos`): a stand-in for photos of the set's tiles scattered on its table."""
    names = read_names(root)
    (out / "labels").mkdir(parents=True)
    shutil.copyfile(root / "data.yaml", out / "data.yaml")
    for image, labels in pasted_photos(photos, count, out / "images"):
        boxes = [Box(names.index(code), (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1)
                 for code, (x1, y1, x2, y2) in labels]
        (out / "labels" / f"{image.stem}.txt").write_text(format_labels(boxes), encoding="ascii")
    return out


def covering(codes: list[set[str]], order: np.ndarray, k: int) -> list[int]:
    """k photo indices, taken in `order`, first those that show a code no photo taken before shows: a user
    adapting to a set photographs each of its tiles at least once."""
    chosen: list[int] = []
    seen: set[str] = set()
    for index in order:
        if len(chosen) < k and codes[index] - seen:
            chosen.append(int(index))
            seen |= codes[index]
    return chosen + [int(i) for i in order if i not in chosen][:k - len(chosen)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("yolo", type=Path, help="labelled photos of one tile set (YOLO folder)")
    parser.add_argument("--k", type=int, action="append", required=True, help="photos to adapt on (repeatable)")
    parser.add_argument("--seeds", type=int, default=1, help="seeded choices of the k photos")
    parser.add_argument("--eval", type=Path, help="evaluate on this folder instead of the photos not adapted on")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="base models folder")
    parser.add_argument("--cover", action="store_true", help="choose the k photos so that every code of the set "
                        "is among them where k allows (default: at random)")
    parser.add_argument("--localiser", action="store_true", help="adapt the localiser too (fanshot adapt --localiser)")
    parser.add_argument("--kind", choices=("deep", "head"),
                        help="fanshot adapt --kind (default: deep where the train extra is installed)")
    parser.add_argument("--fine-tuning", action="append", default=[], metavar="KEY=VALUE",
                        help="the deep kind's FineTuning with KEY set (repeatable; e.g. freeze=10, passes=250, "
                        "judging_passes=0.5, replay=10)")
    parser.add_argument("--pasted", type=int, default=0, metavar="N", help="also read the photos not adapted on "
                        "with N tiles of the others pasted standing apart (a stand-in for scattered tiles)")
    parser.add_argument("--json", type=Path, help="also write every run here")
    args = parser.parse_args()
    try:
        fine_tuning = fine_tuning_from(args.fine_tuning)
    except ValueError as error:
        parser.error(str(error))

    names = read_names(args.yolo)
    examples = [e for split in split_names(args.yolo) for e in read_split(args.yolo / split, len(names))]
    photos = [e.image for e in examples]
    labelled = [photo for split in split_names(args.yolo) for photo in split_photos(args.yolo / split, names)]
    codes = [{names[b.cls] for b in e.boxes} for e in examples]
    runs = []
    with tempfile.TemporaryDirectory() as scratch:
        base_on_eval = evaluate_yolo(args.eval, Recogniser.load(args.models), "") if args.eval else None
        for k in args.k:
            for seed in range(args.seeds):
                order = np.random.default_rng(seed).permutation(len(photos))
                picked = covering(codes, order, k) if args.cover else order[:k].tolist()
                chosen = [photos[i] for i in picked]
                rest = [photo for i, photo in enumerate(photos) if i not in picked]
                work = Path(scratch) / f"k{k}-s{seed}"
                data = subset(args.yolo, chosen, work / "adapt")
                load = os.getloadavg()[0]
                record = adapt(data, work / "models", args.models, adapt_localiser=args.localiser,
                               deep={"deep": True, "head": False}.get(args.kind), fine_tuning=fine_tuning)
                target = args.eval or subset(args.yolo, rest, work / "rest")
                before = base_on_eval or evaluate_yolo(target, Recogniser.load(args.models), "")
                after = evaluate_yolo(target, Recogniser.load(work / "models"), "")
                if args.pasted:
                    rest_photos = [photo for i, photo in enumerate(labelled) if i not in picked]
                    scattered = pasted_folder(args.yolo, rest_photos, args.pasted, work / "rest-pasted")
                    pasted = {name: evaluate_yolo(scattered, Recogniser.load(models), "")["f1"]
                              for name, models in (("before", args.models), ("after", work / "models"))}
                run = {"k": k, "seed": seed, "kind": record["kind"], "cover": args.cover,
                       "eval_photos": after["images"],
                       "kept": record["kept"], "conf": record["conf"], "strength": record["strength"],
                       "localiser_strength": record["localiser_strength"],
                       "cross_validated_f1": record["cross_validated_f1"],
                       "f1_before": before["f1"], "f1_after": after["f1"],
                       "exact_before": before["exact_match"], "exact_after": after["exact_match"],
                       "seconds": record["seconds"], "cpu_seconds": record["cpu_seconds"], "load": round(load, 1),
                       "fine_tuning": record.get("fine_tuning"), "seconds_by_step": record.get("seconds_by_step")}
                if args.pasted:
                    run["pasted"] = {"tiles": args.pasted, "f1_before": pasted["before"], "f1_after": pasted["after"]}
                runs.append(run)
                print(f"{run['kind']} k={k:>2} seed={seed} eval={run['eval_photos']:>3}  F1 {run['f1_before']:.3f} -> "
                      f"{run['f1_after']:.3f}  exact {run['exact_before']:.0%} -> {run['exact_after']:.0%}  "
                      f"kept {run['kept']:<7} conf {run['conf']} localiser pull {run['localiser_strength']}  "
                      f"{run['seconds']:.0f} s wall, "
                      f"{run['cpu_seconds']:.0f} s CPU, load {run['load']}"
                      + (f"  pasted F1 {pasted['before']:.3f} -> {pasted['after']:.3f}" if args.pasted else ""),
                      flush=True)
    for k in args.k:
        mine = [run for run in runs if run["k"] == k]
        mean = {key: float(np.mean([run[key] for run in mine]))
                for key in ("f1_before", "f1_after", "exact_before", "exact_after", "seconds", "cpu_seconds")}
        print(f"k={k:>2} mean of {len(mine)}: F1 {mean['f1_before']:.3f} -> {mean['f1_after']:.3f}, exact "
              f"{mean['exact_before']:.0%} -> {mean['exact_after']:.0%}, {mean['seconds']:.0f} s wall, "
              f"{mean['cpu_seconds']:.0f} s CPU")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
