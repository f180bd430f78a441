"""`fanshot eval` on a YOLO folder that names its classes its own way (issue 52 point 6): the shared Roboflow export
(`sc1`, `bs1`, ...) is read through the importer's class map, as `fanshot dataset import` reads it; names no
importer knows are refused with the fix; `--report` draws the tiles the recogniser missed."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fanshot.cli import main
from fanshot.datasets.classes import ROBOFLOW_NAMES
from fanshot.datasets.yolo import read_names
from fanshot.vision.evaluation.report import COLOURS, DRAWN_SIDE

SHARED = Path(__file__).resolve().parents[4] / "shared/data/chinese-mahjong-detection"
PHOTOS = sorted((SHARED / "test" / "images").glob("*.jpg"))[:2] if SHARED.is_dir() else []
needs_shared = pytest.mark.skipif(len(PHOTOS) < 2, reason="no shared Roboflow set")


def roboflow_sample(folder: Path, photos=PHOTOS) -> Path:
    """A copy of a few test photos of the shared export, its labels and data.yaml as Roboflow wrote them."""
    for sub in ("images", "labels"):
        (folder / "test" / sub).mkdir(parents=True)
    for photo in photos:
        shutil.copy(photo, folder / "test" / "images")
        shutil.copy(SHARED / "test" / "labels" / f"{photo.stem}.txt", folder / "test" / "labels")
    shutil.copy(SHARED / "data.yaml", folder)
    return folder


def f1_of(args: list[str], capsys) -> float:
    assert main(["eval", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["f1"]


@needs_shared
def test_a_roboflow_export_is_scored_as_its_import_is(tmp_path, capsys):
    source = roboflow_sample(tmp_path / "roboflow-sample")
    assert set(read_names(source)) <= set(ROBOFLOW_NAMES)
    assert main(["dataset", "import", str(source), str(tmp_path / "imported")]) == 0
    capsys.readouterr()
    as_exported = f1_of(["--yolo", str(source)], capsys)
    assert as_exported == f1_of([str(tmp_path / "imported")], capsys)
    assert as_exported > 0.5  # the shipped recogniser reads these photos; 0.000 when the names went unmapped


@needs_shared
def test_the_report_of_a_roboflow_export_draws_the_tile_missed(tmp_path, capsys):
    source = roboflow_sample(tmp_path / "roboflow-sample", PHOTOS[:1])
    label = next((source / "test" / "labels").iterdir())
    with Image.open(next((source / "test" / "images").iterdir())) as photo:
        width, height = photo.size
    # a tile labelled on an empty stretch of the photo's top-left corner: the recogniser cannot find it
    missed = (0.0, 0.0, 24 / width, 32 / height)
    boxes = np.array([[float(v) for v in line.split()[1:]] for line in label.read_text().splitlines()])
    assert (boxes[:, 0] - boxes[:, 2] / 2 > missed[2]).all() or (boxes[:, 1] - boxes[:, 3] / 2 > missed[3]).all()
    hdr = read_names(source).index("hdr")  # the red dragon, our 7z
    label.write_text(label.read_text().rstrip("\n") + f"\n{hdr} {missed[2] / 2:.6f} {missed[3] / 2:.6f} "
                     f"{missed[2]:.6f} {missed[3]:.6f}\n")
    out = tmp_path / "report"

    assert main(["eval", "--yolo", str(source), "--report", str(out)]) == 0

    figures = json.loads((out / "figures.json").read_text())
    assert figures["sets"][str(source)]["classes"]["7z"]["tiles"] >= 1
    assert "7z → missed" in (out / "index.html").read_text()
    drawn = np.asarray(Image.open(out / "set0-worst0.jpg").convert("RGB")).astype(int)
    scale = min(1.0, DRAWN_SIDE / max(width, height))
    edge = drawn[round(16 * scale), 0:3]  # the missed tile's true box, its left side, halfway down
    assert (np.abs(edge - COLOURS["missed"]).sum(axis=1) < 120).any()


def test_class_names_no_importer_knows_are_refused_with_the_fix(tmp_path, capsys):
    folder = tmp_path / "other"
    for sub in ("images", "labels"):
        (folder / "test" / sub).mkdir(parents=True)
    (folder / "data.yaml").write_text("names: ['1m', 'pin-one', 'dragon']\n")
    assert main(["eval", "--yolo", str(folder)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "Traceback" not in error
    assert "'pin-one', 'dragon'" in error and "'1m'" not in error and "fanshot dataset import" in error
