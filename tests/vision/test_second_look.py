"""The second look (`second_look`, issue 52): a second localiser read where the first look suggests misses, the
union of both looks' finds, and nothing changed while no second localiser is named."""

import json
from dataclasses import replace

import numpy as np
import pytest

from fanshot.vision.cli import load_recogniser
from fanshot.vision.config import RecogniserConfig, SecondLook, VisionFile
from fanshot.vision.geometry import union_of_looks
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser, rescaled, shipped, suggests_misses
from tests.vision.fakes import FakeRecogniser, fake_recogniser
from tests.vision.test_zoom import SHARED

CONF = 0.5
SETTINGS = RecogniserConfig(conf=CONF, unsure=0.3)


def box(x: float, y: float = 0.0, side: float = 10.0) -> list[float]:
    return [x, y, x + side, y + side]


@pytest.mark.parametrize(("name", "first", "first_scores", "second", "second_scores", "kept_first", "kept_second"), [
    ("overlapping finds are one tile, the better one's", [box(0)], [0.9], [box(1)], [0.8], [True], [False]),
    ("the second look's when it scores more", [box(0)], [0.7], [box(1)], [0.8], [False], [True]),
    ("the first look's on a tie", [box(0)], [0.8], [box(1)], [0.8], [True], [False]),
    ("disjoint finds are both kept", [box(0)], [0.9], [box(50)], [0.6], [True], [True]),
    ("finds overlapping under the IoU threshold are both kept", [box(0)], [0.9], [box(5)], [0.6], [True], [True]),
    ("each look's finds keep their order and indices", [box(0), box(20), box(40)], [0.6, 0.9, 0.7],
     [box(100), box(21), box(60)], [0.8, 0.5, 0.95], [True, True, True], [True, False, True]),
    ("no second find", [box(0), box(20)], [0.9, 0.2], [], [], [True, True], []),
    ("no first find", [], [], [box(0)], [0.9], [], [True]),
])
def test_the_union_keeps_one_box_a_tile_and_each_find_in_its_place(name, first, first_scores, second, second_scores,
                                                                     kept_first, kept_second):
    mine, theirs = union_of_looks(np.array(first, float).reshape(-1, 4), np.array(first_scores, float),
                                  np.array(second, float).reshape(-1, 4), np.array(second_scores, float), 0.5)
    assert (mine.tolist(), theirs.tolist()) == (kept_first, kept_second), name


def scores(sure: int, score: float = 0.9, unsure: int = 3) -> np.ndarray:
    return np.array([score] * sure + [0.35] * unsure)


@pytest.mark.parametrize(("name", "found", "stage", "runs"), [
    ("no sure find: clutter or an empty table", scores(0), SecondLook(), False),
    ("one sure find", scores(1), SecondLook(), True),
    ("twelve sure finds: a hand short", scores(12), SecondLook(), True),
    ("a hand's thirteen", scores(13), SecondLook(), False),
    ("fourteen", scores(14), SecondLook(), False),
    ("fewer than `fewest`", scores(2), SecondLook(fewest=3), False),
    ("`fewest` 0 runs it with none", scores(0), SecondLook(fewest=0), True),
    ("a full hand found unsurely", scores(14, 0.6), SecondLook(mean_below=0.7), True),
    ("a full hand found surely", scores(14, 0.8), SecondLook(mean_below=0.7), False),
])
def test_the_second_look_runs_only_where_the_first_suggests_misses(name, found, stage, runs):
    assert suggests_misses(found, CONF, stage) == runs, name


def test_a_second_localisers_scores_are_mapped_so_its_threshold_falls_on_the_first_ones():
    mapped = rescaled(np.array([0.0, 0.2, 0.4, 0.7, 1.0]), 0.4, 0.55)
    assert mapped.tolist() == pytest.approx([0.0, 0.275, 0.55, 0.775, 1.0])
    assert rescaled(mapped, 0.55, 0.4).tolist() == pytest.approx([0.0, 0.2, 0.4, 0.7, 1.0])


ROW = [box(50 * k, 100, 40) for k in range(13)]  # a hand of thirteen in a row
MISSED = 6  # the first localiser misses the seventh


def first_finds(image, conf, fill):
    boxes = [b for k, b in enumerate(ROW) if k != MISSED] if fill == 1 else []
    return np.array(boxes, float).reshape(-1, 4), np.full(len(boxes), 0.9), ["face"] * len(boxes)


def second_finds(image, conf, fill):
    return np.array(ROW, float), np.full(len(ROW), 0.45), ["face"] * len(ROW)


class NamingFake(FakeRecogniser):
    """Names every crop the first code, surely: the classifier is not what is tested."""

    def read_crops(self, crops: np.ndarray, sides: np.ndarray | None = None) -> np.ndarray:
        return np.tile([0.97, 0.01, 0.01, 0.01], (len(crops), 1))


def with_second(config: RecogniserConfig = SETTINGS) -> NamingFake:
    """A recogniser whose first localiser misses one tile of the row and whose second, sure at 0.4, finds all."""
    config = config.changed(second_look={"conf": 0.4})
    first = NamingFake(None, 416, ["face", "back"], None, 64, ["1m", "2m", "3m", "4m"], config, finds=first_finds)
    return replace(first, second=replace(first, finds=second_finds, calls=[]))


PHOTO = np.full((400, 700, 3), 200, np.uint8)


def test_a_second_localiser_adds_the_tile_the_first_missed_and_the_first_looks_finds_keep_their_places():
    recogniser = with_second()
    look = recogniser.find(PHOTO)
    assert look.second_look and len(look.found) == len(ROW)
    assert look.found.boxes[:12].tolist() == [b for k, b in enumerate(ROW) if k != MISSED]  # first, in order
    assert look.found.boxes[12].tolist() == ROW[MISSED]  # then the second look's addition
    # its 0.45, sure at its own 0.4, counts as sure; it read down to what maps onto the floor (unsure 0.3)
    assert look.found.scores[12] == pytest.approx(CONF + 0.05 * (1 - CONF) / 0.6)
    assert recogniser.second.calls == [(pytest.approx(0.4 * 0.3 / CONF), 1.0)]
    assert len(recogniser(PHOTO).tiles) == 13
    assert len(recogniser.with_config(recogniser.config.without("second_look"))(PHOTO).tiles) == 12


def test_a_full_hand_found_by_the_first_look_takes_no_second_look():
    recogniser = with_second()
    full = replace(recogniser, finds=second_finds, second=replace(recogniser.second, calls=[]))
    look = full.find(PHOTO)
    assert not look.second_look and full.second.calls == [] and len(look.found) == 13


@pytest.mark.parametrize(("name", "photo", "leave_small", "runs"), [
    ("tiles of the usual size (24 px at 416)", PHOTO, True, True),
    ("small tiles (8 px at 416) left to the closer look", np.full((1200, 2000, 3), 200, np.uint8), True, False),
    ("small tiles, `leave_small` off", np.full((1200, 2000, 3), 200, np.uint8), False, True),
])
def test_leave_small_keeps_the_second_look_off_where_the_closer_look_reads_the_tiles(name, photo, leave_small, runs):
    recogniser = with_second()
    recogniser = recogniser.with_config(recogniser.config.changed(second_look={"leave_small": leave_small}))
    assert recogniser.find(photo).second_look == runs, name
    assert bool(recogniser.second.calls) == runs, name


def test_switched_off_or_with_no_second_localiser_the_look_is_the_first_ones():
    recogniser = with_second()
    off = recogniser.with_config(recogniser.config.without("second_look"))
    assert not off.find(PHOTO).second_look and off.second.calls == []
    alone = replace(recogniser, second=None)
    assert not alone.find(PHOTO).second_look and len(alone.find(PHOTO).found) == 12
    assert fake_recogniser(first_finds).find(PHOTO).second_look is False


needs_models = pytest.mark.model


def models_folder(folder, **stage):
    """The shipped models, with the shipped (first) localiser also as the second look's (`localiser-second.onnx`)."""
    folder.mkdir()
    meta = json.loads((MODELS_DIR / "vision.json").read_text(encoding="utf-8"))
    for name in set(VisionFile.read(MODELS_DIR).files()) - {"localiser-second.onnx"}:  # the small faces' too
        (folder / name).symlink_to(MODELS_DIR / name)
    (folder / "localiser-second.onnx").symlink_to(MODELS_DIR / meta["localiser"]["file"])
    meta["recogniser"]["second_look"] |= {"localiser": "localiser-second.onnx", **stage}
    (folder / "vision.json").write_text(json.dumps(meta), encoding="utf-8")
    return folder


def test_a_second_localiser_not_there_is_refused_naming_its_setting(tmp_path):
    folder = models_folder(tmp_path / "m", localiser="missing.onnx")
    with pytest.raises(ValueError, match=r"vision.json: recogniser.second_look.localiser: no file 'missing.onnx'"):
        Recogniser.load(folder)


@needs_models
def test_the_shipped_models_look_twice_and_the_same_localiser_twice_changes_no_reading(tmp_path):
    assert shipped().second is not None and shipped().config.second_look.leave_small
    assert VisionFile.read(MODELS_DIR).files() == ("localiser.onnx", "classifier.onnx", "localiser-second.onnx",
                                                   "classifier-small.onnx")
    photo_path = sorted((SHARED / "chinese-mahjong-detection/test/images").glob("*.jpg"))[0]
    photo = load_photo(photo_path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    folder = models_folder(tmp_path / "twice", fewest=0, below=1000)
    twice = Recogniser.load(folder)
    look = twice.find(photo)
    assert look.second_look and twice.second is not None
    one_look = shipped().with_config(shipped().config.without("second_look"))
    assert twice(photo).tiles == one_look(photo).tiles  # every find of the second look ties with the first's
    assert not load_recogniser(folder, None, ["second_look"]).find(photo).second_look  # `fanshot eval --without`
