"""Issue 52 point 3: what widens the classifier's view of tile art. More typefaces drawn as faces (some written the
simplified way), the ink's hue, colour and stroke weight varied with the label kept, and the art never trained on
kept out. Offline: the fonts are read from the art cache or the machine where present (skipped where not)."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from fontTools.ttLib import TTCollection, TTFont

from fanshot.datasets.synth import art
from fanshot.datasets.synth.art import ADAPTATION_SOURCE_NAMES, DEFAULT_CACHE, SOURCE_NAMES, SOURCES
from fanshot.datasets.synth.dataset import Extras, face_sets, render_example
from fanshot.datasets.synth.drawn import drawn_faces, face_text
from fanshot.datasets.synth.faces import FACE_CODES, IVORY, save_face_set
from fanshot.datasets.synth.hands import corpus
from fanshot.datasets.synth.variants import INK_SHARES, hue_turned, ink, ink_variants, recoloured, stroked
from fanshot.datasets.yolo import format_labels
from tests.datasets.test_synth import SETS

FONT_SOURCES = ("drawn-ming", "drawn-cwkai", "drawn-mincho", "drawn-noto-serif-bold", "drawn-zenhei-simplified",
                "drawn-gkai-simplified", "drawn-noto-sans-simplified")
SYSTEM_CJK = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
RED = np.uint8((200, 25, 30))


def style_of(source: art.Source) -> str:
    return getattr(source.extract, "keywords", {}).get("style", "chinese")


def a_face(colour: np.ndarray = RED) -> np.ndarray:
    """Ivory with a block of ink in `colour` and a thin line of it."""
    face = np.full((128, 96, 3), IVORY, np.uint8)
    face[40:90, 30:66] = colour
    face[100:102, 10:86] = colour
    return face


def test_training_art_has_the_font_faces_and_never_the_unseen_classic_art() -> None:
    assert set(FONT_SOURCES) <= set(SOURCE_NAMES)
    assert "kmahjongg-classic" in ADAPTATION_SOURCE_NAMES and "kmahjongg-classic" not in SOURCE_NAMES
    for source in SOURCES:  # each with its licence, none with non-commercial terms, none from the Japanese set
        assert source.licence and source.credit and "NC" not in source.licence
        assert "leo" not in source.path and "japanese-set" not in source.path
    assert sum(style_of(source) == "simplified" for source in SOURCES) >= 3


def test_default_training_renders_leave_out_cached_classic_art(tmp_path: Path) -> None:
    for name in ("drawn-ming", "kmahjongg-classic"):
        save_face_set(tmp_path / "faces" / name, SETS["drawn"], {"name": name})
    assert sorted(face_sets(tmp_path)) == ["drawn-ming"]
    assert sorted(face_sets(tmp_path, ["kmahjongg-classic"])) == ["kmahjongg-classic"]  # only when named


def test_each_style_writes_its_own_characters() -> None:
    chinese = {code: face_text(code, "chinese") for code in ("1m", "9m", "1z", "6z", "7z", "2f", "5z", "3p", "4s")}
    assert chinese == {"1m": "一萬", "9m": "九萬", "1z": "東", "6z": "發", "7z": "中", "2f": "蘭", "5z": "", "3p": "",
                       "4s": ""}
    simplified = {code: face_text(code, "simplified") for code in ("1m", "9m", "1z", "2z", "6z", "7z", "2f")}
    assert simplified == {"1m": "一万", "9m": "九万", "1z": "东", "2z": "南", "6z": "发", "7z": "中", "2f": "兰"}
    assert face_text("5m", "japanese") == "五萬"


@pytest.mark.skipif(not SYSTEM_CJK.is_file(), reason="no CJK font on this machine")
def test_simplified_faces_differ_only_where_the_characters_do() -> None:
    chinese, simplified = drawn_faces(SYSTEM_CJK), drawn_faces(SYSTEM_CJK, "simplified")
    for code in ("1m", "5m", "1z", "6z", "2f"):
        assert not np.array_equal(chinese[code], simplified[code]), code
    for code in ("2z", "7z", "5z", "1p", "9s"):
        assert np.array_equal(chinese[code], simplified[code]), code


CACHE = Path(os.environ.get("FANSHOT_ART_CACHE", DEFAULT_CACHE))


@pytest.mark.parametrize("name", FONT_SOURCES)
def test_each_font_has_every_character_its_faces_need(name: str) -> None:
    source = next(source for source in SOURCES if source.name == name)
    path = CACHE / "pkgs" / source.package / source.path
    if not path.is_file():
        pytest.skip(f"{source.package} not in the art cache (`fanshot art --source {name}`)")
    font = TTCollection(str(path)).fonts[0] if path.suffix == ".ttc" else TTFont(str(path))
    needed = {char for code in FACE_CODES for char in face_text(code, style_of(source))}
    assert len(needed) > 20
    assert sorted(char for char in needed if ord(char) not in font.getBestCmap()) == []


def test_hue_turn_moves_the_ink_and_keeps_the_face() -> None:
    face = a_face()
    turned = hue_turned(face, 120)  # red ink to green
    r, g, b = turned[60, 40].astype(int)
    assert g > r + 60 and g > b + 60
    assert np.abs(turned[5, 5].astype(int) - IVORY).max() <= 3  # the face colour stays
    assert np.abs(ink(turned) - ink(face)).max() < 0.25  # as much ink, where it was


def test_recolour_paints_all_ink_one_colour_and_keeps_the_face() -> None:
    out = recoloured(a_face(), np.uint8((120, 40, 160)))
    assert tuple(out[60, 40]) == (120, 40, 160) and tuple(out[5, 5]) == IVORY


def test_stroke_weight_thickens_and_thins_the_ink() -> None:
    face = a_face()
    inked = [int((ink(stroked(face, pixels)) > 0.5).sum()) for pixels in (-1, 0, 2)]
    assert inked[0] < inked[1] < inked[2]
    assert int((ink(stroked(face, -1))[99:103, 10:86] > 0.5).sum()) == 0  # a 2-px line thinned away on both sides


def test_ink_variants_are_each_taken_and_vary_the_faces() -> None:
    taken = [ink_variants(SETS["drawn"], np.random.default_rng(seed))[1] for seed in range(80)]
    for name, share in INK_SHARES.items():
        count = sum(name in t for t in taken)
        assert 0.4 * share * 80 <= count <= 1.7 * share * 80, (name, count)
    faces, what = next(ink_variants(SETS["drawn"], np.random.default_rng(seed)) for seed in range(80)
                       if "hue" in taken[seed])
    assert sorted(faces) == sorted(FACE_CODES) and "hue" in what
    assert sum(not np.array_equal(faces[code], SETS["drawn"][code]) for code in FACE_CODES) > 30


def test_ink_varied_photos_keep_their_labels_and_their_scene() -> None:
    request = corpus(1, 3)[0]
    changed = 0
    for index in range(6):
        plain_ink, with_ink = (render_example(index, 3, request, SETS, Extras({}, SETS["drawn"], ink=ink_on))
                               for ink_on in (False, True))
        assert format_labels(with_ink.boxes) == format_labels(plain_ink.boxes)
        extra = set(with_ink.variants) - set(plain_ink.variants)
        assert extra <= set(INK_SHARES)
        assert {k: v for k, v in with_ink.variants.items() if k not in extra} == plain_ink.variants
        if extra:
            changed += 1
            difference = cv2.absdiff(with_ink.scene.image, plain_ink.scene.image)
            assert difference.max() > 40
    assert changed >= 2
