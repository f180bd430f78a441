"""Row filling in `vision.recognize`: which finds the localiser is unsure of are kept, for standing in a row of sure
tiles or as a close-up's lone tile, and that the zoom pass is steered by the sure ones alone."""

import numpy as np
import pytest

import fanshot.vision.recognize
from fanshot.vision.recognize import (
    GUIDE_FLOOR,
    LONE_CODE_P,
    LONE_MIN_SHARE,
    ROW_FILL_CODE_P,
    ZOOM_OUT_BELOW,
    find_tiles,
    in_sure_rows,
    keep_finds,
)

CONF = 0.55
PHOTO = (1000, 1000)  # a hand's tiles, 40 px wide, are 4 % of its side


def tile(x: float, y: float = 100.0, width: float = 40.0) -> list[float]:
    return [x, y, x + width, y + 1.3 * width]


def probs(best: float, count: int) -> np.ndarray:
    """Class probabilities whose best code has p `best`."""
    p = np.full((count, 4), (1 - best) / 3)
    p[:, 0] = best
    return p


def kept(boxes: list[list[float]], scores: list[float], kinds: list[str] | None = None,
         best: float = 0.99, photo: tuple[int, int] = PHOTO) -> list[int]:
    """Indices of the finds `keep_finds` keeps (each box's x1 names it)."""
    kinds = kinds or ["face"] * len(boxes)
    out = keep_finds(np.array(boxes), np.array(scores), kinds, probs(best, len(boxes)), CONF, *photo)[0]
    return [int(box[0]) for box in out]


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
    assert in_sure_rows(np.array(row), np.array([True, True, False, False, False])).all()
    assert not in_sure_rows(np.zeros((0, 4)), np.zeros(0, dtype=bool)).any()


CLOSE_UP = (200, 150)  # a photo in which a 40 × 52 px tile has a side (√area) 0.26 of the photo's


@pytest.mark.parametrize(("name", "box", "score", "kind", "best", "stays"), [
    ("a big tile named surely", tile(20, y=20), 0.4, "face", 0.99, True),
    ("a big tile named unsurely", tile(20, y=20), 0.4, "face", LONE_CODE_P - 0.05, False),
    ("a back: the classifier cannot vouch for it", tile(20, y=20), 0.4, "back", 0.99, False),
    ("too small for a close-up", tile(20, y=20, width=40 * (LONE_MIN_SHARE - 0.05) / 0.26), 0.4, "face", 0.99, False),
    ("a band, not tile-shaped", [20, 20, 180, 70], 0.4, "face", 0.99, False),
])
def test_with_no_sure_find_a_close_ups_lone_tile_is_kept(name, box, score, kind, best, stays):
    assert kept([box], [score], [kind], best, CLOSE_UP) == ([20] if stays else []), name


def test_a_lone_tile_needs_a_photo_with_no_sure_find():
    assert kept([tile(20, y=20), tile(100, y=60)], [0.9, 0.4], photo=CLOSE_UP) == [20]


def test_the_zoom_pass_counts_only_sure_finds(monkeypatch):
    # six finds, two of them unsure: fewer than ZOOM_OUT_BELOW sure ones, so the zoomed-out look runs
    assert ZOOM_OUT_BELOW == 6
    boxes = np.array([tile(42 * k) for k in range(6)])
    scores = np.array([0.9, 0.9, 0.9, 0.9, 0.35, 0.35])
    calls = []

    def localise(image, models, conf, fill=1.0):
        calls.append((conf, fill))
        keep = scores >= conf
        return (boxes[keep], scores[keep], ["face"] * int(keep.sum())) if fill == 1 else (np.zeros((0, 4)),
                                                                                           np.zeros(0), [])

    monkeypatch.setattr(fanshot.vision.recognize, "localise", localise)
    models = type("Models", (), {"localiser_size": 416})()
    found, look = find_tiles(np.zeros((400, 400, 3), np.uint8), models, CONF, floor=0.3)
    # one localiser run decodes down to the faint finds that may guide the closer look; the floor decides the finds
    assert calls == [(GUIDE_FLOOR, 1.0), (CONF, 0.2)] and look == "single" and len(found) == 6
    calls.clear()
    found, _ = find_tiles(np.zeros((400, 400, 3), np.uint8), models, CONF)
    assert calls[0] == (GUIDE_FLOOR, 1.0) and len(found) == 4  # no floor: only sure finds, as before
