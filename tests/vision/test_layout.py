import numpy as np
import pytest

from fanshot.vision.config import Layout
from fanshot.vision.layout import (
    group_tiles,
    hand_of,
    meld_of,
    place_hand,
    propose_hand,
    row_angle,
    rows,
    rows_run_down,
    split_melds,
)


def tile_row(codes: list[str], x: float, y: float, gap: float = 2.0, w: float = 30.0, h: float = 40.0):
    """Boxes of tiles laid left to right from x, `gap` pixels apart."""
    return [(code, [x + n * (w + gap), y, x + n * (w + gap) + w, y + h]) for n, code in enumerate(codes)]


def layout(*placed):
    tiles = [tile for row in placed for tile in row]
    return np.array([box for _, box in tiles], dtype=float), [code for code, _ in tiles]


def turned(boxes: np.ndarray) -> np.ndarray:
    """The same boxes a quarter turn on: x and y swapped."""
    return boxes[:, [1, 0, 3, 2]]


HAND_ROW = layout(tile_row(["1m"] * 14, 0, 0))[0]
TWO_ROWS = layout(tile_row(["1m"] * 10, 0, 0), tile_row(["2m"] * 4, 0, 44))[0]  # a hand wrapped close under
THREE = layout(tile_row(["1m"] * 3, 0, 0))[0]


@pytest.mark.parametrize(("boxes", "run_down"), [
    (HAND_ROW, False), (turned(HAND_ROW), True),
    (TWO_ROWS, False), (turned(TWO_ROWS), True),
    (THREE, False), (turned(THREE), True), (turned(THREE)[:2], False),  # two tiles: too few to tell
])
def test_rows_run_down_a_photo_whose_tiles_are_nearest_above_and_below(boxes, run_down):
    assert rows_run_down(boxes, Layout()) is run_down


def test_rows_tolerate_a_slanted_row_and_sort_left_to_right():
    boxes = np.array([[70, 8, 100, 48], [0, 0, 30, 40], [35, 4, 65, 44], [0, 100, 30, 140]], dtype=float)
    assert rows(boxes, Layout()) == [[1, 2, 0], [3]]


def test_groups_split_at_gaps_with_flowers_apart():
    boxes, codes = layout(
        tile_row(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s"], 0, 0)
        + tile_row(["9s", "9s", "9s"], 300, 0),  # a gap of several tile widths
        tile_row(["1f", "6f"], 0, 100),
    )
    groups = group_tiles(boxes, codes)
    assert groups == [{"kind": "concealed", "tiles": list(range(8))},
                      {"kind": "meld", "tiles": [8, 9, 10]},
                      {"kind": "flowers", "tiles": [11, 12]}]
    assert propose_hand(groups, codes) == {"concealed": "123m456p77s", "melds": [{"kind": "pung", "tiles": "999s"}],
                                           "flowers": "16f"}


def test_melds_from_small_groups():
    assert meld_of(["3p", "1p", "2p"]) == {"kind": "chow", "tiles": "123p"}
    assert meld_of(["7z", "7z", "7z", "7z"]) == {"kind": "kong", "tiles": "7777z"}
    assert meld_of(["back", "5s", "5s", "back"]) == {"kind": "kong", "tiles": "5555s", "concealed": True}
    assert meld_of(["1z", "2z", "3z"]) is None
    assert meld_of(["1m", "2m"]) is None


def test_tiles_lying_apart_from_the_hand_are_loose_not_standing():
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
    boxes, codes = layout(tile_row(hand, 0, 0),
                          tile_row(["5z", "9m"], 200, 200),  # stray tiles on the table: no meld
                          tile_row(["3p", "3p", "3p"], 0, 400))  # a pung, but the hand is already full
    groups = group_tiles(boxes, codes)
    assert [group["kind"] for group in groups] == ["concealed", "loose", "loose"]
    placed = place_hand(groups, codes)
    assert placed == {"concealed": list(range(14)), "melds": [], "flowers": [], "loose": [14, 15, 16, 17, 18]}
    assert propose_hand(groups, codes)["concealed"] == "123m456p789s11122z"
    assert group_tiles(np.zeros((0, 4)), []) == []


def test_a_group_of_three_that_forms_no_meld_joins_a_hand_short_of_exactly_one_meld():
    standing = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7z", "7z", "7z"]
    boxes, codes = layout(tile_row(standing, 0, 0), tile_row(["5z", "6z", "5z"], 500, 0), tile_row(["9m"], 0, 300))
    placed = place_hand(group_tiles(boxes, codes), codes)
    assert placed["concealed"] == [*range(11), 11, 12, 13]  # the misread pung's tiles stand: a fix makes it a meld
    assert placed["loose"] == [14]


def test_standing_tiles_wrapped_onto_a_second_row_stay_in_the_hand():
    boxes, codes = layout(tile_row(["8m", "8m", "8m", "6p", "6p", "6p", "7p", "8p"], 0, 0),
                          tile_row(["9p", "6s", "7s", "8s", "6z", "6z"], 0, 60, gap=40))  # spread out: no groups
    placed = place_hand(group_tiles(boxes, codes), codes)
    assert sorted(placed["concealed"]) == list(range(14)) and placed["loose"] == []


def test_the_melds_nearest_the_standing_tiles_fill_the_hand_and_the_farthest_is_loose():
    standing = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s"]
    boxes, codes = layout(tile_row(standing, 0, 0), tile_row(["7z", "7z", "7z"], 400, 0),
                          tile_row(["9s", "9s", "9s"], 400, 60), tile_row(["2m", "2m", "2m"], 0, 900))
    placed = place_hand(group_tiles(boxes, codes), codes)
    assert [meld["tiles"] for meld in placed["melds"]] == [[8, 9, 10], [11, 12, 13]]
    assert placed["loose"] == [14, 15, 16]


def test_four_backs_together_are_a_concealed_kong_whose_face_is_not_shown():
    standing = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7z", "7z", "7z"]
    boxes, codes = layout(tile_row(standing, 0, 0), tile_row(["back"] * 4, 500, 0))
    placed = place_hand(group_tiles(boxes, codes), codes)
    assert placed["melds"] == [{"kind": "kong", "tiles": [11, 12, 13, 14], "concealed": True}]
    assert propose_hand(group_tiles(boxes, codes), codes)["melds"] == [{"kind": "kong", "tiles": "", "concealed": True}]


def loose_row(codes: list[str], x: float, y: float, gaps: list[float], w: float = 30.0, h: float = 40.0):
    """Boxes of tiles laid left to right from x with the given gaps (pixels) after each."""
    starts = x + np.cumsum([0.0, *(w + gap for gap in gaps[:len(codes) - 1])])
    return [(code, [start, y, start + w, y + h]) for code, start in zip(codes, starts, strict=True)]


KONG_STANDING = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7z", "7z", "7z"]


@pytest.mark.parametrize("degrees", [0, 12, -20])
@pytest.mark.parametrize(("where", "gaps"), [
    ("its own row", [14, 3, 17]), ("its own row", [25, 25, 25]),  # gaps of half a tile to most of one
    ("the hand's row", [16, 9, 2]), ("a row with a pung", [12, 18, 6]),
])
def test_four_backs_laid_loosely_are_one_concealed_kong_on_a_slant_in_any_box_order(where, gaps, degrees):
    """Issue 35: face-down tiles are put down by hand, not pushed together, so the gaps between them are wider
    than a standing hand's; they were split into groups of one to three backs and left out of the hand."""
    hand_row = tile_row(KONG_STANDING[:8] if where == "a row with a pung" else KONG_STANDING, 0, 0)
    kong_row = {"its own row": loose_row(["back"] * 4, 0, 70, gaps),
                "the hand's row": loose_row(["back"] * 4, 11 * 32 + 20, 0, gaps),
                "a row with a pung": tile_row(["9s"] * 3, 0, 70)
                + loose_row(["back"] * 4, 3 * 32 + 20, 70, gaps)}[where]
    boxes, codes = layout(hand_row, kong_row)
    order = np.random.default_rng(sum(gaps) + abs(degrees)).permutation(len(codes))  # detections come in any order
    boxes, codes = turned(boxes, degrees)[order], [codes[i] for i in order]
    placed = place_hand(group_tiles(boxes, codes), codes)
    kongs = [meld for meld in placed["melds"] if meld["kind"] == "kong"]
    assert [sorted(codes[i] for i in kong["tiles"]) for kong in kongs] == [["back"] * 4]
    assert kongs[0]["concealed"] and not placed["loose"]


def test_faces_a_back_apart_still_split_at_the_gap():
    boxes, codes = layout(tile_row(KONG_STANDING, 0, 0), loose_row(["9s", "9s", "9s"], 11 * 32 + 20, 0, [16, 16]))
    assert [group["tiles"] for group in group_tiles(boxes, codes)] == [list(range(11)), [11], [12], [13]]


def turned(boxes: np.ndarray, degrees: float) -> np.ndarray:
    """Axis-aligned boxes of the tiles after turning the whole table about the origin."""
    angle = np.radians(degrees)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [0, 3]], boxes[:, [2, 3]]], axis=1) @ rotation.T
    return np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)


def test_rows_follow_a_steep_slant_where_horizontal_bands_would_merge_them():
    boxes, codes = layout(tile_row(list("123456789"), 0, 0), tile_row(["1z"] * 5, 0, 70))
    boxes = turned(boxes, 25)
    assert row_angle(boxes) == pytest.approx(np.radians(25), abs=0.02)
    assert rows(boxes, Layout()) == [list(range(9)), list(range(9, 14))]


def test_melds_laid_too_close_for_a_gap_are_split_by_their_codes():
    boxes, codes = layout(tile_row(["1m", "1m", "2s", "3s", "4s", "5s", "6s", "7s"], 0, 0),
                          tile_row(["2p", "3p", "4p", "1z", "1z", "1z"], 0, 100))  # touching: a chow, then a pung
    hand = propose_hand(group_tiles(boxes, codes), codes)
    assert hand["concealed"] == "11m234567s"
    assert hand["melds"] == [{"kind": "chow", "tiles": "234p"}, {"kind": "pung", "tiles": "111z"}]


def test_the_standing_hand_is_the_group_that_is_no_run_of_melds_even_when_smaller():
    boxes, codes = layout(tile_row(["5s", "5s"], 0, 0),
                          tile_row(["1m", "1m", "1m", "2p", "3p", "4p", "7z", "7z", "7z", "9s", "9s", "9s"], 0, 100))
    hand = propose_hand(group_tiles(boxes, codes), codes)
    assert hand["concealed"] == "55s"
    assert [meld["tiles"] for meld in hand["melds"]] == ["111m", "234p", "777z", "999s"]


def test_a_kong_laid_on_in_the_hand_row_is_cut_off_by_the_tile_count():
    standing = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7z", "7z", "7z"]
    boxes, codes = layout(tile_row([*standing, "back", "9m", "9m", "back"], 0, 0))  # no gap before the kong
    hand = propose_hand(group_tiles(boxes, codes), codes)
    assert hand == {"concealed": "11m234p567s777z", "melds": [{"kind": "kong", "tiles": "9999m", "concealed": True}],
                    "flowers": ""}


def test_a_pung_laid_on_too_close_cannot_be_told_from_a_standing_one():
    standing = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7z", "7z", "7z"]
    boxes, codes = layout(tile_row([*standing, "9m", "9m", "9m"], 0, 0))
    assert propose_hand(group_tiles(boxes, codes), codes)["melds"] == []


def test_split_melds_cuts_at_the_widest_gap_and_refuses_what_forms_no_melds():
    boxes, codes = layout(tile_row(["2p", "3p", "4p"], 0, 0, gap=2), tile_row(["5p", "6p", "7p"], 100, 0, gap=2))
    assert split_melds(list(range(6)), codes, boxes) == [[0, 1, 2], [3, 4, 5]]
    assert split_melds(list(range(5)), codes, boxes) is None


def test_hand_of_a_placement_names_each_group_in_notation():
    """The one source of a hand placed by index (a recognition's proposal, a confirmation's `hand_tiles`): a
    concealed kong of four backs is of its named `face`, one showing a face of that face; backs name nothing."""
    codes = ["1m", "2m", "3m", "back", "back", "back", "back", "back", "5p", "5p", "back", "7z", "7z", "7z", "7z",
             "1f", "9s", "9s"]
    placed = {"concealed": [0, 1, 2, 3, 16, 17], "flowers": [15], "loose": [], "winning": 17, "melds": [
        {"kind": "kong", "tiles": [4, 5, 6, 7], "concealed": True, "face": "3s"},
        {"kind": "kong", "tiles": [8, 9, 10], "concealed": True},
        {"kind": "kong", "tiles": [11, 12, 13, 14], "fed_by": "2z"}]}
    assert hand_of(placed, codes) == {
        "concealed": "123m99s", "flowers": "1f", "winning_tile": "9s", "melds": [
            {"kind": "kong", "tiles": "3333s", "concealed": True},
            {"kind": "kong", "tiles": "5555p", "concealed": True},
            {"kind": "kong", "tiles": "7777z", "fed_by": "2z"}]}
    assert "winning_tile" not in hand_of({**placed, "winning": None}, codes)
