"""The detector's 43 classes and the maps from other label sets' class names onto them."""

from __future__ import annotations

from collections.abc import Sequence

from fanshot.datasets.errors import DatasetError
from fanshot.scoring.tiles import DETECTOR_CLASSES

CLASSES: tuple[str, ...] = DETECTOR_CLASSES
CLASS_INDEX: dict[str, int] = {code: i for i, code in enumerate(CLASSES)}


def _numbered(prefix: str, letter: str, count: int, first: int = 1) -> dict[str, str]:
    return {f"{prefix}{n}": f"{first + n - 1}{letter}" for n in range(1, count + 1)}


# Class names of the shared Roboflow set "chinese-mahjong-detection" (see its README) -> our tile codes.
ROBOFLOW_NAMES: dict[str, str] = {
    **_numbered("sc", "m", 9),
    **_numbered("sd", "p", 9),
    **_numbered("sb", "s", 9),
    "hwe": "1z", "hws": "2z", "hww": "3z", "hwn": "4z",
    "hdw": "5z", "hdg": "6z", "hdr": "7z",  # white 白, green 發, red 中
    **_numbered("bf", "f", 4),  # flowers 梅 兰 菊 竹
    **_numbered("bs", "f", 4, first=5),  # seasons 春 夏 秋 冬
}

# Every name an importer understands: the Roboflow names and our own codes (so our exports re-import).
KNOWN_NAMES: dict[str, str] = {**ROBOFLOW_NAMES, **{code: code for code in CLASSES}}


def unknown_names(names: Sequence[str]) -> list[str]:
    """The class names no importer understands."""
    return [name for name in names if name not in KNOWN_NAMES]


def code_map(names: Sequence[str], source: str) -> list[str]:
    """Our tile code for each class name of a label set, by index; `source` names the set in errors."""
    if unknown := unknown_names(names):
        raise DatasetError(f"{source}: unknown class name(s) {', '.join(map(repr, unknown))}; "
                           f"known are our codes and the names {', '.join(ROBOFLOW_NAMES)}")
    return [KNOWN_NAMES[name] for name in names]
