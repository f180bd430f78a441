"""The zoom pass of `vision.recognize`: when it looks again, where, and how the two looks merge."""

from pathlib import Path

import numpy as np
import pytest

from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recognize import (
    GUIDE_FLOOR,
    ZOOM_IN_CONFIRM,
    ZOOM_IN_GUIDES,
    ZOOM_IN_TARGET,
    Found,
    close_up_tiles,
    cut_at_edge,
    find_tiles,
    guides,
    inside,
    load_models,
    mostly_within,
    recognize,
    upright_look,
    zoom_window,
)

SHARED = Path(__file__).resolve().parents[3] / "shared/data"
needs_models = pytest.mark.model  # runs the shipped models (models/ is in the repository)


def row(x0: float, y0: float, side: float, count: int) -> np.ndarray:
    return np.array([[x0 + k * side, y0, x0 + (k + 1) * side, y0 + side * 1.3] for k in range(count)], float)


@pytest.mark.parametrize(("side", "zooms"), [(48.0, False), (30.0, False), (12.0, True), (6.0, True)])
def test_only_tiles_small_in_the_localisers_input_are_looked_at_again(side, zooms):
    # a 1600 px photo reaches the 416 px localiser at 0.26 scale: 48 px tiles are 12.5 px there
    boxes = row(400, 500, side * 1600 / 416, 9)
    assert (zoom_window(boxes, 1600, 1200, 416) is not None) == zooms
    assert zoom_window(np.zeros((0, 4)), 1600, 1200, 416) is None


def test_the_window_is_centred_on_the_tiles_and_brings_them_to_the_target_size():
    boxes = row(700, 600, 48, 5)  # 12.5 px in the input
    x1, y1, x2, y2 = zoom_window(boxes, 1600, 1200, 416)
    assert x1 <= boxes[:, 0].min() and x2 >= boxes[:, 2].max() and y1 <= boxes[:, 1].min() and y2 >= boxes[:, 3].max()
    side_in_window = np.sqrt(48 * 48 * 1.3) * 416 / max(x2 - x1, y2 - y1)
    assert side_in_window == pytest.approx(ZOOM_IN_TARGET, rel=0.05)
    sliver = zoom_window(np.array([[500.0, 500, 500.2, 500.2]] * 3), 1600, 1200, 416)
    assert sliver[2] - sliver[0] >= 64 and sliver[3] - sliver[1] >= 64  # never an empty crop
    corner = zoom_window(row(0, 0, 30, 3), 1600, 1200, 416)  # shifted inside the photo, not past its edge
    assert corner[0] == 0 and corner[1] == 0
    assert zoom_window(np.array([[100.0, 0, 101, 2]] * 6), 3000, 2, 416) is None  # a strip 2 px tall: no window


@needs_models
def test_a_strip_of_noise_yields_no_tile():
    noise = np.random.default_rng(0).integers(0, 256, (2, 3000, 3), dtype=np.uint8)
    assert recognize(noise, load_models())["tiles"] == []


def test_tiles_cut_by_an_inner_window_edge_are_dropped_not_those_at_the_photos_edge():
    window = (100, 0, 500, 400)  # its left and bottom edges are inside the photo, its top is the photo's
    boxes = np.array([[0.5, 50, 40, 90], [50, 0, 90, 30], [200, 370, 240, 399.5], [100, 100, 150, 150]])
    assert cut_at_edge(boxes, window, 800, 600).tolist() == [True, False, True, False]
    assert inside(np.array([[120.0, 10, 160, 60], [90, 10, 130, 60]]), window).tolist() == [True, False]


def test_a_tile_found_zoomed_out_replaces_the_fragments_found_inside_it():
    fragments = np.array([[10.0, 10, 60, 60], [300, 300, 340, 350]])
    whole = np.array([[0.0, 0, 200, 260]])
    assert mostly_within(fragments, whole).tolist() == [True, False]
    merged = Found(fragments[1:], np.array([0.6]), ["face"]).merged(Found(whole, np.array([0.9]), ["face"]))
    assert len(merged) == 2 and merged.scores.tolist() == pytest.approx([0.9, 0.6])


@needs_models
def test_a_tile_filling_the_frame_is_found_by_the_zoom_pass():
    photo = load_photo((SHARED / "web-tiles-camerash/images/1.jpg").read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    models = load_models()
    single, look = find_tiles(photo, models, models.conf, zoom=False)
    assert (len(single), look) == (0, "single")
    zoomed, look = find_tiles(photo, models, models.conf)
    assert look == "out" and len(zoomed) == 1
    x1, y1, x2, y2 = zoomed.boxes[0]
    assert (x2 - x1) * (y2 - y1) > 0.5 * photo.shape[0] * photo.shape[1]


@needs_models
def test_a_photo_with_tiles_of_the_usual_size_takes_a_single_look():
    photo_path = sorted((SHARED / "chinese-mahjong-detection/test/images").glob("*.jpg"))[0]
    photo = load_photo(photo_path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    models = load_models()
    found, look = find_tiles(photo, models, models.conf)
    assert look == "single" and len(found) >= 5


@pytest.mark.parametrize(("box", "close_up"), [
    ([0, 0, 240, 320], True),  # one tile filling the frame
    ([10, 10, 200, 260], True),
    ([0, 0, 96, 128], True),  # one of two or three tiles: side 0.4 of the photo's
    ([0, 0, 128, 96], True),  # the same lying sideways
    ([0, 0, 240, 80], False),  # a band across the photo (3 to 1), as in a stretched crop
    ([20, 20, 80, 300], False),
    ([100, 100, 140, 150], False),  # a hand's tile
])
def test_the_zoomed_out_look_keeps_only_the_tiles_of_a_close_up(box, close_up):
    assert close_up_tiles(np.array([box], dtype=float), 240, 320).tolist() == [close_up]


def test_few_small_tiles_with_no_frame_filling_one_are_still_looked_at_closer(monkeypatch):
    import fanshot.vision.recognize

    small = row(700, 600, 10, 3)  # three tiles of a 1600×1200 photo, 2.6 px in the localiser's input
    looks = []

    def localise(image, models, conf, fill=1.0):
        looks.append(fill)
        if fill < 1:  # zoomed out: nothing fills the frame
            return np.zeros((0, 4)), np.zeros(0), []
        boxes = small if len(looks) == 1 else row(5, 5, 40, 3)
        return boxes, np.full(len(boxes), 0.9), ["face"] * len(boxes)

    monkeypatch.setattr(fanshot.vision.recognize, "localise", localise)
    models = type("Models", (), {"localiser_size": 416})()
    found, look = find_tiles(np.zeros((1200, 1600, 3), np.uint8), models, 0.5)
    assert look == "in" and looks[1] < 1 and len(looks) == 3 and len(found) == 3


@pytest.mark.parametrize(("unsure", "look"), [(ZOOM_IN_GUIDES, "in"), (ZOOM_IN_GUIDES - 1, "single")])
def test_with_no_sure_tile_enough_unsure_finds_place_the_closer_look(monkeypatch, unsure, look):
    import fanshot.vision.recognize

    faint = row(700, 600, 10, unsure)  # tiny tiles the localiser scores under the threshold, over the floor

    def localise(image, models, conf, fill=1.0):
        if fill < 1:
            return np.zeros((0, 4)), np.zeros(0), []
        if image.shape[1] == 1600:
            return faint, np.full(len(faint), 0.35), ["face"] * len(faint)
        closer = row(5, 5, 20, unsure)  # within the window, none cut by its edge
        return closer, np.full(len(closer), 0.9), ["face"] * len(closer)

    monkeypatch.setattr(fanshot.vision.recognize, "localise", localise)
    models = type("Models", (), {"localiser_size": 416})()
    found, looked = find_tiles(np.zeros((1200, 1600, 3), np.uint8), models, 0.5, floor=0.3)
    assert looked == look
    assert found.scores.tolist() == ([0.9] * unsure if look == "in" else [0.35] * unsure)


@pytest.mark.parametrize(("scores", "chosen"), [
    ([0.9, 0.2, 0.4], [0.9]),  # a sure find: the sure finds alone
    ([0.35] * ZOOM_IN_GUIDES + [0.15], [0.35] * ZOOM_IN_GUIDES),  # none sure: enough unsure ones
    ([0.35] * (ZOOM_IN_GUIDES - 1) + [0.15], [0.35] * (ZOOM_IN_GUIDES - 1) + [0.15]),  # else the faint ones too
    ([0.35] * (ZOOM_IN_GUIDES - 2) + [0.15], []),  # too few of any
])
def test_guides_are_the_surest_finds_there_are_enough_of(scores, chosen):
    found = Found(row(0, 0, 10, len(scores)), np.array(scores), ["face"] * len(scores))
    assert guides(found, 0.5, 0.3).scores.tolist() == chosen


def faint_then_closer(faint: np.ndarray, closer_sure: int):
    """A fake localiser: the photo's `faint` finds at 0.15, zoomed out nothing, and in any window `closer_sure`
    tiles at 0.9 beside one at 0.35."""
    def localise(image, models, conf, fill=1.0):
        if fill < 1:
            return np.zeros((0, 4)), np.zeros(0), []
        if image.shape[1] == 1600:
            boxes, scores = faint, np.full(len(faint), 0.15)
        else:
            boxes = row(5, 5, 20, closer_sure + 1)
            scores = np.array([0.9] * closer_sure + [0.35])
        keep = scores >= conf
        return boxes[keep], scores[keep], ["face"] * int(keep.sum())
    return localise


@pytest.mark.parametrize(("faint", "look"), [(ZOOM_IN_GUIDES, "in"), (ZOOM_IN_GUIDES - 1, "single")])
def test_with_too_few_unsure_finds_enough_faint_ones_place_the_closer_look(monkeypatch, faint, look):
    import fanshot.vision.recognize

    looks = faint_then_closer(row(700, 600, 10, faint), ZOOM_IN_CONFIRM)
    monkeypatch.setattr(fanshot.vision.recognize, "localise", looks)
    models = type("Models", (), {"localiser_size": 416})()
    found, looked = find_tiles(np.zeros((1200, 1600, 3), np.uint8), models, 0.5, floor=0.3)
    assert looked == look
    assert found.scores.tolist() == ([0.9] * ZOOM_IN_CONFIRM + [0.35] if look == "in" else [])  # never a faint find


@pytest.mark.parametrize(("closer_sure", "look"), [(ZOOM_IN_CONFIRM, "in"), (ZOOM_IN_CONFIRM - 1, "single")])
def test_a_closer_look_no_sure_find_placed_must_find_enough_sure_tiles(monkeypatch, closer_sure, look):
    import fanshot.vision.recognize

    faint = row(700, 600, 10, ZOOM_IN_GUIDES)
    monkeypatch.setattr(fanshot.vision.recognize, "localise", faint_then_closer(faint, closer_sure))
    models = type("Models", (), {"localiser_size": 416})()
    found, looked = find_tiles(np.zeros((1200, 1600, 3), np.uint8), models, 0.5, floor=0.3)
    assert looked == look and (len(found) > 0) == (look == "in")


@pytest.mark.parametrize(("turned", "column", "width"), [(True, True, 1600), (False, False, 1600), (False, True, 63)])
def test_faint_finds_tell_that_the_rows_run_down_when_none_is_sure(monkeypatch, turned, column, width):
    # a strip under MIN_WINDOW px across (63 px wide here) is never turned
    import fanshot.vision.recognize

    boxes = np.array([[700, 100 + 14 * k, 710, 113 + 14 * k] for k in range(ZOOM_IN_GUIDES)], float)
    if not column:
        boxes = row(700, 600, 10, ZOOM_IN_GUIDES)
    scores = np.full(len(boxes), GUIDE_FLOOR + 0.05)

    def localise(image, models, conf, fill=1.0):
        keep = scores >= conf
        return boxes[keep], scores[keep], ["face"] * int(keep.sum())

    monkeypatch.setattr(fanshot.vision.recognize, "localise", localise)
    image, found, turns = upright_look(np.zeros((1200, width, 3), np.uint8), object(), 0.5, 0.3)
    assert (turns == -1) == turned and image.shape[:2] == ((width, 1200) if turned else (1200, width))
