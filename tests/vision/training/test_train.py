import cv2
import numpy as np
import pytest

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.yolo import format_data_yaml
from fanshot.vision.training.train import batchnorm_after, build_localiser_dataset, unfused_batchnorm

BACK_INDEX = CLASSES.index("back")


def _yolo(root, split, labels):
    """A YOLO folder in our 43 classes: `split` ("" for flat) holds one image per {stem: label text}."""
    (root / split / "images").mkdir(parents=True)
    (root / split / "labels").mkdir(parents=True)
    (root / "data.yaml").write_text(format_data_yaml(CLASSES, [split]))
    for stem, text in labels.items():
        (root / split / "images" / f"{stem}.jpg").write_bytes(b"jpeg")
        (root / split / "labels" / f"{stem}.txt").write_text(text)


def test_extra_folders_are_mixed_into_train_with_backs_kept(tmp_path):
    real = tmp_path / "real"
    _yolo(real, "train", {"a": "0 0.5 0.5 0.1 0.2\n"})
    _yolo(real, "valid", {"b": "5 0.5 0.5 0.1 0.2\n"})
    synth = tmp_path / "synth"  # flat, with a sidecar beside each image like `fanshot synth`'s
    _yolo(synth, "", {"a": f"3 0.2 0.3 0.1 0.2\n{BACK_INDEX} 0.4 0.3 0.1 0.2\n"})
    (synth / "images" / "a.json").write_text("{}")

    data = build_localiser_dataset(real, tmp_path / "out", [synth])

    train = tmp_path / "out" / "train"
    assert sorted(p.name for p in (train / "images").iterdir()) == ["a.jpg", "extra0_a.jpg"]
    assert (train / "images" / "extra0_a.jpg").resolve() == (synth / "images" / "a.jpg").resolve()
    assert (train / "labels" / "a.txt").read_text() == "0 0.500000 0.500000 0.100000 0.200000\n"
    assert [line.split()[0] for line in (train / "labels" / "extra0_a.txt").read_text().splitlines()] == ["0", "1"]
    assert [p.name for p in (tmp_path / "out" / "valid" / "images").iterdir()] == ["b.jpg"]
    assert "names: ['face', 'back']" in data.read_text()


def _photos(root):
    for image in root.rglob("*.jpg"):
        cv2.imwrite(str(image), np.full((600, 800, 3), 128, np.uint8))


def test_pack_shrinks_every_photo_and_keeps_extras_and_negatives_apart_in_our_codes(tmp_path):
    from fanshot.cli import main

    real, synth, clutter = tmp_path / "real", tmp_path / "synth", tmp_path / "clutter"
    _yolo(real, "train", {"a": "0 0.5 0.5 0.1 0.2\n"})
    _yolo(real, "valid", {"b": "5 0.5 0.5 0.1 0.2\n"})
    _yolo(synth, "", {"a": "0 0.4 0.3 0.1 0.2\n1 0.2 0.3 0.1 0.2\n"})
    (synth / "data.yaml").write_text(format_data_yaml(["2p", "back"], [""]))  # another class order: remapped
    _yolo(clutter, "", {"c": ""})
    _photos(tmp_path)
    out = tmp_path / "out"

    assert main(["train", "pack", str(real), "--out", str(out), "--extra", str(synth), "--negatives", str(clutter),
                 "--size", "200"]) == 0

    for image in out.rglob("*.webp"):
        assert not image.is_symlink() and cv2.imread(str(image)).shape == (150, 200, 3)
    tiles = out / "tiles"
    assert sorted(p.name for p in (tiles / "train" / "images").iterdir()) == ["a.webp", "extra0_a.webp"]
    assert (tiles / "valid" / "labels" / "b.txt").read_text() == "5 0.500000 0.500000 0.100000 0.200000\n"
    assert [line.split()[0] for line in (tiles / "train" / "labels" / "extra0_a.txt").read_text().splitlines()] == \
        [str(CLASSES.index("2p")), str(BACK_INDEX)]
    assert [p.name for p in (out / "negatives" / "images").iterdir()] == ["n0_c.webp"]
    assert (out / "negatives" / "labels" / "n0_c.txt").read_text() == ""
    assert f"names: {list(CLASSES)}" in (tiles / "data.yaml").read_text().replace('"', "'")


def test_pack_keeps_a_seeded_sample_of_valid_photos_when_asked(tmp_path):
    from fanshot.cli import main

    real = tmp_path / "real"
    _yolo(real, "train", {"a": "0 0.5 0.5 0.1 0.2\n"})
    _yolo(real, "valid", {f"v{i}": "5 0.5 0.5 0.1 0.2\n" for i in range(6)})
    _photos(tmp_path)
    kept = []
    for out in (tmp_path / "one", tmp_path / "two"):
        assert main(["train", "pack", str(real), "--out", str(out), "--most-valid", "4"]) == 0
        kept.append(sorted(p.name for p in (out / "tiles" / "valid" / "images").iterdir()))
    assert len(kept[0]) == 4 and kept[0] == kept[1]


def test_pack_keeps_the_first_variants_of_each_roboflow_photo_at_the_quality_asked(tmp_path, capsys):
    from fanshot.cli import main

    real, rows = tmp_path / "real", tmp_path / "rows"
    photos = [f"p{k}_jpg.rf.{h}" for k in (1, 2) for h in ("c3", "a1", "b2")] + ["plain"]
    _yolo(real, "train", dict.fromkeys(photos, "0 0.5 0.5 0.1 0.2\n"))
    _yolo(real, "valid", {f"v_jpg.rf.{h}": "5 0.5 0.5 0.1 0.2\n" for h in ("a", "b", "c")})
    _yolo(rows, "", {f"r_jpg.rf.{h}": "0 0.5 0.5 0.1 0.2\n" for h in ("a", "b", "c")})  # an extra: all kept
    _photos(tmp_path)
    noise = np.random.default_rng(0).integers(0, 256, (600, 800, 3), dtype=np.uint8)  # a size that shows quality
    for image in tmp_path.rglob("*.jpg"):
        cv2.imwrite(str(image), noise)

    sizes = {}
    for quality in ("80", "30"):
        out = tmp_path / f"q{quality}"
        assert main(["train", "pack", str(real), "--out", str(out), "--extra", str(rows), "--variants", "2",
                     "--quality", quality]) == 0
        names = sorted(p.stem for p in (out / "tiles" / "train" / "images").iterdir())
        assert names == ["extra0_r_jpg.rf.a", "extra0_r_jpg.rf.b", "extra0_r_jpg.rf.c", "p1_jpg.rf.a1", "p1_jpg.rf.b2",
                         "p2_jpg.rf.a1", "p2_jpg.rf.b2", "plain"]
        assert len(list((out / "tiles" / "valid" / "images").iterdir())) == 3  # valid photos are not variants
        sizes[quality] = sum(p.stat().st_size for p in out.rglob("*.webp"))
    assert sizes["30"] < 0.8 * sizes["80"]
    with pytest.raises(SystemExit) as refused:
        main(["train", "pack", str(real), "--out", str(tmp_path / "bad"), "--variants", "0"])
    assert refused.value.code == 2 and "--variants: a count is a whole number from 1" in capsys.readouterr().err


def test_pack_refuses_a_folder_whose_classes_are_not_tile_codes_before_writing(tmp_path, capsys):
    from fanshot.cli import main

    real = tmp_path / "real"
    _yolo(real, "train", {"a": "0 0.5 0.5 0.1 0.2\n"})
    (real / "data.yaml").write_text(format_data_yaml(["sd1"], ["train"]))
    assert main(["train", "pack", str(real), "--out", str(tmp_path / "out")]) == 2
    assert "fanshot dataset import" in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_batchnorm_after_names_the_bn_of_a_fused_conv_only():
    keys = {"model.2.cv1.conv.weight", "model.2.cv1.bn.weight", "model.23.cv2.0.2.weight"}
    assert batchnorm_after("model.2.cv1.conv.bias", keys) == "model.2.cv1.bn"
    assert batchnorm_after("model.2.cv1.conv.weight", keys) == "model.2.cv1.bn"
    assert batchnorm_after("model.23.cv2.0.2.bias", keys) is None  # a head's last conv: no BatchNorm
    assert batchnorm_after("onnx::Split_185", keys) is None


def test_unfused_batchnorm_gives_back_the_fused_output_in_eval_and_train_mode():
    rng = np.random.default_rng(0)
    x = rng.normal([1.0, -2.0, 0.5], [3.0, 0.1, 1.0], size=(1000, 3))  # conv outputs, channels last
    bias, eps = np.array([0.2, -0.4, 1.5]), 1e-3
    bn = unfused_batchnorm(bias, x.mean(0), x.var(0), eps)

    def batchnorm(mean, var):
        return (x - mean) / np.sqrt(var + eps) * bn["weight"] + bn["bias"]

    np.testing.assert_allclose(batchnorm(bn["running_mean"], bn["running_var"]), x + bias, atol=1e-9)  # eval
    np.testing.assert_allclose(batchnorm(x.mean(0), x.var(0)), x + bias, atol=1e-9)  # train, batch statistics


def test_export_only_the_localiser_keeps_the_classifier_and_training_commands(tmp_path, monkeypatch):
    import json

    import fanshot.vision.training.train
    from fanshot.cli import main

    models = {"localiser": {"file": "localiser.onnx", "imgsz": 416, "classes": ["face"]},
              "classifier": {"file": "classifier.onnx", "imgsz": 64, "classes": ["1m", "2m"]},
              "training": ["fanshot train classifier --hours 1"]}
    (tmp_path / "vision.json").write_text(json.dumps(models))
    exported = []
    monkeypatch.setattr(fanshot.vision.training.train, "export", lambda weights, out, imgsz, dynamic, runs: (
        exported.append((weights.name, out.name, imgsz, dynamic)) or (out, ["face", "back"])))

    assert main(["train", "export", "--only", "localiser", "--out", str(tmp_path), "--localiser", "new.pt"]) == 0

    assert exported == [("new.pt", "localiser.onnx", 416, False)]
    written = json.loads((tmp_path / "vision.json").read_text())
    assert written["localiser"]["classes"] == ["face", "back"]
    assert written["localiser"]["conf"] == 0.3  # vision.json named no threshold: the default
    assert written["classifier"] == models["classifier"]
    assert written["training"] == models["training"]

    assert main(["train", "export", "--only", "localiser", "--out", str(tmp_path), "--conf", "0.55"]) == 0
    assert json.loads((tmp_path / "vision.json").read_text())["localiser"]["conf"] == 0.55
    assert main(["train", "export", "--only", "classifier", "--out", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "vision.json").read_text())["localiser"]["conf"] == 0.55  # kept


@pytest.mark.parametrize(("classes", "small_named"), [(["1m", "2m"], True), (["1m", "2m", "3m"], False)])
def test_a_classifier_exported_with_other_classes_names_no_small_faces_classifier(tmp_path, monkeypatch, classes,
                                                                                   small_named):
    import json

    import fanshot.vision.training.train
    from fanshot.cli import main

    models = {"localiser": {"file": "localiser.onnx", "imgsz": 416, "classes": ["face"]},
              "classifier": {"file": "classifier.onnx", "imgsz": 64, "classes": ["1m", "2m"]},
              "recogniser": {"small_faces": {"classifier": "classifier-small.onnx"}}}
    (tmp_path / "vision.json").write_text(json.dumps(models))
    monkeypatch.setattr(fanshot.vision.training.train, "export",
                        lambda weights, out, imgsz, dynamic, runs: (out, classes))

    assert main(["train", "export", "--only", "classifier", "--out", str(tmp_path)]) == 0

    small_faces = json.loads((tmp_path / "vision.json").read_text())["recogniser"]["small_faces"]
    assert (small_faces["classifier"] == "classifier-small.onnx") == small_named
