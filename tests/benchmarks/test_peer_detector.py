"""benchmarks/peer_detector.py: the peer's class-name mapping and the 34-code subset filtering (pure functions;
neither torch nor the mahjong-detector package is needed)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.peer_detector import (
    PEER_NAMES,
    MappingError,
    above,
    best_threshold,
    in_subset,
    mapping_check,
    peer_codes,
    subset_boxes,
    tally_subset,
    true_codes_under,
)
from fanshot.scoring.tiles import PLAYING_TILES
from fanshot.vision.evaluation.evaluate import Tally
from fanshot.vision.evaluation.metrics import Boxes

# mahjong_detector.predict.CLASS_NAMES of version 0.0.6, in its order.
PEER_CLASSES_0_0_6 = [
    "1m", "1p", "1s", "2m", "2p", "2s", "3m", "3p", "3s", "4m", "4p", "4s", "5m", "5p", "5s", "6m", "6p", "6s",
    "7m", "7p", "7s", "8m", "8p", "8s", "9m", "9p", "9s", "chun", "haku", "hatsu", "nan", "pe", "sha", "tou",
]


def test_the_peer_classes_map_one_to_one_onto_the_34_playing_tiles():
    codes = peer_codes(PEER_CLASSES_0_0_6)
    assert sorted(codes) == sorted(PLAYING_TILES)
    named = dict(zip(PEER_CLASSES_0_0_6, codes, strict=True))
    assert [named[name] for name in ("tou", "nan", "sha", "pe", "haku", "hatsu", "chun")] == [
        "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert named["1m"] == "1m" and named["5p"] == "5p" and named["9s"] == "9s"
    assert set(PEER_NAMES.values()) == set(PLAYING_TILES)


@pytest.mark.parametrize("classes, message", [
    (PEER_CLASSES_0_0_6 + ["0m"], "no entry"),                        # a red five class: not guessed
    (PEER_CLASSES_0_0_6[:-1] + ["ton"], "no entry"),                  # another romanisation
    (PEER_CLASSES_0_0_6[:-1], "missing \\['1z'\\]"),                  # a class short
    (PEER_CLASSES_0_0_6[:-1] + ["sha"], "same code"),                 # two classes on one code
])
def test_an_unmappable_class_list_fails_loudly(classes, message):
    with pytest.raises(MappingError, match=message):
        peer_codes(classes)


def test_the_subset_drops_flowers_and_backs_and_keeps_repeats():
    assert in_subset(["1f", "1m", "back", "1m", "7z", "8f"]) == ["1m", "1m", "7z"]


def test_subset_boxes_keep_boxes_codes_and_scores_together():
    boxes = np.arange(16, dtype=float).reshape(4, 4)
    found = subset_boxes(Boxes(boxes, ["5f", "2p", "back", "3z"], np.array([0.9, 0.8, 0.7, 0.6])))
    assert found.classes == ["2p", "3z"]
    np.testing.assert_array_equal(found.boxes, boxes[[1, 3]])
    np.testing.assert_array_equal(found.scores, [0.8, 0.6])
    truth = subset_boxes(Boxes(boxes[:2], ["1f", "9s"]))
    assert truth.classes == ["9s"] and truth.scores is None and truth.boxes.shape == (1, 4)
    assert subset_boxes(Boxes(np.zeros((0, 4)), [], np.zeros(0))).boxes.shape == (0, 4)


def test_above_is_strict_like_the_peer():
    found = above(Boxes(np.zeros((3, 4)), ["1m", "2m", "3m"], np.array([0.5, 0.51, 0.2])), 0.5)
    assert found.classes == ["2m"]


def test_both_systems_are_scored_on_the_subset_only():
    tally = Tally()
    # flowers and backs on either side do not count: this photo is exact on the subset
    tally_subset(tally, ["1m", "2m", "3f", "back"], 10.0, ["2m", "1m", "4f"])
    tally_subset(tally, ["5z"], 20.0, ["5z", "6z"])
    summary = tally.summary()
    assert summary["exact_match"] == 0.5
    assert summary["precision"] == 1.0 and summary["recall"] == pytest.approx(3 / 4)
    assert summary["median_ms"] == 15.0


def test_best_threshold_takes_the_lower_on_a_tie():
    assert best_threshold({0.5: 0.3, 0.2: 0.4, 0.3: 0.4}) == 0.2


def test_mapping_check_counts_where_predicted_codes_land():
    truth = Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10.0]]), ["2z", "6z", "6z"])
    found = Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [41, 0, 51, 10], [100, 0, 110, 10.0]]),
                  ["2z", "2z", "2z", "1z"], np.ones(4))
    pairs = true_codes_under(found, truth)
    assert pairs == [("2z", "2z"), ("2z", "6z"), ("2z", "6z")]  # the box on nothing is left out
    assert mapping_check(pairs) == {"2z": {"matched": 3, "same_code": 1, "plurality": "6z"}}
    assert mapping_check([("1z", "1z"), ("1z", "3z")])["1z"]["plurality"] == "1z"  # a tie favours the mapping


def test_the_module_loads_without_torch_or_the_peer_package():
    root = Path(__file__).resolve().parents[2]
    code = ("import sys, benchmarks.peer_detector; "
            "assert not {'torch', 'ultralytics', 'mahjong_detector'} & set(sys.modules), sys.modules.keys()")
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)
