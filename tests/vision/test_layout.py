import numpy as np

from vision.layout import group_tiles, meld_of, propose_hand, rows


def tile_row(codes: list[str], x: float, y: float, gap: float = 2.0, w: float = 30.0, h: float = 40.0):
    """Boxes of tiles laid left to right from x, `gap` pixels apart."""
    return [(code, [x + n * (w + gap), y, x + n * (w + gap) + w, y + h]) for n, code in enumerate(codes)]


def layout(*placed):
    tiles = [tile for row in placed for tile in row]
    return np.array([box for _, box in tiles], dtype=float), [code for code, _ in tiles]


def test_rows_tolerate_a_slanted_row_and_sort_left_to_right():
    boxes = np.array([[70, 8, 100, 48], [0, 0, 30, 40], [35, 4, 65, 44], [0, 100, 30, 140]], dtype=float)
    assert rows(boxes) == [[1, 2, 0], [3]]


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


def test_unformed_meld_tiles_join_the_concealed_hand_and_no_tiles_is_empty():
    boxes, codes = layout(tile_row(["1m", "1m"], 0, 0), tile_row(["5z", "6z", "7z"], 200, 0))
    assert propose_hand(group_tiles(boxes, codes), codes)["concealed"] == "11m567z"
    assert group_tiles(np.zeros((0, 4)), []) == []
