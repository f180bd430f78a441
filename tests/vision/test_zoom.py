"""The zoom pass of the `Recogniser`: when it looks again, where, and how the two looks merge."""

from pathlib import Path

import numpy as np
import pytest

from fanshot.vision.config import RecogniserConfig, ZoomIn
from fanshot.vision.geometry import iou, tiles_small
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import (
    Detections,
    close_up_tiles,
    cut_at_edge,
    inside,
    mostly_within,
    shipped,
    tile_sides,
    window_starts,
    zoom_window,
)
from tests.vision.fakes import fake_recogniser, nothing

ZOOM = ZoomIn()
GUIDES, CONFIRM, GUIDE_FLOOR = ZOOM.guides, ZOOM.confirm, ZOOM.guide_floor
MIN_WINDOW = RecogniserConfig().min_window
# The single look's own finds place the closer look (as in a frame the scan does not read; the scan is tested below)
NO_SCAN = RecogniserConfig(conf=0.5, unsure=0.3).without("scan")
SHARED = Path(__file__).resolve().parents[3] / "shared/data"
needs_models = pytest.mark.model  # runs the shipped models (models/ is in the repository)


def row(x0: float, y0: float, side: float, count: int) -> np.ndarray:
    return np.array([[x0 + k * side, y0, x0 + (k + 1) * side, y0 + side * 1.3] for k in range(count)], float)


@pytest.mark.parametrize(("side", "zooms"), [(48.0, False), (30.0, False), (12.0, True), (6.0, True)])
def test_only_tiles_small_in_the_localisers_input_are_looked_at_again(side, zooms):
    # a 1600 px photo reaches the 416 px localiser at 0.26 scale: 48 px tiles are 12.5 px there
    boxes = row(400, 500, side * 1600 / 416, 9)
    assert (zoom_window(boxes, 1600, 1200, 416, ZOOM, MIN_WINDOW) is not None) == zooms
    assert tiles_small(boxes, 1600, 1200, 416, ZOOM.below) == zooms  # the test the second look shares
    assert zoom_window(np.zeros((0, 4)), 1600, 1200, 416, ZOOM, MIN_WINDOW) is None
    assert not tiles_small(np.zeros((0, 4)), 1600, 1200, 416, ZOOM.below)


def test_the_window_is_centred_on_the_tiles_and_brings_them_to_the_target_size():
    boxes = row(700, 600, 48, 5)  # 12.5 px in the input
    x1, y1, x2, y2 = zoom_window(boxes, 1600, 1200, 416, ZOOM, MIN_WINDOW)
    assert x1 <= boxes[:, 0].min() and x2 >= boxes[:, 2].max() and y1 <= boxes[:, 1].min() and y2 >= boxes[:, 3].max()
    side_in_window = np.sqrt(48 * 48 * 1.3) * 416 / max(x2 - x1, y2 - y1)
    assert side_in_window == pytest.approx(ZOOM.target, rel=0.05)
    sliver = zoom_window(np.array([[500.0, 500, 500.2, 500.2]] * 3), 1600, 1200, 416, ZOOM, MIN_WINDOW)
    assert sliver[2] - sliver[0] >= 64 and sliver[3] - sliver[1] >= 64  # never an empty crop
    corner = zoom_window(row(0, 0, 30, 3), 1600, 1200, 416, ZOOM, MIN_WINDOW)  # shifted inside the photo
    assert corner[0] == 0 and corner[1] == 0
    strip = np.array([[100.0, 0, 101, 2]] * 6)  # a strip 2 px tall: no window
    assert zoom_window(strip, 3000, 2, 416, ZOOM, MIN_WINDOW) is None


@needs_models
def test_a_strip_of_noise_yields_no_tile():
    noise = np.random.default_rng(0).integers(0, 256, (2, 3000, 3), dtype=np.uint8)
    assert shipped()(noise).tiles == []


def test_tiles_cut_by_an_inner_window_edge_are_dropped_not_those_at_the_photos_edge():
    window = (100, 0, 500, 400)  # its left and bottom edges are inside the photo, its top is the photo's
    boxes = np.array([[0.5, 50, 40, 90], [50, 0, 90, 30], [200, 370, 240, 399.5], [100, 100, 150, 150]])
    assert cut_at_edge(boxes, window, 800, 600, 2.0).tolist() == [True, False, True, False]
    assert inside(np.array([[120.0, 10, 160, 60], [90, 10, 130, 60]]), window).tolist() == [True, False]


def test_a_tile_found_zoomed_out_replaces_the_fragments_found_inside_it():
    fragments = np.array([[10.0, 10, 60, 60], [300, 300, 340, 350]])
    whole = np.array([[0.0, 0, 200, 260]])
    assert mostly_within(fragments, whole).tolist() == [True, False]
    merged = Detections(fragments[1:], np.array([0.6]), ["face"]).merged(
        Detections(whole, np.array([0.9]), ["face"]), 0.5)
    assert len(merged) == 2 and merged.scores.tolist() == pytest.approx([0.9, 0.6])


@needs_models
def test_a_tile_filling_the_frame_is_found_by_the_zoom_pass():
    photo = load_photo((SHARED / "web-tiles-camerash/images/1.jpg").read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    single = shipped().with_config(shipped().config.without("zoom_out")).find(photo)
    sure = single.found.scores >= shipped().config.conf
    assert (np.count_nonzero(sure), single.zoom) == (0, "single")
    zoomed = shipped().find(photo)
    assert zoomed.zoom == "out" and len(zoomed.found) == 1
    x1, y1, x2, y2 = zoomed.found.boxes[0]
    assert (x2 - x1) * (y2 - y1) > 0.5 * photo.shape[0] * photo.shape[1]


@needs_models
def test_a_photo_with_tiles_of_the_usual_size_takes_a_single_look():
    photo_path = sorted((SHARED / "chinese-mahjong-detection/test/images").glob("*.jpg"))[0]
    photo = load_photo(photo_path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    look = shipped().find(photo)
    assert look.zoom == "single" and np.count_nonzero(look.found.scores >= shipped().config.conf) >= 5


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
    assert close_up_tiles(np.array([box], dtype=float), 240, 320, 0.35, 2.0).tolist() == [close_up]


def test_few_small_tiles_with_no_frame_filling_one_are_still_looked_at_closer():
    small = row(700, 600, 10, 3)  # three tiles of a 1600×1200 photo, 2.6 px in the localiser's input

    def finds(image, conf, fill):
        if fill < 1:  # zoomed out: nothing fills the frame
            return nothing()
        boxes = small if image.shape[1] == 1600 else row(5, 5, 40, 3)
        return boxes, np.full(len(boxes), 0.9), ["face"] * len(boxes)

    recogniser = fake_recogniser(finds)
    look = recogniser.find(np.zeros((1200, 1600, 3), np.uint8))
    fills = [fill for _, fill in recogniser.calls]
    assert look.zoom == "in" and fills[1] < 1 and len(fills) == 3 and len(look.found) == 3


@pytest.mark.parametrize(("unsure", "zoom"), [(GUIDES, "in"), (GUIDES - 1, "single")])
def test_with_no_sure_tile_enough_unsure_finds_place_the_closer_look(unsure, zoom):
    faint = row(700, 600, 10, unsure)  # tiny tiles the localiser scores under the threshold, over the floor

    def finds(image, conf, fill):
        if fill < 1:
            return nothing()
        if image.shape[1] == 1600:
            return faint, np.full(len(faint), 0.35), ["face"] * len(faint)
        closer = row(5, 5, 20, unsure)  # within the window, none cut by its edge
        return closer, np.full(len(closer), 0.9), ["face"] * len(closer)

    look = fake_recogniser(finds, NO_SCAN).find(np.zeros((1200, 1600, 3), np.uint8))
    assert look.zoom == zoom
    assert look.found.scores.tolist() == ([0.9] * unsure if zoom == "in" else [0.35] * unsure)


@pytest.mark.parametrize(("scores", "chosen"), [
    ([0.9, 0.2, 0.4], [0.9]),  # a sure find: the sure finds alone
    ([0.35] * GUIDES + [0.15], [0.35] * GUIDES),  # none sure: enough unsure ones
    ([0.35] * (GUIDES - 1) + [0.15], [0.35] * (GUIDES - 1) + [0.15]),  # else the faint ones too
    ([0.35] * (GUIDES - 2) + [0.15], []),  # too few of any
])
def test_guides_are_the_surest_finds_there_are_enough_of(scores, chosen):
    found = Detections(row(0, 0, 10, len(scores)), np.array(scores), ["face"] * len(scores))
    assert fake_recogniser(None).guides(found).scores.tolist() == chosen


def faint_then_closer(faint: np.ndarray, closer_sure: int):
    """A fake localiser: the photo's `faint` finds at 0.15, zoomed out nothing, and in any window `closer_sure`
    tiles at 0.9 beside one at 0.35."""
    def finds(image, conf, fill):
        if fill < 1:
            return nothing()
        if image.shape[1] == 1600:
            return faint, np.full(len(faint), 0.15), ["face"] * len(faint)
        return row(5, 5, 20, closer_sure + 1), np.array([0.9] * closer_sure + [0.35]), ["face"] * (closer_sure + 1)
    return finds


@pytest.mark.parametrize(("faint", "zoom"), [(GUIDES, "in"), (GUIDES - 1, "single")])
def test_with_too_few_unsure_finds_enough_faint_ones_place_the_closer_look(faint, zoom):
    look = fake_recogniser(faint_then_closer(row(700, 600, 10, faint), CONFIRM), NO_SCAN).find(
        np.zeros((1200, 1600, 3), np.uint8))
    assert look.zoom == zoom
    assert look.found.scores.tolist() == ([0.9] * CONFIRM + [0.35] if zoom == "in" else [])  # never a faint find


@pytest.mark.parametrize(("closer_sure", "zoom"), [(CONFIRM, "in"), (CONFIRM - 1, "single")])
def test_a_closer_look_no_sure_find_placed_must_find_enough_sure_tiles(closer_sure, zoom):
    faint = row(700, 600, 10, GUIDES)
    look = fake_recogniser(faint_then_closer(faint, closer_sure), NO_SCAN).find(np.zeros((1200, 1600, 3), np.uint8))
    assert look.zoom == zoom and (len(look.found) > 0) == (zoom == "in")


@pytest.mark.parametrize(("turned", "column", "width"), [(True, True, 1600), (False, False, 1600), (False, True, 63)])
def test_faint_finds_tell_that_the_rows_run_down_when_none_is_sure(turned, column, width):
    # a strip under `min_window` px across (63 px wide here) is never turned
    boxes = np.array([[700, 100 + 14 * k, 710, 113 + 14 * k] for k in range(GUIDES)], float)
    if not column:
        boxes = row(700, 600, 10, GUIDES)
    scores = np.full(len(boxes), GUIDE_FLOOR + 0.05)
    look = fake_recogniser(lambda image, conf, fill: (boxes, scores, ["face"] * len(boxes))).upright_look(
        np.zeros((1200, width, 3), np.uint8))
    assert (look.turns == -1) == turned
    assert look.image.shape[:2] == ((width, 1200) if turned else (1200, width))


@pytest.mark.parametrize("stage", ["zoom_in", "zoom_out"])
def test_a_look_switched_off_is_never_taken(stage):
    small = row(700, 600, 10, 3)

    def finds(image, conf, fill):  # the zoomed-out look finds a tile filling the frame, the closer one a row
        boxes = np.array([[300.0, 100, 1100, 1100]]) if fill < 1 else small if image.shape[1] == 1600 \
            else row(5, 5, 40, 3)
        return boxes, np.full(len(boxes), 0.9), ["face"] * len(boxes)

    recogniser = fake_recogniser(finds, RecogniserConfig(conf=0.5).without(stage))
    look = recogniser.find(np.zeros((1200, 1600, 3), np.uint8))
    assert look.zoom == ("out" if stage == "zoom_in" else "in")
    assert all(fill == 1 for _, fill in recogniser.calls) == (stage == "zoom_out")


def test_scan_windows_cover_the_frame_evenly_and_fewest():
    assert window_starts(1600, 416) == [0, 395, 789, 1184]
    assert window_starts(1200, 416) == [0, 392, 784]
    assert window_starts(416, 416) == window_starts(300, 416) == [0]


def patch_finds(closer_sure: int, frame_width: int = 1600):
    """A fake localiser that sees what is drawn: the whole frame shows nothing, a scan window (416 px) shows each
    drawn tile as a faint find, a closer look (any other size) `closer_sure` sure tiles."""
    def finds(image, conf, fill):
        if fill < 1 or image.shape[1] == frame_width:
            return nothing()
        if image.shape[:2] == (416, 416):
            ys, xs = np.nonzero(image[:, :, 0])
            starts = sorted(set(xs[::10] // 10 * 10)) if len(xs) else []
            boxes = [[x, ys.min(), x + 10, ys.min() + 13] for x in starts]
            return np.array(boxes, float).reshape(-1, 4), np.full(len(boxes), 0.15), ["face"] * len(boxes)
        return row(20, 20, 20, closer_sure), np.full(closer_sure, 0.9), ["face"] * closer_sure
    return finds


def photo_with_a_row(width: int = 1600, height: int = 1200) -> np.ndarray:
    """A dark frame with one row of GUIDES small tiles, 500 px up from the bottom and 700 px in from the right
    ((900, 700) of 1600×1200): 10 px each, too small for the first look (2.6 px at 416), found at the frame's own
    resolution."""
    photo = np.zeros((height, width, 3), np.uint8)
    photo[height - 500:height - 487, width - 700:width - 700 + 10 * GUIDES] = 255
    return photo


def test_with_no_sure_find_a_big_frame_is_scanned_and_its_finds_place_the_closer_look():
    recogniser = fake_recogniser(patch_finds(CONFIRM))
    look = recogniser.find(photo_with_a_row())
    assert look.zoom == "in" and len(look.found) == CONFIRM
    scan_calls = [conf for conf, fill in recogniser.calls if conf == GUIDE_FLOOR and fill == 1][1:]
    assert len(scan_calls) == 12  # 4 × 3 windows of 416 px, after the single look
    x1, y1, _, _ = look.found.boxes.min(axis=0)  # the closer look was placed on the row, not the frame's centre
    assert 800 < x1 < 960 and 620 < y1 < 720


def test_scan_finds_big_enough_for_the_single_look_are_no_guides():
    def finds(image, conf, fill):  # in each scan window a tiny find and one the single look would see at 18 px
        if image.shape[:2] != (416, 416):
            return nothing()
        return np.array([[10.0, 10, 20, 23], [100, 100, 160, 180]]), np.array([0.2, 0.9]), ["face", "face"]

    scan = fake_recogniser(finds).scanned(np.zeros((1200, 1600, 3), np.uint8))
    assert len(scan) == 12 and (tile_sides(scan.boxes) < 20).all()


@pytest.mark.parametrize(("config", "size", "scanned"), [
    (RecogniserConfig(conf=0.5), (1200, 1600), True),
    (RecogniserConfig(conf=0.5).without("scan"), (1200, 1600), False),
    (RecogniserConfig(conf=0.5).without("zoom_in"), (1200, 1600), False),  # the scan only places the closer look
    (RecogniserConfig(conf=0.5), (600, 800), False),  # 800 px: under twice the localiser's input
])
def test_the_scan_runs_only_on_a_big_frame_with_the_closer_look_on(config, size, scanned):
    recogniser = fake_recogniser(patch_finds(CONFIRM, size[1]), config)
    look = recogniser.find(photo_with_a_row(size[1], size[0]))
    assert (look.zoom == "in") == scanned
    assert (len(recogniser.calls) > 3) == scanned


def test_enough_unsure_finds_in_the_single_look_place_the_closer_look_without_a_scan():
    unsure = row(700, 600, 10, GUIDES)

    def finds(image, conf, fill):
        if fill < 1:
            return nothing()
        if image.shape[1] == 1600:
            return unsure, np.full(GUIDES, 0.35), ["face"] * GUIDES
        return row(5, 5, 20, CONFIRM), np.full(CONFIRM, 0.9), ["face"] * CONFIRM

    recogniser = fake_recogniser(finds)
    assert recogniser.find(np.zeros((1200, 1600, 3), np.uint8)).zoom == "in"
    assert len(recogniser.calls) == 3  # the single look, zoomed out, the closer look: no scan window


def test_a_sure_find_in_the_single_look_means_no_scan():
    def finds(image, conf, fill):
        if fill < 1:
            return nothing()
        return row(100, 100, 100, 14), np.full(14, 0.9), ["face"] * 14  # tiles of the usual size

    recogniser = fake_recogniser(finds)
    assert recogniser.find(photo_with_a_row()).zoom == "single" and len(recogniser.calls) == 1


@needs_models
def test_tiles_20_px_wide_in_a_12mp_photo_are_found_through_the_scan(tmp_path):
    from fanshot.datasets.synth.evalsets import WEB_TILES, split_web_crops, web_crops, write_rows

    if not WEB_TILES.is_dir():
        pytest.skip(f"no web tiles at {WEB_TILES} (CI provides ../shared)")
    train, _ = split_web_crops(web_crops(WEB_TILES))
    write_rows(tmp_path, train, 2, 9902, (4000, 3000), (0.0035, 0.0045), distractors=4)
    found_right = {"scan": 0, "without": 0}
    for name in ("row_00000", "row_00001"):
        labels = np.loadtxt(tmp_path / "labels" / f"{name}.txt", ndmin=2)
        widths = np.minimum(labels[:, 3] * 4000, labels[:, 4] * 3000)
        assert 17 <= np.median(widths) <= 21  # px at full resolution
        photo = load_photo((tmp_path / "images" / f"{name}.jpg").read_bytes(), max_side=RECOGNITION_MAX_SIDE)
        height, width = photo.shape[:2]
        truth = labels[:, 1:] * [width, height, width, height]
        truth = np.c_[truth[:, :2] - truth[:, 2:] / 2, truth[:, :2] + truth[:, 2:] / 2]
        for variant, recogniser in (("scan", shipped()), ("without", shipped().with_config(
                shipped().config.without("scan")))):
            boxes = np.array([tile["box"] for tile in recogniser(photo).tiles]).reshape(-1, 4)
            found_right[variant] += sum(bool(len(boxes)) and iou(box, boxes).max() >= 0.5 for box in truth)
    assert found_right["without"] == 0
    assert found_right["scan"] >= 10  # of 28 (14 when measured: one row found whole, the other missed)
