"""scripts/gpu_train.sh --dry-run: the GPU machine's one call, on the CPU at toy size, so that the recipe cannot rot
between the sessions that are lent a GPU. It packs, renders, builds both sets, trains both models from the shipped
ones, and exports a models folder that keeps the shipped recogniser's settings and reads a photo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.services import needs_train_extra

needs_train_extra()

from fanshot.datasets.synth.dataset import synth_dataset  # noqa: E402
from fanshot.vision.image import load_photo  # noqa: E402
from fanshot.vision.recogniser import MODELS_DIR, Recogniser  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_dry_run_trains_both_models_and_exports_a_folder_the_recogniser_reads(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "OUT": str(out), "PY": sys.executable, "TMPDIR": str(tmp_path)}

    run = subprocess.run(["bash", "scripts/gpu_train.sh", "--dry-run"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)

    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    for step in ("rendered", "data built", "localiser trained", "classifier trained", "exported"):
        assert f": {step}" in run.stdout
    back = [path for path in out.rglob("*") if path.is_file()]
    assert {"checkpoints.tar", "logs.tgz", "localiser-second.onnx", "classifier-small.onnx"} <= {
        path.name for path in back}
    with tarfile.open(out / "checkpoints.tar") as checkpoints:
        assert set(checkpoints.getnames()) == {"localiser-best.pt", "classifier-best.pt"}
    # what the device machine sends back: 8 files at most (the call's run.log is one more), 2 folders down, 16 MiB each
    assert len(back) <= 7 and all(len(path.relative_to(out).parts) <= 3 for path in back)
    assert all(path.stat().st_size <= 16 * 2**20 for path in back)
    with tarfile.open(out / "logs.tgz") as logs:
        assert {"localiser.log", "classifier.log", "export.log", "localiser-results.csv"} <= set(logs.getnames())
    exported, shipped = (json.loads((folder / "vision.json").read_text()) for folder in (out / "models", MODELS_DIR))
    # the dry run's classifier knows the few classes it saw: the small faces' classifier (every class) is not named
    assert exported["recogniser"]["small_faces"]["classifier"] is None and len(exported["classifier"]["classes"]) < 43
    small_faces = {**shipped["recogniser"]["small_faces"], "classifier": None}
    assert exported["recogniser"] == {**shipped["recogniser"], "small_faces": small_faces}
    assert exported["localiser"]["conf"] == shipped["localiser"]["conf"]
    assert "bash scripts/gpu_train.sh" in exported["training"][0]
    recogniser = Recogniser.load(out / "models")
    synth_dataset(tmp_path / "photo", n=1, seed=3, workers=1)
    photo = load_photo((tmp_path / "photo" / "images" / "synth_000000.jpg").read_bytes())
    result = recogniser.with_config(recogniser.config.changed(conf=0.0))(photo).as_dict()
    assert result["tiles"] and all(tile["code"] for tile in result["tiles"])


def test_any_other_argument_is_refused_with_the_usage(tmp_path: Path) -> None:
    run = subprocess.run(["bash", "scripts/gpu_train.sh", "--dryrun"], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "OUT": str(tmp_path)}, timeout=30)
    assert run.returncode == 2 and "usage" in run.stderr
