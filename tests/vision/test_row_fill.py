"""Row filling in the `Recogniser`: which finds the localiser is unsure of are kept, for standing in a row of sure
tiles, and that the zoom pass is steered by the sure ones alone."""

import numpy as np
import pytest

from fanshot.vision.config import RecogniserConfig
from fanshot.vision.geometry import in_sure_rows
from fanshot.vision.recogniser import Detections
from tests.vision.fakes import fake_recogniser, nothing

CONF = 0.55
SETTINGS = RecogniserConfig(conf=CONF)
ROW_FILL_CODE_P = SETTINGS.row_fill.code_p


def tile(x: float, y: float = 100.0, width: float = 40.0) -> list[float]:
    return [x, y, x + width, y + 1.3 * width]


def probs(best: float, count: int) -> np.ndarray:
    """Class probabilities whose best code has p `best`."""
    p = np.full((count, 4), (1 - best) / 3)
    p[:, 0] = best
    return p


def kept(boxes: list[list[float]], scores: list[float], kinds: list[str] | None = None,
         best: float = 0.99, config: RecogniserConfig = SETTINGS) -> list[int]:
    """Indices of the finds `keep_finds` keeps (each box's x1 names it)."""
    kinds = kinds or ["face"] * len(boxes)
    found = Detections(np.array(boxes), np.array(scores), kinds, probs(best, len(boxes)))
    return [int(box[0]) for box in fake_recogniser(None, config).keep_finds(found).boxes]


SURE = [tile(0), tile(42), tile(126), tile(168)]  # a row of four with a gap at x = 84


@pytest.mark.parametrize(("name", "unsure", "kinds_of_it", "stays"), [
    ("fills the gap in a row of sure tiles", tile(84), "face", True),
    ("stands alone, far from any row", tile(84, y=600), "face", False),
    ("is a third smaller than its row, centred on it", tile(84, y=107.8, width=28), "face", False),
    ("is a back: the classifier cannot vouch for it", tile(84), "back", False),
    ("lies astride two sure tiles", tile(21), "face", False),
])
def test_an_unsure_find_is_kept_only_where_it_fills_a_row(name, unsure, kinds_of_it, stays):
    boxes = [*SURE, unsure]
    kinds = ["face"] * len(SURE) + [kinds_of_it]
    expected = sorted([0, 42, 126, 168] + ([int(unsure[0])] if stays else []))
    assert sorted(kept(boxes, [0.9] * len(SURE) + [0.35], kinds)) == expected, name


def test_an_unsure_find_the_classifier_cannot_name_is_left_out():
    assert 84 not in kept([*SURE, tile(84)], [0.9] * 4 + [0.35], best=ROW_FILL_CODE_P - 0.1)
    assert 84 in kept([*SURE, tile(84)], [0.9] * 4 + [0.35], best=ROW_FILL_CODE_P + 0.1)


def test_unsure_finds_do_not_vouch_for_each_other():
    row = [tile(42 * k) for k in range(5)]
    assert kept(row, [0.9, 0.35, 0.35, 0.35, 0.35]) == [0]  # one sure mate is not a row
    assert in_sure_rows(np.array(row), np.array([True, True, False, False, False]), SETTINGS).all()
    assert not in_sure_rows(np.zeros((0, 4)), np.zeros(0, dtype=bool), SETTINGS).any()


def test_row_filling_switched_off_keeps_no_unsure_find():
    assert 84 in kept([*SURE, tile(84)], [0.9] * 4 + [0.35])
    assert kept([*SURE, tile(84)], [0.9] * 4 + [0.35], config=SETTINGS.without("row_fill")) == [0, 42, 126, 168]


def test_with_no_sure_find_no_unsure_one_is_kept():  # the lone-tile rule is gone (models/EXPERIMENTS.md)
    assert kept([tile(20, y=20, width=120)], [0.4]) == []  # a big tile-shaped face, named surely


def test_the_zoom_pass_counts_only_sure_finds():
    # six finds, two of them unsure: fewer than `zoom_out.below` sure ones, so the zoomed-out look runs
    assert SETTINGS.zoom_out.below == 6
    boxes = np.array([tile(42 * k) for k in range(6)])
    scores = np.array([0.9, 0.9, 0.9, 0.9, 0.35, 0.35])

    def finds(image, conf, fill):
        return (boxes, scores, ["face"] * 6) if fill == 1 else nothing()

    recogniser = fake_recogniser(finds, SETTINGS)
    look = recogniser.find(np.zeros((400, 400, 3), np.uint8))
    # one localiser run decodes down to the faint finds that may guide the closer look; the floor decides the finds
    assert recogniser.calls == [(SETTINGS.zoom_in.guide_floor, 1.0), (CONF, 0.2)]
    assert look.zoom == "single" and len(look.found) == 6
    no_unsure = fake_recogniser(finds, SETTINGS.without("row_fill"))
    assert len(no_unsure.find(np.zeros((400, 400, 3), np.uint8)).found) == 4  # no rule keeps them: sure finds only
