"""scripts/gpu_localiser.sh at toy size on CPU (DEVICE=cpu): the GPU machine's one call must not rot between
the sessions that are lent one. Renders, adds them to a carried pack, trains an epoch, writes the weights."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fanshot.cli import main

pytest.importorskip("ultralytics", reason="the `train` extra (ultralytics, torch) is not installed")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_dry_run_renders_packs_trains_and_writes_the_weights(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    assert main(["synth", "--n", "4", "--seed", "1", "--workers", "1", "--out", str(photos / "train"),
                 "--art-cache", str(tmp_path / "no-cache")]) == 0
    (photos / "valid").symlink_to(photos / "train")
    (photos / "data.yaml").write_text((photos / "train" / "data.yaml").read_text())
    assert main(["train", "pack", str(photos), "--out", str(tmp_path / "pack")]) == 0
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "OUT": str(out), "DEVICE": "cpu", "HOURS": "0.001", "BATCH": "4", "RANDOMISED": "2",
           "SCATTERED": "2", "PLAIN": "2", "DATA": str(tmp_path / "pack"), "ART": str(tmp_path / "no-cache"),
           "PY": sys.executable, "TMPDIR": str(tmp_path)}

    run = subprocess.run(["bash", "scripts/gpu_localiser.sh"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)

    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "rendered" in run.stdout and "trained (exit 0)" in run.stdout
    assert {"best.pt", "last.pt", "results.csv", "args.yaml", "loc-gpu.log"} <= {p.name for p in out.iterdir()}
    assert "wrote 2 images" in run.stdout
