"""A smoke training of both stages through `fanshot train`, where the `train` extra (ultralytics, torch) is
installed: a few rendered photos, one short epoch each, ONNX export, and the exported models read a photo."""

import os

from tests.services import needs_train_extra

needs_train_extra()

from fanshot.cli import main  # noqa: E402
from fanshot.datasets.synth.dataset import synth_dataset  # noqa: E402
from fanshot.vision.config import RecogniserConfig  # noqa: E402
from fanshot.vision.image import load_photo  # noqa: E402
from fanshot.vision.recogniser import Recogniser  # noqa: E402


def test_fanshot_train_smoke_run_exports_models_the_recogniser_loads(tmp_path, monkeypatch):
    for switch in ("YOLO_OFFLINE", "YOLO_AUTOINSTALL", "YOLO_CONFIG_DIR"):  # set by `fanshot train`: undone after
        monkeypatch.setenv(switch, os.environ.get(switch, ""))
    synth = tmp_path / "synth"
    synth_dataset(synth, n=6, seed=3, workers=1)  # drawn faces: no art cache needed
    src = tmp_path / "src"  # a YOLO folder with train and valid splits, as `fanshot dataset import` writes
    for split, stems in (("train", range(4)), ("valid", range(4, 6))):
        for folder, suffix in (("images", ".jpg"), ("labels", ".txt")):
            (src / split / folder).mkdir(parents=True)
            for i in stems:
                (src / split / folder / f"synth_{i:06d}{suffix}").symlink_to(synth / folder / f"synth_{i:06d}{suffix}")
    (src / "data.yaml").write_text((synth / "data.yaml").read_text())
    data, runs, models = tmp_path / "data", tmp_path / "runs", tmp_path / "models"

    assert main(["train", "data", str(src), "--out", str(data)]) == 0
    for stage, batch in (("localiser", "2"), ("classifier", "8")):
        assert main(["train", stage, "--data", str(data), "--runs", str(runs), "--hours", "0.0003",
                     "--batch", batch]) == 0
    assert main(["train", "export", "--runs", str(runs), "--out", str(models)]) == 0

    photo = load_photo((synth / "images" / "synth_000000.jpg").read_bytes())
    recogniser = Recogniser.load(models)
    assert recogniser.config == RecogniserConfig(conf=recogniser.config.conf)  # a new folder: the defaults
    result = recogniser.with_config(recogniser.config.changed(conf=0.0))(photo).as_dict()
    assert set(result) >= {"tiles", "groups", "hand"}
    assert all(tile["code"] for tile in result["tiles"])
