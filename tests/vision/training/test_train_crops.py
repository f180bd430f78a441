import cv2
import numpy as np
import pytest

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.yolo import format_data_yaml
from fanshot.vision.training.train import JITTER_SCALE, SMALL_WIDTHS, build_crop_dataset, jitter_box, shown_small


def _yolo(root, split, labels):
    """A YOLO folder in our 43 classes: `split` ("" for flat) holds one grey 100×100 photo per {stem: labels}."""
    for folder in ("images", "labels"):
        (root / split / folder).mkdir(parents=True)
    (root / "data.yaml").write_text(format_data_yaml(CLASSES, [split]))
    for stem, text in labels.items():
        cv2.imwrite(str(root / split / "images" / f"{stem}.jpg"), np.full((100, 100, 3), 128, np.uint8))
        (root / split / "labels" / f"{stem}.txt").write_text(text)


def line(code, cx=0.5):
    return f"{CLASSES.index(code)} {cx} 0.5 0.2 0.3\n"


def test_extra_folders_add_train_crops_of_known_classes_only(tmp_path):
    real, synth = tmp_path / "real", tmp_path / "synth"
    _yolo(real, "train", {"a": line("1m") + line("7z", 0.2)})
    _yolo(real, "valid", {"b": line("1m") + line("9s")})  # 9s has no train crops: no val folder either
    _yolo(synth, "", {"c": line("1m") + line("back", 0.2) + line("2p", 0.8)})  # back and 2p: unknown classes

    counts = build_crop_dataset(real, tmp_path / "crops", size=16, extra=[synth])

    assert counts == {"1m": 2, "7z": 1}
    crops = tmp_path / "crops"
    assert sorted(p.name for p in (crops / "train" / "1m").iterdir()) == ["a_0_0.png", "extra0_c_0_0.png"]
    assert sorted(p.name for p in (crops / "train").iterdir()) == ["1m", "7z"]
    assert sorted(p.name for p in (crops / "val").iterdir()) == ["1m"]
    assert cv2.imread(str(crops / "train" / "7z" / "a_1_0.png")).shape == (16, 16, 3)


def test_a_crop_shown_small_keeps_its_size_and_loses_the_detail_a_far_tile_loses():
    rng = np.random.default_rng(0)
    crop = np.zeros((64, 64, 3), np.uint8)
    crop[:, ::2] = 255  # stripes a pixel wide: no tile SMALL_WIDTHS px across shows them
    small = shown_small(crop, 1.3, rng)
    assert small.shape == crop.shape and small.dtype == np.uint8
    assert np.abs(np.diff(small.astype(int), axis=1)).mean() < 0.2 * np.abs(np.diff(crop.astype(int), axis=1)).mean()
    flat = np.full((64, 64, 3), 90, np.uint8)  # what has no detail stays as it was
    assert np.abs(shown_small(flat, 1.3, rng).astype(int) - 90).max() <= 2
    assert SMALL_WIDTHS[1] < 64


@pytest.mark.parametrize(("share", "shown"), [(0.0, 0), (1.0, 4)])
def test_the_small_share_changes_train_crops_only_and_leaves_the_jitter_as_it_was(tmp_path, share, shown):
    real = tmp_path / "real"
    _yolo(real, "train", {"a": line("1m") + line("7z", 0.2), "b": line("1m", 0.8) + line("7z", 0.2)})
    _yolo(real, "valid", {"c": line("1m")})
    stripes = np.zeros((100, 100, 3), np.uint8)
    stripes[:, ::2] = 255  # detail to lose: a crop shown small then differs
    for image in real.glob("*/images/*.jpg"):
        cv2.imwrite(str(image), stripes)
    plain = build_crop_dataset(real, tmp_path / "plain", size=32)
    counts = build_crop_dataset(real, tmp_path / "small", size=32, small=share)
    assert counts == {"1m": 2, "7z": 2}

    def differ(split):
        return sum(not np.array_equal(cv2.imread(str(path)), cv2.imread(str(tmp_path / "plain" / path.relative_to(
            tmp_path / "small")))) for path in (tmp_path / "small" / split).rglob("*.png"))

    assert differ("train") == shown and differ("val") == 0
    assert plain == counts


@pytest.mark.parametrize("scale", [0.0, JITTER_SCALE, 0.16])
def test_a_jittered_box_side_is_scaled_by_up_to_the_jitter_scale_and_spreads_that_far(scale):
    rng = np.random.default_rng(0)
    box = np.array([100.0, 50.0, 140.0, 103.0])
    jittered = np.array([jitter_box(box, rng, scale) for _ in range(2000)])
    sides = (jittered[:, 2:] - jittered[:, :2]) / (box[2:] - box[:2])
    assert np.all(np.abs(sides - 1) <= scale + 1e-9)
    assert np.abs(sides - 1).max() >= 0.95 * scale


def test_negative_crops_are_the_finds_on_no_labelled_tile(tmp_path, monkeypatch):
    from fanshot.vision.recogniser import Recogniser
    from fanshot.vision.training.refit import source_photos
    from fanshot.vision.training.train import NEGATIVE_CONF, NEGATIVE_VAL_EVERY, add_negative_crops
    from tests.vision.fakes import fake_recogniser

    photos = tmp_path / "photos"
    _yolo(photos, "", {f"p{i}": line("1m") for i in range(NEGATIVE_VAL_EVERY)})  # a tile at x 40-60, y 35-65
    boxes = np.array([[41, 36, 59, 64], [80, 10, 95, 30], [48, 40, 70, 70]], np.float32)  # the tile, a key, half on it
    recogniser = fake_recogniser(lambda image, conf, fill: (boxes, np.ones(3), ["face"] * 3) if fill == 1
                                 else (np.zeros((0, 4)), np.zeros(0), []))
    monkeypatch.setattr(Recogniser, "load", classmethod(lambda cls, models_dir: recogniser))

    added = add_negative_crops([source_photos(photos)], tmp_path / "crops", tmp_path / "models", size=16)

    assert {conf for conf, _ in recogniser.calls} >= {NEGATIVE_CONF}  # found as sure at NEGATIVE_CONF
    assert added == NEGATIVE_VAL_EVERY  # one a photo: the key; the tile and the box half on it are no negatives
    train = sorted(p.name for p in (tmp_path / "crops" / "train" / "none").iterdir())
    assert len(train) == NEGATIVE_VAL_EVERY - 1 and train[0] == "none0_p0_1.png"
    assert [p.name for p in (tmp_path / "crops" / "val" / "none").iterdir()] == [f"none0_p{added - 1}_1.png"]
