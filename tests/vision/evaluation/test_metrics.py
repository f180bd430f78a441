import numpy as np
import pytest

from fanshot.vision.evaluation.metrics import (
    COCO_THRESHOLDS,
    Boxes,
    average_precision,
    class_ap,
    mean_ap,
    multiset_scores,
    scores_by_width,
    stage_scores,
    width_bin,
)


def test_multiset_scores_are_micro_averaged():
    scores = multiset_scores([(["1m", "1m", "2m"], ["1m", "2m", "3m"]), (["5z"], ["5z"])])
    assert scores["precision"] == pytest.approx(3 / 4)
    assert scores["recall"] == pytest.approx(3 / 4)
    assert scores["f1"] == pytest.approx(3 / 4)
    assert multiset_scores([]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_average_precision_all_point_interpolation():
    # Hits, miss, hit over 2 true boxes: precision 1, 1/2, 2/3 at recall 1/2, 1/2, 1.
    assert average_precision(np.array([0.5, 0.5, 1.0]), np.array([1.0, 0.5, 2 / 3])) == pytest.approx(
        0.5 * 1 + 0.5 * 2 / 3)


def test_class_ap_matches_each_true_box_once():
    truth = [Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10.0]]), ["1m", "1m"])]
    found = [Boxes(np.array([[0, 0, 10, 10], [0, 0, 10, 10], [20, 0, 30, 10.0]]), ["1m", "1m", "1m"],
                   np.array([0.9, 0.8, 0.7]))]  # the second is a duplicate: a false positive
    assert class_ap(found, truth, "1m", 0.5) == pytest.approx(0.5 + 0.5 * 2 / 3)


def test_mean_ap_over_classes_and_coco_thresholds():
    truth = [Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10.0]]), ["1m", "2p"])]
    exact = [Boxes(truth[0].boxes, ["1m", "2p"], np.array([0.9, 0.9]))]
    assert mean_ap(exact, truth) == 1.0
    # IoU 0.72 passes thresholds 0.50-0.70: 5 of 10; a wrong class scores 0 for 2p.
    shifted = [Boxes(np.array([[0, 0, 10, 7.2], [20, 0, 30, 10.0]]), ["1m", "3s"], np.array([0.9, 0.9]))]
    assert mean_ap(shifted, truth, COCO_THRESHOLDS) == pytest.approx((0.5 + 0.0) / 2)
    assert mean_ap(shifted, truth) == pytest.approx(0.5)


def test_stage_scores_split_localiser_misses_from_misread_codes():
    truth = [Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10.0]]), ["1m", "2p", "3s"]),
             Boxes(np.array([[0, 0, 10, 10.0]]), ["5z"])]
    found = [Boxes(np.array([[0, 0, 10, 10], [0, 0, 10, 10], [20, 0, 30, 10], [60, 0, 70, 10.0]]),
                   ["1m", "1m", "9p", "3s"], np.array([0.9, 0.8, 0.7, 0.6])),  # a duplicate, a misread, a stray
             Boxes(np.zeros((0, 4)), [], np.zeros(0))]  # the second photo's tile is missed
    scores = stage_scores(found, truth)
    assert scores["localiser_precision"] == pytest.approx(2 / 4)
    assert scores["localiser_recall"] == pytest.approx(2 / 4)
    assert scores["localiser_f1"] == pytest.approx(0.5)
    assert scores["code_accuracy_on_matched"] == pytest.approx(1 / 2)  # 1m right, 2p read as 9p
    assert (scores["backs"], scores["backs_predicted"], scores["backs_found"]) == (0, 0, 0)
    empty = stage_scores([], [])
    assert empty == {"localiser_precision": 0.0, "localiser_recall": 0.0, "localiser_f1": 0.0,
                     "code_accuracy_on_matched": 0.0, "backs": 0, "backs_predicted": 0, "backs_found": 0}


def test_stage_scores_count_backs_found_missed_and_false():
    truth = [Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10.0]]), ["back", "back", "1m"])]
    found = [Boxes(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10.0]]), ["back", "2m", "back"],
                   np.array([0.9, 0.8, 0.7]))]  # one back found, one read as a face, one face read as a back
    scores = stage_scores(found, truth)
    assert (scores["backs"], scores["backs_predicted"], scores["backs_found"]) == (2, 2, 1)


@pytest.mark.parametrize(("width", "name"), [(5, "<20"), (19.9, "<20"), (20, "20-30"), (29.9, "20-30"),
                                             (30, "30-50"), (49.9, "30-50"), (50, "50+"), (4000, "50+")])
def test_a_tile_falls_in_the_bin_of_its_width(width, name):
    assert width_bin(width) == name


def test_scores_by_width_bin_true_tiles_and_finds_by_their_own_width_at_full_resolution():
    # read at half size: full-resolution widths are twice the boxes' shorter sides
    truth = Boxes(np.array([[0, 0, 8, 12], [20, 0, 32, 16], [40, 0, 70, 40]], float), ["1m", "2m", "3m"])
    found = Boxes(np.array([[0, 0, 8, 12], [20, 0, 32, 16], [40, 0, 70, 40], [100, 0, 140, 50]], float),
                  ["1m", "9m", "3m", "4m"], np.array([0.9, 0.8, 0.7, 0.6]))  # 2m misread, a false 4m
    report = scores_by_width([found], [truth], [2.0])
    assert report["<20"] == {"tiles": 1, "found": 1, "precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert (report["20-30"]["tiles"], report["20-30"]["recall"], report["20-30"]["precision"]) == (1, 0.0, 0.0)
    assert report["30-50"] == {"tiles": 0, "found": 0, "precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert (report["50+"]["tiles"], report["50+"]["found"]) == (1, 2)  # the 3m (60 px) and the false 4m (80 px)
    assert report["50+"]["precision"] == 0.5 and report["50+"]["recall"] == 1.0
