"""A models folder for the `second_look` stage (models/experiments/2026-12-06-second-look.md): BASE's models and
settings, with SECOND (a localiser ONNX of BASE's localiser's input and output) copied in as
`localiser-second.onnx` and named in vision.json's `recogniser.second_look`. Usage:

    .venv/bin/python scripts/second_look_models.py models work/models-replay/localiser.onnx --out work/models-second \
        [--conf C] [--below N] [--iou X] [--leave-small]

--conf is SECOND's own sure threshold: by default the `localiser.conf` of the vision.json beside it, else BASE's.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from fanshot.vision.config import VISION_JSON, VisionFile
from fanshot.vision.recogniser import Recogniser

SECOND = "localiser-second.onnx"


def own_threshold(second: Path) -> float | None:
    """The threshold the second localiser's own export chose, when a vision.json lies beside it."""
    beside = second.parent / VISION_JSON
    return VisionFile.read(second.parent).recogniser.conf if beside.is_file() else None


def write_folder(base: Path, second: Path, out: Path, stage: dict) -> Path:
    """`out` as described above; loaded once, so that a second localiser of another input is refused here."""
    if out.resolve() == base.resolve():
        raise SystemExit(f"--out {out}: that is the base models folder; give a new folder (e.g. work/models-second)")
    meta = VisionFile.read(base)
    out.mkdir(parents=True, exist_ok=True)
    for name in meta.files():
        shutil.copyfile(base / name, out / name)
    shutil.copyfile(second, out / SECOND)
    second_look = meta.recogniser.second_look.model_copy(update={"localiser": SECOND, **stage})
    meta.model_copy(update={"recogniser": meta.recogniser.model_copy(update={"second_look": second_look})}).write(out)
    Recogniser.load(out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path, help="the models folder (e.g. models)")
    parser.add_argument("second", type=Path, help="the second localiser's ONNX file")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--conf", type=float, help="the second localiser's sure threshold")
    parser.add_argument("--below", type=int, help="the second look runs with fewer sure finds than this")
    parser.add_argument("--iou", type=float, help="finds of both looks overlapping more than this are one tile")
    parser.add_argument("--leave-small", action="store_true", default=None,
                        help="the second look does not run where the tiles are small (the closer look's)")
    args = parser.parse_args()
    conf = args.conf if args.conf is not None else own_threshold(args.second)
    given = {"conf": conf, "below": args.below, "iou": args.iou, "leave_small": args.leave_small}
    stage = {key: value for key, value in given.items() if value is not None}
    print(write_folder(args.base, args.second, args.out, stage))


if __name__ == "__main__":
    main()
