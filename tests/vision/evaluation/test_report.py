"""`fanshot eval --report` and `--compare`: the pairing and confusion matrix (vision/evaluation/breakdown.py) on made-up
readings, then a report built from a real photo whose labels differ from the recogniser's reading in known ways."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fanshot.cli import main
from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.yolo import box_from_corners, format_data_yaml, format_labels
from fanshot.vision.evaluation.breakdown import (
    MISSED,
    NOT_A_TILE,
    READ_LABELS,
    TRUE_LABELS,
    Reading,
    changed,
    confusion,
    pairing,
    photo_errors,
    scores_by_position,
    tile_label,
    worst,
)
from fanshot.vision.evaluation.metrics import Boxes
from fanshot.vision.evaluation.report import COLOURS, DRAWN_SIDE

SAMPLE = Path(__file__).resolve().parents[4] / "shared/data/chinese-mahjong-detection/test/images"
SAMPLE = next(iter(sorted(SAMPLE.glob("*.jpg"))), SAMPLE)


def boxed_reading(found_codes=("1m", "3m", "5z"), found_boxes=((0, 0, 30, 40), (40, 0, 70, 40), (200, 0, 230, 40))):
    """True 1m 2m 3s side by side; read: 1m right, 2m as 3m, nothing on 3s, and a 5z where no tile is."""
    truth = Boxes(np.array([[0, 0, 30, 40], [40, 0, 70, 40], [80, 0, 110, 40]], float), ["1m", "2m", "3s"])
    found = Boxes(np.array(found_boxes, float).reshape(-1, 4), list(found_codes), np.linspace(0.9, 0.6,
                                                                                              len(found_codes)))
    return Reading(Path("photo.jpg"), truth, found, ["hand"] * len(found_codes), 10.0, 1.0, ["hand", "hand", "meld"])


def cell(matrix, true, read):
    return matrix[TRUE_LABELS.index(true), READ_LABELS.index(read)]


def test_tiles_pair_by_box_into_right_misread_missed_and_not_a_tile():
    reading = boxed_reading()
    pairs = pairing(reading)
    assert sorted(tile_label(reading, pair) for pair in pairs) == ["1m", "2m → 3m", "3s → missed", "not a tile → 5z"]
    matrix = confusion([reading, reading])
    assert (cell(matrix, "1m", "1m"), cell(matrix, "2m", "3m"), cell(matrix, "3s", MISSED),
            cell(matrix, NOT_A_TILE, "5z")) == (2, 2, 2, 2)
    assert matrix.sum() == 8
    assert photo_errors(reading).total == 3


def test_without_boxes_tiles_pair_by_code_and_a_single_leftover_is_a_misread():
    none = np.zeros((0, 4))
    close_up = Reading(Path("a.jpg"), Boxes(none, ["3s"]), Boxes(np.array([[0, 0, 9, 9.0]]), ["2s"], np.ones(1)),
                       ["loose"], 5.0)
    assert [tile_label(close_up, pair) for pair in pairing(close_up)] == ["3s → 2s"]
    row = Reading(Path("b.jpg"), Boxes(none, ["1m", "2m", "3m"]),
                  Boxes(np.zeros((3, 4)), ["1m", "4p", "5p"], np.ones(3)), ["hand"] * 3, 5.0)
    assert sorted(tile_label(row, pair) for pair in pairing(row)) == \
        ["1m", "2m → missed", "3m → missed", "not a tile → 4p", "not a tile → 5p"]


def test_scores_by_position_bin_true_tiles_by_their_place_and_false_ones_by_the_recognisers():
    figures = scores_by_position([boxed_reading()])
    assert (figures["hand"]["tiles"], figures["hand"]["found"]) == (2, 3)  # 1m, 2m; read 1m, 3m and the false 5z
    assert (figures["meld"]["tiles"], figures["meld"]["recall"]) == (1, 0.0)
    assert figures["hand"]["precision"] == pytest.approx(1 / 3)


def test_worst_and_changed_photos_rank_by_tile_errors():
    bad, good = boxed_reading(), boxed_reading(("1m", "2m", "3s"), ((0, 0, 30, 40), (40, 0, 70, 40), (80, 0, 110, 40)))
    assert worst([good, bad, good], 5) == [1]
    assert changed([bad, good], [good, good], 5) == [0]


def labelled_copy(folder: Path, reading: dict) -> dict:
    """A YOLO folder of SAMPLE labelled with what the recogniser read there, changed in three known ways: the
    first tile relabelled (a misread), the last unlabelled (a tile read where none is), and a tile labelled where
    the recogniser found none (a miss). The expected confusion counts, as {(true, read): count}."""
    width, height = reading["image"]["width"], reading["image"]["height"]
    tiles = reading["tiles"]
    codes = [tile["code"] for tile in tiles]
    relabelled = next(code for code in CLASSES if code not in codes and code != "back")
    boxes = np.array([tile["box"] for tile in tiles], float)
    free = next((x, y) for y in range(0, height - 40, 8) for x in range(0, width - 30, 8)
                if not ((boxes[:, 0] < x + 30) & (boxes[:, 2] > x) & (boxes[:, 1] < y + 40) & (boxes[:, 3] > y)).any())
    labels = [(relabelled, tiles[0]["box"]), *((t["code"], t["box"]) for t in tiles[1:-1]),
              ("7z", (free[0], free[1], free[0] + 30, free[1] + 40))]
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    shutil.copy(SAMPLE, folder / "images" / SAMPLE.name)
    (folder / "labels" / f"{SAMPLE.stem}.txt").write_text(format_labels(
        box_from_corners(CLASS_INDEX[code], (x1 / width, y1 / height, x2 / width, y2 / height), "test")
        for code, (x1, y1, x2, y2) in labels))
    (folder / "data.yaml").write_text(format_data_yaml(CLASSES, []))
    expected: dict = {}
    for key in [(relabelled, codes[0]), *((c, c) for c in codes[1:-1]), (NOT_A_TILE, codes[-1]), ("7z", MISSED)]:
        expected[key] = expected.get(key, 0) + 1
    return expected


@pytest.mark.skipif(not SAMPLE.is_file(), reason="no shared test photo")
def test_a_report_counts_the_confusion_of_a_labelled_set_and_draws_its_errors(tmp_path, capsys):
    from fanshot.vision.evaluation.evaluate import read_photo
    from fanshot.vision.recogniser import shipped

    reading, _ = read_photo(SAMPLE, shipped())
    assert len(reading["tiles"]) >= 3
    expected = labelled_copy(tmp_path / "set", reading)
    out = tmp_path / "report"

    assert main(["eval", str(tmp_path / "set"), "--split", ".", "--report", str(out)]) == 0

    figures = json.loads((out / "figures.json").read_text())
    assert figures["command"] == f"fanshot eval {tmp_path / 'set'} --split . --report {out}"
    assert figures["settings"]["localiser"]["conf"] == shipped().config.conf and len(figures["version"]) == 12
    matrix = figures["sets"][str(tmp_path / "set")]["confusion"]
    counts = {(matrix["true"][r], matrix["read"][c]): n for r, row in enumerate(matrix["counts"])
              for c, n in enumerate(row) if n}
    assert counts == expected
    classes = figures["sets"][str(tmp_path / "set")]["classes"]
    assert classes["7z"]["tiles"] >= 1 and classes[reading["tiles"][-1]["code"]]["found"] >= 1

    page = (out / "index.html").read_text()
    misread = f"{next(t for t, r in expected if r == reading['tiles'][0]['code'] and t != r)} → " \
              f"{reading['tiles'][0]['code']}"
    assert misread in page and "not a tile" in page and "F1 by position" in page
    sources = re.findall(r'src="([^"]+)"', page)
    assert "set0-confusion.png" in sources and "set0-worst0.jpg" in sources
    assert all((out / source).is_file() for source in sources) and "http" not in "".join(sources)
    drawn = Image.open(out / "set0-worst0.jpg").convert("RGB")
    assert max(drawn.size) <= DRAWN_SIDE
    x1, y1, x2, y2 = (round(v * min(1, DRAWN_SIDE / max(reading["image"]["width"], reading["image"]["height"])))
                      for v in reading["tiles"][0]["box"])
    edge = np.asarray(drawn)[(y1 + y2) // 2, max(x1 - 1, 0):x1 + 2].astype(int)  # the misread's box, left side
    assert (np.abs(edge - COLOURS["misread"]).sum(axis=1) < 120).any()
    assert "wrote" in capsys.readouterr().err


@pytest.mark.skipif(not SAMPLE.is_file(), reason="no shared test photo")
def test_compare_judges_two_versions_by_the_choice_rule_and_draws_the_photos_that_changed(tmp_path, capsys):
    from fanshot.vision.evaluation.evaluate import read_photo
    from fanshot.vision.recogniser import MODELS_DIR, shipped

    reading, _ = read_photo(SAMPLE, shipped())
    labelled_copy(tmp_path / "set", reading)
    out = tmp_path / "report"

    assert main(["eval", str(tmp_path / "set"), "--split", ".", "--compare", str(MODELS_DIR), str(MODELS_DIR),
                 "--candidate-conf", "0.99", "--report", str(out), "--json"]) == 0

    result = json.loads(capsys.readouterr().out)
    (change,) = result["sets"]
    assert change["base_f1"] > change["candidate_f1"] == 0.0 and not result["ships"]
    page = (out / "index.html").read_text()
    assert "1 photos read differently" in page and "--conf 0.99" in page
    assert Image.open(out / "set0-changed0.jpg").width > Image.open(out / "set0-worst0.jpg").width


def test_compare_refuses_the_one_version_options(capsys):
    assert main(["eval", "set.jsonl", "--compare", "a", "b", "--without", "turn"]) == 2
    assert "--base-without" in capsys.readouterr().err
