import json
from pathlib import Path

import numpy as np
import pytest

from fanshot.scoring.tiles import DETECTOR_CLASSES
from fanshot.vision.config import DEFAULT_CONF, VisionFile
from fanshot.vision.geometry import turn_boxes
from fanshot.vision.recogniser import MODELS_DIR, Look, Recogniser, shipped, sureness, tile_entry

SAMPLES = Path(__file__).resolve().parents[3] / "shared/data/chinese-mahjong-detection/test/images"
needs_models = pytest.mark.model  # runs the shipped models (models/ is in the repository)


def test_tile_entry_ranks_alternatives_and_leaves_backs_unranked():
    p = np.array([0.1, 0.6, 0.05, 0.25])
    face = tile_entry(np.array([1.0, 2, 3, 4]), 0.5, "face", p, ["1m", "2m", "3m", "4m"], 3)
    assert face["code"] == "2m" and face["confidence"] == pytest.approx(0.3)
    assert [a["code"] for a in face["alternatives"]] == ["4m", "1m", "3m"]
    back = tile_entry(np.array([1.0, 2, 3, 4]), 0.8, "back", p, ["1m", "2m", "3m", "4m"], 3)
    assert back["code"] == "back" and back["alternatives"] == [] and back["confidence"] == pytest.approx(0.8)


@needs_models
def test_shipped_models_read_a_real_photo(tmp_path):
    from fanshot.vision.evaluation.evaluate import evaluate_manifest, read_photo

    photo = sorted(SAMPLES.glob("*.jpg"))[0]
    result, _ = read_photo(photo, shipped())
    assert set(result) == {"image", "tiles", "groups", "hand", "hand_tiles", "suggestions", "timing_ms"}
    assert result["image"] == {"width": 640, "height": 640}
    assert len(result["tiles"]) >= 5
    for tile in result["tiles"]:
        assert tile["code"] in DETECTOR_CLASSES and 0 <= tile["confidence"] <= 1
        assert len(tile["box"]) == 4 and len(tile["alternatives"]) == 3
    grouped = sorted(i for group in result["groups"] for i in group["tiles"])
    assert grouped == list(range(len(result["tiles"])))
    placed = result["hand_tiles"]
    melded = [i for meld in placed["melds"] for i in meld["tiles"]]
    in_hand = placed["concealed"] + placed["flowers"] + placed["loose"] + melded
    assert sorted(in_hand) == grouped  # every detection once: in the hand or loose
    json.dumps(result)  # the API returns it as is

    manifest = tmp_path / "one.jsonl"
    codes = [t["code"] for t in result["tiles"]]
    faces = "".join(code for code in codes if code != "back")
    manifest.write_text(json.dumps({"image": str(photo), "tiles": faces, "backs": codes.count("back")}) + "\n")
    report = evaluate_manifest(manifest, shipped())
    assert report["images"] == 1 and report["precision"] == 1.0 and report["exact_match"] == 1.0


@needs_models
def test_eval_of_a_yolo_folder_with_synth_sidecars_scores_the_proposed_hand(tmp_path):
    from fanshot.datasets.yolo import format_data_yaml
    from fanshot.vision.evaluation.evaluate import evaluate_yolo, read_photo

    photo = sorted(SAMPLES.glob("*.jpg"))[0]
    result, _ = read_photo(photo, shipped())
    for folder in ("images", "labels"):
        (tmp_path / folder).mkdir()
    (tmp_path / "data.yaml").write_text(format_data_yaml(DETECTOR_CLASSES, [""]), encoding="utf-8")
    (tmp_path / "images" / "photo.jpg").write_bytes(photo.read_bytes())
    (tmp_path / "images" / "photo.json").write_text(json.dumps({"request": {"hand": result["hand"]}}))
    lines = [f"{DETECTOR_CLASSES.index(t['code'])} {(x1 + x2) / 1280} {(y1 + y2) / 1280} {(x2 - x1) / 640} "
             f"{(y2 - y1) / 640}" for t in result["tiles"] for x1, y1, x2, y2 in [t["box"]]]
    (tmp_path / "labels" / "photo.txt").write_text("\n".join(lines) + "\n")
    report = evaluate_yolo(tmp_path, shipped())
    assert (report["images"], report["hands"], report["hand_exact"], report["layout_exact_on_labels"]) == (1, 1, 1, 1)
    # labels = the recogniser's own boxes and codes: every stage scores 1
    assert [report[key] for key in ("localiser_precision", "localiser_recall", "code_accuracy_on_matched")] == [1, 1, 1]


@needs_models
@pytest.mark.parametrize(("conf", "expected"), [(None, DEFAULT_CONF), (0.42, 0.42), (0.9999, 0.9999)])
def test_the_localiser_threshold_comes_from_vision_json(tmp_path, conf, expected):
    from fanshot.vision.evaluation.evaluate import read_photo

    meta = json.loads((MODELS_DIR / "vision.json").read_text(encoding="utf-8"))
    meta["localiser"].pop("conf", None)
    if conf is not None:
        meta["localiser"]["conf"] = conf
    for name in VisionFile.read(MODELS_DIR).files():
        (tmp_path / name).symlink_to(MODELS_DIR / name)
    (tmp_path / "vision.json").write_text(json.dumps(meta), encoding="utf-8")
    recogniser = Recogniser.load(tmp_path)
    assert recogniser.config.conf == expected
    result, _ = read_photo(sorted(SAMPLES.glob("*.jpg"))[0], recogniser)
    assert (len(result["tiles"]) == 0) == (expected > 0.999)  # no score passes so high a threshold


@needs_models
def test_a_box_drawn_around_a_detected_tile_is_named_as_the_recogniser_named_it():
    from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo

    image = load_photo(sorted(SAMPLES.glob("*.jpg"))[0].read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    tile = max((t for t in shipped()(image).tiles if t["code"] != "back"), key=lambda t: t["confidence"])
    named = shipped().name_tile(image, tile["box"])
    assert named["code"] == tile["code"] and named["confidence"] >= tile["confidence"]
    assert len(named["alternatives"]) == 3 and named["code"] not in [a["code"] for a in named["alternatives"]]


@pytest.mark.parametrize(("probs", "want"), [
    ([[0.9, 0.09, 0.01]], np.log(10)),
    ([[0.9, 0.09, 0.01], [0.5, 0.5, 0.0]], np.log(10) / 2),  # a tie reads as no sureness at all
    ([[1.0, 0.0, 0.0]], np.log(1 / np.finfo(np.float32).tiny)),  # a runner-up of 0 is floored, not divided by
])
def test_sureness_is_the_mean_log_ratio_of_best_to_runner_up(probs, want):
    assert sureness(np.array(probs, dtype=np.float32)) == pytest.approx(want, rel=1e-5)


def test_sureness_still_tells_readings_apart_whose_best_probabilities_both_saturate():
    surer = np.array([[0.99999, 0.00001, 0.0]], dtype=np.float32)
    less_sure = np.array([[0.9999, 0.0001, 0.0]], dtype=np.float32)
    assert sureness(surer) - sureness(less_sure) == pytest.approx(np.log(10), rel=1e-3)


HAND_PHOTO = SAMPLES / "hand_003_jpg.rf.567b6dbf8e3e90aedaa336215137bf82.jpg"  # one standing row of 14


@needs_models
@pytest.mark.parametrize("quarter_turns", [1, -1])
def test_a_photo_rolled_a_quarter_reads_as_the_upright_one_with_boxes_in_its_own_pixels(quarter_turns):
    from fanshot.vision.image import load_photo

    upright = load_photo(HAND_PHOTO.read_bytes())
    rolled = np.ascontiguousarray(np.rot90(upright, quarter_turns))
    want, got = shipped()(upright).as_dict(), shipped()(rolled).as_dict()
    assert [group["kind"] for group in want["groups"]] == ["concealed"]
    assert [group["kind"] for group in got["groups"]] == ["concealed"]  # one row, not 14 rows of one tile
    assert got["hand"] == want["hand"] and len(want["tiles"]) == 14
    assert got["image"] == {"width": rolled.shape[1], "height": rolled.shape[0]}
    expected = turn_boxes(np.array([t["box"] for t in want["tiles"]]), quarter_turns, 640, 640)
    boxes = np.array([t["box"] for t in got["tiles"]])
    distance = np.abs(boxes[:, None] - expected[None]).max(axis=2)
    assert sorted(distance.argmin(axis=1).tolist()) == list(range(14)) and distance.min(axis=1).max() < 8


@needs_models
def test_a_photo_turned_upside_down_is_read_the_right_way_up():
    from fanshot.vision.image import load_photo

    recogniser = shipped()
    upright = load_photo(HAND_PHOTO.read_bytes())
    upside_down = np.ascontiguousarray(np.rot90(upright, 2))
    found = recogniser.find(upside_down).found
    turned = recogniser.right_way_up(Look(upside_down, found, 0))
    assert turned.turns == 2 and np.array_equal(turned.image, upright)
    assert np.allclose(turned.found.boxes, turn_boxes(found.boxes, 2, 640, 640))
    # every face is read as the upright photo's crop of its box
    want = recogniser.classify(upright, turned.found.boxes)
    assert (turned.found.probs.argmax(axis=1) == want.argmax(axis=1)).all()
    sure = turned.found.only(turned.found.scores >= recogniser.config.conf)
    assert len(sure) == 14
