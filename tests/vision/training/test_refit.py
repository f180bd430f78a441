"""`fanshot train refit`: the shipped classifier's last layer refitted on varied training photos, photos of no
tile teaching `NOT_A_TILE`, the setting chosen on sets it was not fitted on."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from fanshot.cli import main
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.synth.dataset import synth_dataset
from fanshot.vision.recogniser import MODELS_DIR, NOT_A_TILE
from fanshot.vision.training import adapt, refit
from fanshot.vision.training.adapt import Head, Photo

needs_models = pytest.mark.model  # runs the shipped models (models/ is in the repository)


def _manifest(folder: Path, tiles: list[str]) -> Path:
    (folder / "images").mkdir(parents=True)
    for number in range(len(tiles)):
        cv2.imwrite(str(folder / "images" / f"{number}.jpg"), np.full((120, 90, 3), 40 * number, np.uint8))
    lines = [json.dumps({"image": f"images/{n}.jpg", "tiles": t, "backs": 0}) for n, t in enumerate(tiles)]
    (folder / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    return folder / "manifest.jsonl"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("rendered")
    synth_dataset(folder, n=4, seed=12, workers=1)  # drawn faces: no art cache needed
    return folder


def test_a_manifest_gives_close_ups_a_frame_filling_box_and_clutter_no_label(tmp_path):
    photos = refit.source_photos(_manifest(tmp_path, ["", "5p"]))
    assert [len(labels) for _, labels in photos] == [0, 1]
    code, box = photos[1][1][0]
    assert code == "5p" and box.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_a_manifest_photo_of_several_tiles_has_no_boxes_to_learn_from(tmp_path):
    with pytest.raises(DatasetError, match="no boxes"):
        refit.source_photos(_manifest(tmp_path, ["1m2m"]))


def test_a_split_folder_keeps_its_photos_without_labels(rendered):
    photos = refit.source_photos(rendered)
    (rendered / "labels" / f"{photos[0][0].stem}.txt").rename(rendered / "moved.txt")
    try:
        again = refit.source_photos(rendered)
    finally:
        (rendered / "moved.txt").rename(rendered / "labels" / f"{photos[0][0].stem}.txt")
    assert len(again) == len(photos) == 4 and again[0][1] == [] and photos[0][1]


def test_something_else_is_not_a_source(tmp_path):
    with pytest.raises(DatasetError, match="neither a manifest"):
        refit.source_photos(tmp_path)


def test_a_sample_is_seeded_in_order_and_at_most_the_photos():
    drawn = refit.sample(list(range(100)), 10)
    assert drawn == refit.sample(list(range(100)), 10) == sorted(drawn) and len(set(drawn)) == 10
    assert refit.sample([1, 2], 10) == [1, 2] and refit.sample([1, 2], None) == [1, 2]


def test_stacking_without_negatives_drops_the_not_a_tile_rows():
    photo = Photo("a", (), np.zeros(0), np.zeros(0, bool), np.zeros((0, 2)), np.arange(6.0).reshape(3, 2),
                  np.array([0, 5, 1]))
    assert refit.stack([photo], None)[1].tolist() == [0, 5, 1]
    features, targets = refit.stack([photo], 5)
    assert targets.tolist() == [0, 1] and features.tolist() == [[0, 1], [4, 5]]


def test_a_setting_that_reads_valid_worse_than_the_base_ranks_below_one_that_does_not():
    base = {"valid": {"score": 0.9}, "tune": {"score": 0.5}}
    worse_valid = {"valid": {"score": 0.89}, "tune": {"score": 0.99}}
    kept_valid = {"valid": {"score": 0.9}, "tune": {"score": 0.6}}
    rank = lambda reads: refit._rank(reads, ["valid"], ["tune"], base)  # noqa: E731
    assert rank(kept_valid) > rank(worse_valid)
    assert rank(kept_valid) == (True, 0.6, 0.9)


@needs_models
def test_fanshot_train_refit_writes_models_with_not_a_tile_that_eval_uses(rendered, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(adapt, "FIT_STEPS", 20)
    monkeypatch.setattr(refit, "STRENGTHS", (0.1,))
    monkeypatch.setattr(refit, "CONFS", (0.3, 0.55))
    clutter = _manifest(tmp_path / "clutter", ["", ""])
    out, cache = tmp_path / "models", tmp_path / "cache"
    args = ["train", "refit", "--fit", str(rendered), "--tune", str(clutter), "--valid", str(rendered),
            "--out", str(out), "--cache", str(cache), "--json"]
    assert main(args) == 0
    record = json.loads(capsys.readouterr().out)
    meta = json.loads((out / "vision.json").read_text())
    assert meta["refit"] == record and meta["training"][-1].startswith("fanshot train refit --fit")
    assert meta["classifier"]["classes"][-1] == NOT_A_TILE and meta["localiser"]["conf"] in (0.3, 0.55)
    assert len(record["choice"]["trials"]) == 6 and record["photos"][str(clutter)] == 2
    assert len(list(cache.glob("*.pkl"))) == 3
    assert main(["eval", "--yolo", str(rendered), "--models", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["images"] == 4
    assert main([*args[:-5], "--out", str(MODELS_DIR)]) == 2  # never over the base models
    assert "is the base models folder" in capsys.readouterr().err


def test_base_tile_rows_keep_every_tile_row_and_take_the_fitted_not_a_tile_row():
    classes = ("1m", "2m", NOT_A_TILE)
    base = Head(np.zeros((3, 2)), np.array([0.0, 0.0, -20.0]), classes)
    fitted = Head(np.ones((3, 2)), np.array([1.0, 2.0, 3.0]), classes)
    mixed = refit.with_base_tile_rows(base, fitted)
    assert mixed.weight.tolist() == [[0, 0], [0, 0], [1, 1]] and mixed.bias.tolist() == [0, 0, 3]
    assert base.bias[2] == -20.0  # the base is not changed
