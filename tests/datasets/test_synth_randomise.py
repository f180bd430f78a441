"""`fanshot synth --randomise`: each item of issue 10's list of domain-randomised scenes has its control here,
tested on what it draws and on the rendered photo (labels still on the tiles). Offline: drawn faces without a
font, photographs made up in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from fanshot.datasets.classes import CLASS_INDEX
from fanshot.datasets.synth.backgrounds import PACKAGE, PHOTOS_DIR, build_backgrounds, load_backgrounds, photo_licences
from fanshot.datasets.synth.dataset import Extras, hand_requests, randomisation_extras, render_example, shown_width
from fanshot.datasets.synth.distractors import DISTRACTORS
from fanshot.datasets.synth.drawn import drawn_faces
from fanshot.datasets.synth.faces import BACK_COLOURS, FACE_H, FACE_W
from fanshot.datasets.synth.hands import corpus
from fanshot.datasets.synth.layout import FLAT, STANDING, Placed, place_hand
from fanshot.datasets.synth.looks import (
    BODIES,
    MAX_TILT,
    closeup,
    draw_background,
    draw_effects,
    draw_look,
    draw_tile_width,
    draw_view,
    upside_down,
)
from fanshot.datasets.synth.scene import Effects, Look, camera_effects, look_at, render, tile_corners
from fanshot.datasets.synth.textures import KINDS, table_texture
from fanshot.datasets.synth.variants import FLOWERS, ink, painted_flower, randomise_faces
from fanshot.datasets.yolo import box_from_corners, format_labels
from fanshot.scoring.tiles import BACK
from tests.datasets.test_synth import KONG_REQUEST, SETS, assert_labels_fit, run_cli

CALM = Effects(exposure=1.0, white_balance=(1.0, 1.0, 1.0), glare=0.0, cast_shadow=0.0, blur=0.0, noise=0.0,
               jpeg_quality=90)
HAND = corpus(1, 3)[0]["hand"]


def a_look(quarter_turns: int = 0, tilt: float = 30.0, tile_width: float = 0.05, body: str = "green",
           background: str = "felt", photo: np.ndarray | None = None) -> Look:
    return Look(quarter_turns, tilt, tile_width, body, background, photo, np.random.default_rng(2), CALM)


def rendered(look: Look, hand: dict = HAND, tiles: list[Placed] | None = None, seed: int = 5):
    placed = tiles if tiles is not None else place_hand(hand, np.random.default_rng(1))
    return render(placed, SETS["drawn"], np.random.default_rng(seed), look)


def assert_tiles_where_labelled(scene) -> None:
    assert_labels_fit(format_labels_of(scene), scene.tiles, scene.image.shape[1::-1])
    image = scene.image.astype(np.int16)
    for tile in scene.tiles:
        x1, y1, x2, y2 = (round(v) for v in tile.box)
        assert image[y1:y2, x1:x2].reshape(-1, 3).std(axis=0).max() > 10  # a tile's art and edges, not table


def format_labels_of(scene) -> str:
    h, w = scene.image.shape[:2]
    return format_labels([box_from_corners(CLASS_INDEX[t.code], np.divide(t.box, [w, h, w, h]), "test")
                          for t in scene.tiles])


def top_edge_angle(tile) -> float:
    """The direction of a face's top edge in the image, degrees."""
    dx, dy = tile.top[1] - tile.top[0]
    return float(np.degrees(np.arctan2(dy, dx)))


# --- tiles rotated 0/90/180/270, perspective up to 60° ---------------------------------------------------

def test_views_draw_every_quarter_turn_and_tilts_up_to_60() -> None:
    rng = np.random.default_rng(0)
    views = [draw_view(rng, standing=False) for _ in range(300)]
    assert {q for q, _ in views} == {0, 1, 2, 3}
    tilts = [t for _, t in views]
    assert min(tilts) < 5 and 55 < max(tilts) <= MAX_TILT == 60
    assert min(draw_view(rng, standing=True)[1] for _ in range(100)) >= 35  # standing faces are seen from low
    assert max(draw_view(rng, False, tile_width=0.9)[1] for _ in range(100)) <= 6  # a frame-filling tile: from above


@pytest.mark.parametrize("tilt", [0.0, 60.0])
def test_the_camera_takes_the_looks_tilt(tilt: float) -> None:
    corners = np.concatenate([tile_corners(t, 0.7) for t in place_hand(HAND, np.random.default_rng(1))])
    camera = look_at(np.random.default_rng(3), corners, (1024, 768), look=a_look(1, tilt), widths=corners[:2][None])
    down = np.degrees(np.arccos(-camera.rotation[2] @ [0, 0, 1]))  # the camera's axis against straight down
    assert down == pytest.approx(tilt, abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("tilt", [0.0, 60.0])
def test_quarter_turns_turn_the_tiles_and_labels_stay_on_them(tilt: float) -> None:
    angles = []
    for quarter_turns in range(4):
        scene = rendered(a_look(quarter_turns, tilt))
        assert_tiles_where_labelled(scene)
        angles.append(np.median([top_edge_angle(tile) for tile in scene.tiles]))
    for q in range(1, 4):  # each quarter turn turns the faces by a further -90° in the image (y down)
        assert (angles[0] - angles[q]) % 360 == pytest.approx(90 * q, abs=1)


def test_upside_down_turns_some_flat_tiles_half_round_and_never_a_standing_one() -> None:
    tiles = [Placed("1m", FLAT, i, 0, 0.0) for i in range(200)] + [Placed("2m", STANDING, i, 2, 0.0) for i in range(50)]
    turned, count = upside_down(tiles, np.random.default_rng(0))
    flipped = [t for t in turned if t.turn == pytest.approx(np.pi)]
    assert 10 < count == len(flipped) < 60 and all(t.pose == FLAT for t in flipped)
    scene = rendered(a_look(), tiles=[Placed("1m", FLAT, 0, 0, 0.0), Placed("1m", FLAT, 1.1, 0, np.pi)])
    assert (top_edge_angle(scene.tiles[0]) - top_edge_angle(scene.tiles[1])) % 360 == pytest.approx(180, abs=5)
    assert_tiles_where_labelled(scene)


# --- tile widths from 2 % to 90 % of the frame --------------------------------------------------------------

def test_tile_widths_are_drawn_from_2_to_90_percent() -> None:
    rng = np.random.default_rng(0)
    widths = [draw_tile_width(rng)[1] for _ in range(500)]
    assert 0.02 <= min(widths) < 0.025 and 0.7 < max(widths) <= 0.9


@pytest.mark.parametrize(("width", "tiles"), [(0.02, None), (0.3, 3), (0.9, 1)])
def test_tiles_show_at_the_wanted_width(width: float, tiles: int | None) -> None:
    placed = place_hand(HAND, np.random.default_rng(1))
    scene = rendered(a_look(0, 0 if width > 0.5 else 20, width), tiles=placed[:tiles] if tiles else None)
    assert shown_width(scene) == pytest.approx(width, rel=0.1)
    assert_tiles_where_labelled(scene)


def test_a_face_down_tile_is_measured_by_its_side_on_top() -> None:
    backs = [t for t in place_hand(KONG_REQUEST["hand"], np.random.default_rng(0)) if t.code == BACK]
    scene = rendered(a_look(0, 25, 0.45), tiles=backs)
    assert shown_width(scene) == pytest.approx(0.45, rel=0.05)


def test_too_many_tiles_for_the_width_are_shown_as_large_as_they_fit() -> None:
    scene = rendered(a_look(0, 20, 0.5))  # a whole hand cannot be half the frame a tile
    assert shown_width(scene) < 0.15
    assert_labels_fit(format_labels_of(scene), scene.tiles, scene.image.shape[1::-1])


def test_a_closeup_keeps_as_many_tiles_as_fit() -> None:
    placed = place_hand(HAND, np.random.default_rng(1))
    rng = np.random.default_rng(0)
    assert {len(closeup(placed, rng, 0.9)) for _ in range(20)} == {1}
    assert {len(closeup(placed, rng, 0.2)) for _ in range(60)} == {1, 2, 3}


# --- tile bodies with white, yellow, green and blue backs -------------------------------------------------

def test_bodies_are_drawn_in_white_yellow_green_and_blue() -> None:
    rng = np.random.default_rng(0)
    drawn = {draw_look(place_hand(HAND, rng), rng, {})[1].body for _ in range(60)}
    assert {"white", "yellow", "green", "blue"} <= drawn <= set(BACK_COLOURS) == set(BODIES)


@pytest.mark.parametrize("body", ["yellow", "blue"])
def test_face_down_tiles_show_the_body_colour(body: str) -> None:
    placed = place_hand(KONG_REQUEST["hand"], np.random.default_rng(0))
    scene = rendered(a_look(0, 10, 0.08, body), tiles=placed)
    backs = [tile for tile in scene.tiles if tile.code == BACK]
    assert len(backs) == 2
    for tile in backs:
        x, y = np.round(tile.top.mean(axis=0)).astype(int)
        r, g, b = scene.image[y, x].astype(int)
        assert (r > b + 60 and g > b + 40) if body == "yellow" else (b > r + 60)


# --- backgrounds: photographs and procedural wood, stone, felt, cloth, desks ------------------------------

def test_backgrounds_cover_photographs_and_every_procedural_kind() -> None:
    rng = np.random.default_rng(0)
    photos = {"a.jpg": np.zeros((4, 4, 3), np.uint8), "b.jpg": np.zeros((4, 4, 3), np.uint8)}
    drawn = [draw_background(rng, photos) for _ in range(200)]
    assert {kind for kind, _ in drawn} == {"photo", *KINDS} and {"felt", "wood", "stone", "cloth", "desk"} <= set(KINDS)
    assert {name for kind, name in drawn if kind == "photo"} == set(photos)
    assert all(kind != "photo" for kind, _ in (draw_background(rng, {}) for _ in range(50)))


def test_each_procedural_kind_draws_its_own_surface() -> None:
    surfaces = {kind: table_texture(np.random.default_rng(1), (60, 80), kind) for kind in KINDS}
    assert all(s.shape == (60, 80, 3) for s in surfaces.values())
    assert len({s.tobytes() for s in surfaces.values()}) == len(KINDS)


def test_a_photograph_lies_on_the_table() -> None:
    red = np.zeros((300, 400, 3), np.uint8)
    red[..., 0] = 200
    scene = rendered(a_look(background="photo", photo=red), tiles=place_hand(HAND, np.random.default_rng(1))[:2])
    r, g, b = scene.image[:40, :40].reshape(-1, 3).mean(axis=0)  # a corner of the frame: table, no tile
    assert r > 120 and g < 60 and b < 60


def write_photo_package(cache: Path) -> Path:
    root = cache / "pkgs" / PACKAGE
    (root / PHOTOS_DIR).mkdir(parents=True)
    for name, colour in (("sea_by_A.jpg", (20, 60, 200)), ("wood_by_B.jpg", (150, 100, 60)), ("nolicence.jpg", 0)):
        Image.new("RGB", (2400, 1600), colour).save(root / PHOTOS_DIR / name)
    doc = root / "usr/share/doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n"
        "Files: 16.04/sea_by_A.jpg\nCopyright: A, 2018\nLicense: CC-BY-4.0\n\n"
        "Files: 16.04/wood_by_B.jpg\nCopyright: B, 2018\nLicense: CC0-1.0\n\n"
        "License: CC-BY-4.0\n Attribution 4.0 International\n", encoding="utf-8")
    return root


def test_photo_licences_are_read_per_file() -> None:
    text = "Files: a/x.jpg b/y.jpg\nCopyright: Someone, 2018\nLicense: CC-BY-SA-4.0\n\nFiles: z.png\nLicense: CC0-1.0\n"
    assert photo_licences(text) == {"x.jpg": {"licence": "CC-BY-SA-4.0", "copyright": "Someone, 2018"},
                                    "y.jpg": {"licence": "CC-BY-SA-4.0", "copyright": "Someone, 2018"},
                                    "z.png": {"licence": "CC0-1.0", "copyright": ""}}


def test_art_builds_the_backgrounds_with_their_licences(tmp_path: Path) -> None:
    write_photo_package(tmp_path)  # unpacked already: nothing is downloaded
    (tmp_path / "faces" / "drawn").mkdir(parents=True)
    (tmp_path / "faces" / "drawn" / "source.json").write_text("{}")
    assert run_cli("art", "--cache", str(tmp_path), "--source", "drawn") == 0
    assert not (tmp_path / "backgrounds").exists()  # a named source builds only that
    folder = build_backgrounds(tmp_path)
    meta = json.loads((folder / "source.json").read_text())
    assert meta["package"] == PACKAGE and (folder / "copyright").is_file()
    licences = {p["file"]: p["licence"] for p in meta["photos"]}
    assert licences == {"sea_by_A.jpg": "CC-BY-4.0", "wood_by_B.jpg": "CC0-1.0"}  # the unlicensed one left out
    photos = load_backgrounds(tmp_path)
    assert sorted(photos) == ["sea_by_A.jpg", "wood_by_B.jpg"] and max(photos["sea_by_A.jpg"].shape) == 1600
    assert load_backgrounds(tmp_path / "elsewhere") == {} and load_backgrounds(None) == {}


# --- tile-like distractors as negatives ---------------------------------------------------------------------

def test_distractors_lie_on_the_table_and_are_recorded() -> None:
    kinds = set()
    for seed in range(4):
        scene = rendered(a_look(0, 20, 0.03), seed=seed)
        assert 1 <= len(scene.distractors) <= 6
        kinds |= set(scene.distractors)
    assert kinds <= set(DISTRACTORS) and len(kinds) >= 3


# --- faces: Japanese style, flower arts (red fives, 白, corner indices: test_evalsets.py) -------------------

def test_japanese_style_faces_differ_where_riichi_sets_do() -> None:
    chinese, japanese = drawn_faces(None), drawn_faces(None, "japanese")
    assert ink(japanese["5z"]).max() < 0.1 < ink(chinese["5z"]).max()  # a blank 白
    for code in ("2s", "5p"):  # blue sticks, red-centred dots
        assert not np.array_equal(japanese[code], chinese[code])
    assert np.array_equal(japanese["1z"], chinese["1z"])


def test_painted_flowers_are_one_picture_per_code() -> None:
    rng = np.random.default_rng(0)
    flowers = {code: painted_flower(code, rng) for code in FLOWERS}
    assert all(face.shape == (FACE_H, FACE_W, 3) and ink(face).mean() > 0.05 for face in flowers.values())
    def small(face: np.ndarray) -> np.ndarray:
        return cv2.resize(face, (12, 16), interpolation=cv2.INTER_AREA).astype(int)

    for a in FLOWERS:  # the motifs differ more than one motif's colours and placement between photos
        same = np.abs(small(flowers[a]) - small(painted_flower(a, rng))).mean()
        assert all(np.abs(small(flowers[a]) - small(flowers[b])).mean() > same for b in FLOWERS if b != a)


def test_flowers_come_from_other_art_or_painted_and_nothing_else_changes() -> None:
    faces, other = drawn_faces(None), drawn_faces(None, "japanese")
    other = {**other, **{code: np.full_like(other[code], 7) for code in FLOWERS}}
    seen = set()
    for seed in range(40):
        out, taken = randomise_faces(faces, np.random.default_rng(seed), [other])
        seen.add(taken.get("flowers", "art"))
        if taken.get("flowers") == "other" and "ink" not in taken and "corner_index" not in taken:
            assert all(np.array_equal(out[code], other[code]) for code in FLOWERS)
        if not {"style", "fives", "white", "corner_index", "ink"} & set(taken):
            assert all(np.array_equal(out[c], faces[c]) for c in faces if c not in FLOWERS)
    assert seen == {"art", "other", "painted"}


@pytest.mark.slow
def test_a_share_of_photos_take_the_japanese_set() -> None:
    japanese = drawn_faces(None, "japanese")
    styles = [randomise_faces(SETS["drawn"], np.random.default_rng(s), (), japanese)[1].get("style") for s in range(60)]
    assert 3 <= styles.count("japanese") <= 20


# --- lighting, shadows, glare, blur, noise and JPEG artefacts -----------------------------------------------

def test_effects_are_drawn_over_their_ranges() -> None:
    rng = np.random.default_rng(0)
    drawn = [draw_effects(rng) for _ in range(300)]
    assert 30 <= min(e.jpeg_quality for e in drawn) < 35 and max(e.jpeg_quality for e in drawn) > 90
    for field in ("glare", "cast_shadow", "blur"):  # sometimes none, sometimes some
        values = [getattr(e, field) for e in drawn]
        assert 0.1 < np.mean([v == 0 for v in values]) < 0.9
    assert min(e.exposure for e in drawn) < 0.7 and max(e.exposure for e in drawn) > 1.2
    assert max(e.noise for e in drawn) > 10


def effected(**change) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    image = np.full((120, 160, 3), 100, np.uint8)
    image[::2, ::2] = 140  # fine detail that blur takes away
    tops = np.zeros((120, 160), np.float32)
    tops[40:80, 60:100] = 1
    effects = Effects(**{**CALM.__dict__, **change})
    return image, tops, camera_effects(image, tops, effects, np.random.default_rng(0))


def test_calm_effects_leave_the_photo_alone() -> None:
    image, _, out = effected()
    assert np.array_equal(image, out)


def test_glare_whitens_a_spot_on_the_tile_tops_only() -> None:
    image, tops, out = effected(glare=1.0)
    lift = out.astype(int) - image
    assert lift[tops > 0].max() > 100 and lift[tops == 0].max() == 0


def test_exposure_shadow_blur_and_noise_each_change_the_photo() -> None:
    image, _, darker = effected(exposure=0.6)
    assert darker.mean() == pytest.approx(0.6 * image.mean(), rel=0.02)
    _, _, shaded = effected(cast_shadow=0.5)
    assert shaded.min() < 0.6 * image.min() and (shaded == image).any()  # part of the frame only
    _, _, blurred = effected(blur=2.0)
    assert cv2.Laplacian(blurred, cv2.CV_64F).var() < 0.1 * cv2.Laplacian(image, cv2.CV_64F).var()
    _, _, noisy = effected(noise=10.0)
    assert (noisy.astype(int) - image).std() > 7


# --- the whole randomised photo ----------------------------------------------------------------------------

@pytest.mark.slow
def test_randomised_examples_record_every_control_and_keep_labels_on_tiles() -> None:
    extras = Extras({"red.jpg": np.full((200, 300, 3), (200, 30, 30), np.uint8)}, drawn_faces(None, "japanese"))
    keys = set()
    for index, request in enumerate(hand_requests(6, 13)):
        example = render_example(index, 13, request, SETS, extras)
        assert_labels_fit(format_labels(example.boxes), example.scene.tiles, example.scene.image.shape[1::-1])
        assert example.scene.jpeg_quality == int(example.variants["jpeg"])
        keys |= set(example.variants)
    assert {"framing", "tile_width", "tile_width_wanted", "rotation", "tilt", "upside_down", "body", "background",
            "exposure", "glare", "cast_shadow", "blur", "noise", "jpeg", "distractors"} <= keys


def test_extras_without_a_cache_have_japanese_faces_and_no_photographs() -> None:
    extras = randomisation_extras(None)
    assert extras.photos == {} and ink(extras.japanese["5z"]).max() < 0.1


def test_cli_randomise_says_when_there_are_no_photographs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert run_cli("synth", "--randomise", "--n", "2", "--out", str(tmp_path / "out"), "--seed", "4", "--workers", "1",
                   "--art-cache", str(tmp_path / "no-cache")) == 0
    assert "no background photographs" in capsys.readouterr().err
    meta = json.loads((tmp_path / "out" / "images" / "synth_000001.json").read_text())
    assert not meta["variants"]["background"].startswith("photo")
