from __future__ import annotations

import pytest

from fanshot.datasets.classes import CLASS_INDEX, CLASSES, ROBOFLOW_NAMES, code_map
from fanshot.datasets.errors import DatasetError
from fanshot.scoring.tiles import DETECTOR_CLASSES


def test_classes_are_the_detector_classes_in_order() -> None:
    assert CLASSES == DETECTOR_CLASSES and len(CLASSES) == 43
    assert all(CLASSES[CLASS_INDEX[code]] == code for code in CLASSES)


@pytest.mark.parametrize(("name", "code"), [
    ("sc1", "1m"), ("sc9", "9m"), ("sd1", "1p"), ("sd9", "9p"), ("sb1", "1s"), ("sb9", "9s"),
    ("hwe", "1z"), ("hws", "2z"), ("hww", "3z"), ("hwn", "4z"),
    ("hdw", "5z"), ("hdg", "6z"), ("hdr", "7z"),
    ("bf1", "1f"), ("bf4", "4f"), ("bs1", "5f"), ("bs4", "8f"),
])
def test_roboflow_names(name: str, code: str) -> None:
    assert ROBOFLOW_NAMES[name] == code


def test_roboflow_names_cover_every_face_once() -> None:
    assert len(ROBOFLOW_NAMES) == 42
    assert sorted(ROBOFLOW_NAMES.values()) == sorted(c for c in CLASSES if c != "back")


def test_code_map_accepts_roboflow_names_and_our_codes() -> None:
    assert code_map(["bs1", "sc1", "back", "7z"], "x") == ["5f", "1m", "back", "7z"]


def test_code_map_names_unknown_classes() -> None:
    with pytest.raises(DatasetError, match=r"src/data.yaml: unknown class name\(s\) 'joker', 'sc0'"):
        code_map(["sc1", "joker", "sc0"], "src/data.yaml")
