"""The deep adaptation (`fanshot adapt --kind deep`): the labels put in the localiser's box convention, the
localiser fine-tuned, judged by folds as serving reads, and the torch-free fallback."""

import json
import shutil

import cv2
import numpy as np
import pytest

from fanshot.cli import main
from fanshot.datasets.synth.dataset import synth_dataset
from fanshot.vision.recogniser import MODELS_DIR, Recogniser
from fanshot.vision.training import adapt, finetune
from fanshot.vision.training.finetune import (
    FineTuning,
    box_offsets,
    cut_tiles,
    fine_tuning_from,
    in_localiser_convention,
    paste_tiles,
    pasted_photos,
    replay_folder,
    replay_photos,
)
from tests.vision.fakes import fake_recogniser


@pytest.fixture(scope="module")
def train_extra():
    """The `train` extra, imported before any test's capsys takes stdout: ultralytics binds its log to the stdout
    of its first import (`needs_train_extra`), and its lines would come before the --json record."""
    from tests.services import needs_train_extra

    needs_train_extra()


def test_box_offsets_are_the_median_move_of_each_side_in_label_sizes():
    label = np.array([100.0, 100.0, 200.0, 300.0])  # 100 wide, 200 high
    pairs = [(label, label + [10, 40, -10, -20]), (label, label + [20, 40, -10, -20]),
             (label, label + [90, 40, -10, -20])]
    assert np.allclose(box_offsets(pairs), [0.2, 0.2, -0.1, -0.1])
    assert np.array_equal(box_offsets([]), np.zeros(4))


@pytest.mark.parametrize(("photos", "epochs"), [(10, 40), (19, 21), (5, 80), (400, 10), (0, 400)])
def test_the_localiser_trains_as_many_steps_whatever_the_photo_count(photos, epochs):
    assert FineTuning(passes=400, min_epochs=10).epochs(photos) == epochs


def test_an_arm_of_the_fine_tuning_is_set_by_key_and_value_typed_as_the_setting():
    arm = fine_tuning_from(["freeze=10", "judging_passes=0.5", "replay=10", "passes=250"])
    assert arm == FineTuning(freeze=10, judging_passes=0.5, replay=10, passes=250)
    assert isinstance(arm.freeze, int) and isinstance(arm.judging_passes, float)
    assert fine_tuning_from([]) == finetune.FINE_TUNING


def photo_of_one_row(seed: int, tiles: int = 4) -> tuple[np.ndarray, list]:
    """A 200×300 teal table with a row of `tiles` distinct 20×30 tiles from y 40, each a colour of its own."""
    image = np.full((300, 200, 3), (40, 160, 160), np.uint8)
    labels = []
    for k in range(tiles):
        x = 20 + 25 * k
        image[40:70, x:x + 20] = (200, 30 * k + 10 * seed, 90)
        labels.append((f"{k + 1}m", np.array([x / 200, 40 / 300, (x + 20) / 200, 70 / 300])))
    return image, labels


def test_pasted_tiles_stand_apart_on_the_table_labelled_with_the_donors_codes():
    image, labels = photo_of_one_row(0)
    donor = cut_tiles(*photo_of_one_row(1))
    assert [tile.code for tile in donor] == ["1m", "2m", "3m", "4m"] and donor[0].pixels.shape == (36, 24, 3)
    pasted, with_pasted = paste_tiles(image, labels, donor, 6, np.random.default_rng(0))
    assert with_pasted[:len(labels)] == labels and len(with_pasted) == len(labels) + 6
    size = np.array([200, 300, 200, 300])
    boxes = [box * size for _, box in with_pasted]
    for i, a in enumerate(boxes):  # no pasted tile overlaps the row or another
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    for code, box in with_pasted[len(labels):]:
        x1, y1, x2, y2 = np.round(box * size).astype(int)
        assert y1 >= 10  # no higher than a tile above the row (40 - 30)
        k = int(code[0]) - 1
        centre = pasted[(y1 + y2) // 2, (x1 + x2) // 2]
        assert np.abs(centre.astype(int) - [200, 30 * k + 10, 90]).max() <= 3  # the donor's tile of that code
    outside = np.ones(image.shape[:2], bool)
    for _, box in with_pasted[len(labels):]:
        x1, y1, x2, y2 = np.round(box * size).astype(int)
        outside[max(0, y1 - 5):y2 + 5, max(0, x1 - 5):x2 + 5] = False
    assert np.array_equal(pasted[outside], image[outside]) and not np.array_equal(pasted, image)
    again = paste_tiles(image, labels, donor, 6, np.random.default_rng(0))
    assert np.array_equal(again[0], pasted)  # seeded
    assert paste_tiles(image, labels, [], 6, np.random.default_rng(0))[1] == labels  # no donor: as it was


def test_pasting_in_a_fit_replaces_each_photo_by_its_pasted_copy(tmp_path):
    photos = []
    for seed in range(3):
        image, labels = photo_of_one_row(seed)
        path = tmp_path / f"p{seed}.png"
        cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))
        photos.append((path, labels))
    written = pasted_photos(photos, 3, tmp_path / "pasted")
    assert len(written) == 3 and all(path.parent == tmp_path / "pasted" for path, _ in written)
    assert all(len(labels) == 7 for _, labels in written)
    assert fine_tuning_from(["paste=6"]).paste == 6


@pytest.mark.parametrize(("pair", "message"), [
    ("frozen=10", "KEY one of passes, min_epochs, lr0"), ("freeze", "write KEY=VALUE"),
    ("freeze=half", "freeze takes a int"), ("replay=41", "between 0 and 40 renders"),
    ("paste=-1", "0 \\(none\\) or more tiles")])
def test_a_bad_arm_is_refused_naming_the_pair_and_the_fix(pair, message):
    with pytest.raises(ValueError, match=message):
        fine_tuning_from([pair])


def test_the_judging_folds_fit_a_share_of_the_passes_and_the_final_fit_all():
    settings = FineTuning(passes=400, judging_passes=0.5, freeze=10)
    assert settings.for_judging() == FineTuning(passes=200, judging_passes=1.0, freeze=10)
    assert FineTuning(judging_passes=1.0).for_judging() == FineTuning(judging_passes=1.0)
    assert FineTuning().for_judging().passes == FineTuning().passes // 2  # the default: judged at half


def test_scattered_renders_are_rendered_once_and_replayed_with_their_face_boxes(tmp_path, monkeypatch):
    monkeypatch.setattr(finetune, "REPLAY_RENDERS", 2)
    folder = replay_folder(tmp_path)
    assert folder.parent == tmp_path and not list(tmp_path.glob("*.partial"))
    monkeypatch.setattr("fanshot.datasets.synth.dataset.synth_dataset", lambda *a, **k: pytest.fail("rendered"))
    assert replay_folder(tmp_path) == folder  # cached
    [(image, labels)] = replay_photos(1, folder)
    assert image == folder / "images" / "synth_000000.jpg"
    rows = [line.split() for line in (folder / "labels" / "synth_000000.txt").read_text().splitlines()]
    assert [code for code, _ in labels] == [finetune.read_names(folder)[int(row[0])] for row in rows]
    cx, cy, w, h = map(float, rows[0][1:])
    assert np.allclose(labels[0][1], [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])  # as labelled: no move


@pytest.mark.model
def test_the_deep_kind_fits_the_judging_folds_and_the_final_fit_by_the_settings_given(tmp_path, monkeypatch):
    fits = []

    def fine_tune(photos, localiser, classes, imgsz, scratch, out, *, settings, progress):
        fits.append((len(photos), settings))
        out.parent.mkdir(parents=True, exist_ok=True)
        return shutil.copyfile(localiser, out)

    monkeypatch.setattr(finetune, "available", lambda: True)
    monkeypatch.setattr(finetune, "finetune_localiser", fine_tune)
    monkeypatch.setattr(adapt, "better", lambda after, before: True)
    for name, value in (("LABEL_JITTERS", 2), ("FOUND_JITTERS", 1), ("FIT_STEPS", 30)):
        monkeypatch.setattr(adapt, name, value)
    folder = tmp_path / "photos"
    synth_dataset(folder, n=4, seed=11, workers=1)
    arm = FineTuning(passes=300, judging_passes=0.5, freeze=10)
    record = adapt.adapt(folder, tmp_path / "models", MODELS_DIR, deep=True, fine_tuning=arm)
    assert fits == [(2, arm.for_judging()), (2, arm.for_judging()), (4, arm)]
    assert record["fine_tuning"]["freeze"] == 10 and record["fine_tuning"]["epochs"] == arm.epochs(4)


@pytest.mark.parametrize("count", [2, 3, 7, 19, 20])
def test_every_photo_is_in_one_fold_and_the_folds_are_even(count):
    folds = adapt.deep_folds(count)
    assert sorted(np.bincount(folds).tolist()) == [count // 2, count - count // 2]
    assert np.array_equal(folds, adapt.deep_folds(count))  # seeded


def test_a_step_reports_within_its_share_of_the_whole():
    seen = []
    step = adapt.within(lambda fraction, message: seen.append((fraction, message)), 0.5, 0.75, "fold 2 of 2")
    step(0.0, "start")
    step(1.0, "end")
    assert seen == [(0.5, "fold 2 of 2: start"), (0.75, "fold 2 of 2: end")]


def test_labels_take_the_localisers_box_where_it_finds_the_tile_and_move_by_the_median_elsewhere(tmp_path):
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), np.full((200, 400, 3), 90, np.uint8))
    # The user boxes whole tiles (face and body); the localiser boxes the face: 10 % in from each side, 30 %
    # down from the top. It finds the first two tiles and misses the third.
    tiles = np.array([[20, 40, 60, 120], [100, 40, 140, 120], [200, 40, 240, 120]], dtype=float)
    faces = tiles + np.tile(tiles[:, 2:] - tiles[:, :2], 2) * [0.1, 0.3, -0.1, -0.1]
    localiser = fake_recogniser(lambda image, conf, fill: (faces[:2], [0.9, 0.8], ["face", "face"]))
    labels = [(code, box / [400, 200, 400, 200]) for code, box in zip(("1m", "2m", "3m"), tiles, strict=True)]
    [(path, converted)] = in_localiser_convention([(photo, labels)], localiser)
    assert path == photo and [code for code, _ in converted] == ["1m", "2m", "3m"]
    boxes = np.array([box for _, box in converted]) * [400, 200, 400, 200]
    assert np.allclose(boxes, faces)  # found: its box; missed: the user's moved as the found ones were


def test_a_tile_the_localiser_never_finds_keeps_the_users_box(tmp_path):
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), np.full((100, 100, 3), 90, np.uint8))
    labels = [("5z", np.array([0.1, 0.1, 0.4, 0.5]))]
    nothing = fake_recogniser(lambda image, conf, fill: (np.zeros((0, 4)), [], []))
    [(_, [(code, box)])] = in_localiser_convention([(photo, labels)], nothing)
    assert code == "5z" and np.allclose(box, labels[0][1])


def test_deep_adaptation_without_the_train_extra_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(finetune, "available", lambda: False)
    folder = tmp_path / "photos"
    synth_dataset(folder, n=2, seed=3, workers=1)
    assert main(["adapt", "--yolo", str(folder), "--out", str(tmp_path / "out"), "--kind", "deep"]) == 2
    assert "pip install 'fanshot[train]'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.model
@pytest.mark.slow
def test_fanshot_adapt_deep_fine_tunes_the_localiser_and_judges_it_by_folds(train_extra, tmp_path, capsys,
                                                                            monkeypatch):
    monkeypatch.setattr(finetune, "FINE_TUNING", FineTuning(passes=6, min_epochs=1))  # the same path, in seconds
    for name, value in (("LABEL_JITTERS", 2), ("FOUND_JITTERS", 1), ("FIT_STEPS", 30)):
        monkeypatch.setattr(adapt, name, value)
    folder, out = tmp_path / "photos", tmp_path / "models"
    synth_dataset(folder, n=4, seed=11, workers=1)
    assert main(["adapt", "--yolo", str(folder), "--out", str(out), "--kind", "deep", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    meta = json.loads((out / "vision.json").read_text())
    assert meta["adaptation"] == record and record["kind"] == "deep"
    held = record["held_out"]
    assert held["folds"] == 2 and held["base"]["photos"] == held["adapted"]["photos"] == 4
    # the base's figure is the shipped recogniser's reading of every photo, as serving reads it
    truths = [[code for code, _ in labels] for _, labels in adapt.labelled_photos(folder)]
    paths = [path for path, _ in adapt.labelled_photos(folder)]
    assert held["base"] == adapt.figures(truths, adapt.served_reads(MODELS_DIR, paths))
    localiser_changed = (out / "localiser.onnx").read_bytes() != (MODELS_DIR / "localiser.onnx").read_bytes()
    assert localiser_changed == (record["kept"] == "adapted")
    # an adapted localiser is read alone; a kept base keeps the second look
    assert (meta["recogniser"]["second_look"]["localiser"] is None) == localiser_changed
    assert (out / "localiser-second.onnx").is_file() == (not localiser_changed)
    assert record["fine_tuning"]["epochs"] == 2  # 6 passes over the 4 photos, rounded
    assert set(record["seconds_by_step"]) == {"localiser", "classifier", "judging"}
    assert sum(record["seconds_by_step"].values()) <= record["seconds"] + 0.2  # four figures rounded to 0.1 s
    Recogniser.load(out)  # loads and serves
    assert main(["eval", "--yolo", str(folder), "--models", str(out), "--json"]) == 0


def test_importing_ultralytics_for_an_adaptation_leaves_a_photo_that_is_no_photo_a_clear_refusal(train_extra,
                                                                                                    tmp_path):
    from PIL import Image

    from fanshot.vision.image import PILLOW_OPEN, PhotoError, load_photo
    from fanshot.vision.training.train import configure_ultralytics

    configure_ultralytics(tmp_path / "config")  # imports ultralytics, which replaces Image.open process-wide
    assert Image.open is PILLOW_OPEN
    with pytest.raises(PhotoError) as refused:
        load_photo(b"GIF89a? no, a text file")
    assert refused.value.code == "not_an_image"
