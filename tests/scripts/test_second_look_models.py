"""scripts/second_look_models.py: the models folder the second-look experiment measures (the shipped models, a
second localiser copied in and named, its threshold), refused where it would overwrite the base."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fanshot.vision.config import VisionFile
from fanshot.vision.recogniser import MODELS_DIR, Recogniser

SCRIPT = Path(__file__).resolve().parents[2] / "scripts/second_look_models.py"


def run(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=False)


def test_the_folder_names_the_second_localiser_at_its_own_threshold(tmp_path):
    done = run(MODELS_DIR, MODELS_DIR / "localiser.onnx", "--out", tmp_path / "second", "--conf", 0.45,
               "--below", 14)
    assert done.returncode == 0, done.stderr
    stage = VisionFile.read(tmp_path / "second").recogniser.second_look
    assert (stage.localiser, stage.conf, stage.below) == ("localiser-second.onnx", 0.45, 14)
    assert (tmp_path / "second/localiser-second.onnx").read_bytes() == (MODELS_DIR / "localiser.onnx").read_bytes()
    assert Recogniser.load(tmp_path / "second").second is not None


def test_by_default_the_threshold_is_the_one_beside_the_second_localiser(tmp_path):
    assert run(MODELS_DIR, MODELS_DIR / "localiser.onnx", "--out", tmp_path / "second").returncode == 0
    shipped_conf = VisionFile.read(MODELS_DIR).recogniser.conf
    assert VisionFile.read(tmp_path / "second").recogniser.second_look.conf == shipped_conf


def test_the_base_folder_is_never_overwritten():
    done = run(MODELS_DIR, MODELS_DIR / "localiser.onnx", "--out", MODELS_DIR)
    assert done.returncode != 0 and "that is the base models folder" in done.stderr
