"""Synthetic renderer: art mappings, layout, labels against the rendered scene, determinism, CLI. Offline:
faces are the drawn set (no CJK font needed), everything is written under tmp_path."""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.synth import art, cli
from fanshot.datasets.synth.art import (
    KMAHJONGG_IDS,
    REAL_GIF_ORDER,
    UNICODE_TILES,
    XMAHJONGG_ORDERS,
    Source,
    build_cache,
    gnome_order,
    write_contact_sheets,
)
from fanshot.datasets.synth.dataset import (
    hand_requests,
    has_concealed_kong,
    jitter_box,
    randomisation_extras,
    render_example,
    sidecar,
    synth_dataset,
)
from fanshot.datasets.synth.drawn import drawn_faces
from fanshot.datasets.synth.faces import FACE_CODES, FACE_H, FACE_W, grid_faces, load_face_sets, save_face_set
from fanshot.datasets.synth.hands import corpus
from fanshot.datasets.synth.layout import place_hand
from fanshot.datasets.synth.scene import RenderedTile
from fanshot.datasets.yolo import format_labels, parse_labels
from fanshot.scoring.score import score
from fanshot.scoring.tiles import BACK, parse

SETS = {"drawn": drawn_faces(None)}
KONG_REQUEST = {"ruleset": "jipinghu", "hand": {
    "concealed": "123m456p789s11z", "winning_tile": "1z",
    "melds": [{"kind": "kong", "tiles": "5555s", "concealed": True}]}, "context": {"win": "self_draw"}}


def hand_size(hand: dict) -> int:
    return (len(parse(hand["concealed"])) + sum(len(parse(m["tiles"])) for m in hand.get("melds", []))
            + len(parse(hand.get("flowers", ""), allow_flowers=True)))


def test_art_mappings_cover_every_face_once() -> None:
    assert sorted(KMAHJONGG_IDS) == sorted(FACE_CODES) == sorted(UNICODE_TILES)
    for order in (REAL_GIF_ORDER, gnome_order(["2f", "3f", "1f", "4f"], ["5f", "6f", "7f", "8f"])):
        codes = [code for code in order if code]
        assert sorted(codes) == sorted(FACE_CODES)
    # the pitfalls: kmahjongg winds run N S E W and ROD is dots; Unicode puts bamboo before dots
    assert [KMAHJONGG_IDS[c] for c in ("1z", "2z", "3z", "4z")] == ["WIND_3", "WIND_2", "WIND_4", "WIND_1"]
    assert KMAHJONGG_IDS["3p"] == "ROD_3"
    assert (UNICODE_TILES["1s"], UNICODE_TILES["1p"], UNICODE_TILES["7z"], UNICODE_TILES["4f"]) == (
        0x1F010, 0x1F019, 0x1F004, 0x1F024)
    assert len(REAL_GIF_ORDER) == 45 and REAL_GIF_ORDER[9 * 3 + 4:9 * 3 + 8] == ["4z", "2z", "1z", "3z"]


@pytest.mark.parametrize("sheet", sorted(XMAHJONGG_ORDERS))
def test_xmahjongg_orders_fill_two_rows_of_21_and_name_each_face_once(sheet: str) -> None:
    order = XMAHJONGG_ORDERS[sheet]
    codes = [code for code in order if code]
    assert len(order) == 42 and len(codes) == len(set(codes))
    lacking = set(FACE_CODES) - set(codes)
    assert lacking == (set() if sheet == "dorothys" else {code for code in FACE_CODES if code.endswith("f")})


def test_a_set_lacking_flowers_borrows_them_and_its_lender_is_built_first(tmp_path: Path, monkeypatch) -> None:
    flowers = [code for code in FACE_CODES if code.endswith("f")]
    lender = Source("lender", "pkg", "a", "MIT", "us", lambda _: dict(SETS["drawn"]))
    borrower = Source("borrower", "pkg", "b", "MIT", "us",
                      lambda _: {code: np.zeros((FACE_H, FACE_W, 3), np.uint8) for code in FACE_CODES
                                 if code not in flowers}, borrow="lender")
    monkeypatch.setattr(art, "SOURCES", (lender, borrower))
    monkeypatch.setattr(art, "SOURCE_NAMES", ("lender", "borrower"))
    (tmp_path / "pkgs" / "pkg").mkdir(parents=True)  # already unpacked: nothing is fetched

    assert [folder.name for folder in build_cache(tmp_path, ["borrower"])] == ["lender", "borrower"]
    built = load_face_sets(tmp_path / "faces")
    assert all(np.array_equal(built["borrower"][code], SETS["drawn"][code]) for code in flowers)
    assert not built["borrower"]["1m"].any()
    assert json.loads((tmp_path / "faces" / "borrower" / "source.json").read_text())["borrow"] == "lender"
    assert [folder.name for folder in build_cache(tmp_path, ["borrower"])] == ["borrower"]  # the lender is cached


def test_grid_faces_reads_cells_row_by_row() -> None:
    sheet = np.zeros((5 * 20, 9 * 10, 3), np.uint8)
    for i in range(45):
        sheet[(i // 9) * 20:(i // 9 + 1) * 20, (i % 9) * 10:(i % 9 + 1) * 10] = i
    faces = grid_faces(sheet, REAL_GIF_ORDER, 9, (10, 20), (0.1, 0.1, 0.9, 0.9))
    assert faces["1p"].shape == (FACE_H, FACE_W, 3)
    assert {code: int(faces[code][0, 0, 0]) for code in ("1p", "1s", "1m", "4z", "1f", "5z")} == {
        "1p": 0, "1s": 9, "1m": 18, "4z": 31, "1f": 36, "5z": 41}


def test_face_sets_round_trip_and_incomplete_sets_are_ignored(tmp_path: Path) -> None:
    save_face_set(tmp_path / "drawn", SETS["drawn"], {"name": "drawn"})
    save_face_set(tmp_path / "partial", {"1m": SETS["drawn"]["1m"]}, {"name": "partial"})
    loaded = load_face_sets(tmp_path)
    assert list(loaded) == ["drawn"]
    assert all(np.array_equal(loaded["drawn"][c], SETS["drawn"][c]) for c in FACE_CODES)


def test_drawn_faces_are_distinct() -> None:
    faces = SETS["drawn"]
    assert sorted(faces) == sorted(FACE_CODES)
    assert len({face.tobytes() for face in faces.values()}) == len(FACE_CODES)


def test_concealed_kong_shows_two_backs() -> None:
    score(KONG_REQUEST)  # a legal hand
    codes = [tile.code for tile in place_hand(KONG_REQUEST["hand"], np.random.default_rng(0))]
    assert codes.count(BACK) == 2 and codes.count("5s") == 2
    example = render_example(0, 0, KONG_REQUEST, SETS)
    assert [box.cls for box in example.boxes].count(CLASS_INDEX[BACK]) == 2
    assert sidecar(example)["backs"] == 2 and sidecar(example)["tiles"] == "123m456p55789s11z"


@pytest.mark.parametrize("seed", [1, 2])
def test_layouts_never_hold_a_fifth_copy(seed: int) -> None:
    for request in corpus(40, seed):
        score(request)
        tiles = place_hand(request["hand"], np.random.default_rng(seed))
        assert len(tiles) == hand_size(request["hand"])
        assert max(Counter(t.code for t in tiles if t.code != BACK).values()) <= 4


def test_a_share_of_requests_have_concealed_kongs() -> None:
    requests = hand_requests(60, 3)
    assert requests[:5] == hand_requests(5, 3)
    assert 10 <= sum(map(has_concealed_kong, requests)) <= 35
    kept = [r for r, c in zip(requests, corpus(60, 3), strict=True) if r == c]
    assert len(kept) >= 30
    for request in requests:
        score(request)


def assert_labels_fit(text: str, tiles: list[RenderedTile], size: tuple[int, int]) -> None:
    """Each label line has its tile's class and exactly the bounding box of the side on top (face or back, as
    the real photos are labelled; not the tile's body), inside the image."""
    w, h = size
    labels = parse_labels(text, "labels", len(CLASSES))
    assert len(labels) == len(tiles)
    tol = 2e-6  # label files keep six decimals
    for tile, box in zip(tiles, labels, strict=True):
        assert CLASSES[box.cls] == tile.code
        (x1, y1), (x2, y2) = tile.corners.min(axis=0) / [w, h], tile.corners.max(axis=0) / [w, h]
        assert min(x1, y1) >= 0 and max(x2, y2) <= 1  # the whole tile is in the picture
        (x1, y1), (x2, y2) = tile.top.min(axis=0) / [w, h], tile.top.max(axis=0) / [w, h]
        assert box.cx - box.w / 2 <= x1 + tol and box.cx + box.w / 2 >= x2 - tol
        assert box.cy - box.h / 2 <= y1 + tol and box.cy + box.h / 2 >= y2 - tol
        assert box.w <= x2 - x1 + 2 * tol and box.h <= y2 - y1 + 2 * tol


@pytest.mark.slow
def test_written_labels_match_the_rendered_scene(tmp_path: Path) -> None:
    synth_dataset(tmp_path, 5, 11, workers=1)
    for index, request in enumerate(hand_requests(5, 11)):
        scene = render_example(index, 11, request, SETS).scene
        text = (tmp_path / "labels" / f"synth_{index:06d}.txt").read_text()
        assert_labels_fit(text, scene.tiles, scene.image.shape[1::-1])
        assert len(scene.tiles) == hand_size(request["hand"])
    example = render_example(0, 11, KONG_REQUEST, SETS)
    assert_labels_fit(format_labels(example.boxes), example.scene.tiles, example.scene.image.shape[1::-1])


def test_label_boxes_leave_out_the_tile_body() -> None:
    """The label box is the face (or back) alone: inside the tile's silhouette, and over a photo clearly
    smaller than the silhouettes (a tile right under the camera may hide its body behind its face)."""
    for index, request in enumerate([*corpus(3, 8), KONG_REQUEST]):
        label_area = silhouette_area = 0.0
        for tile in render_example(index, 8, request, SETS).scene.tiles:
            (sx1, sy1), (sx2, sy2) = tile.corners.min(axis=0), tile.corners.max(axis=0)
            x1, y1, x2, y2 = tile.box
            assert sx1 <= x1 and sy1 <= y1 and x2 <= sx2 and y2 <= sy2
            label_area += (x2 - x1) * (y2 - y1)
            silhouette_area += (sx2 - sx1) * (sy2 - sy1)
        assert label_area < 0.95 * silhouette_area


def test_tiles_are_drawn_where_their_labels_are() -> None:
    example = render_example(3, 4, corpus(4, 4)[3], SETS)
    image = example.scene.image.astype(np.int16)
    for tile in example.scene.tiles:
        x1, y1, x2, y2 = (round(v) for v in tile.box)
        inside = image[y1:y2, x1:x2].reshape(-1, 3)
        assert inside.std(axis=0).max() > 10  # a tile's art and edges, not flat table


@pytest.mark.slow
def test_synth_is_deterministic_per_seed(tmp_path: Path) -> None:
    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    synth_dataset(tmp_path / "a", 2, 5, workers=1)
    synth_dataset(tmp_path / "b", 2, 5, workers=2)
    synth_dataset(tmp_path / "c", 2, 6, workers=1)
    a, b, c = (files(tmp_path / name) for name in "abc")
    assert a == b
    assert a["labels/synth_000000.txt"] != c["labels/synth_000000.txt"]
    meta = json.loads(a["images/synth_000001.json"])
    assert meta["request"] == hand_requests(2, 5)[1] and meta["art"] == "drawn"
    score(meta["request"])


def test_crops_follow_the_labels(tmp_path: Path) -> None:
    tiles = synth_dataset(tmp_path / "out", 2, 8, crops=tmp_path / "crops", workers=1)
    crops = sorted((tmp_path / "crops").glob("*/*.png"))
    assert len(crops) == tiles
    assert {p.parent.name for p in crops} <= set(CLASSES)


def test_jitter_box_stays_near_the_box_and_inside_the_image() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        x1, y1, x2, y2 = jitter_box((100, 50, 140, 103), rng, (1000, 800))
        assert abs(x1 - 100) <= 4 and abs(x2 - 140) <= 4 and abs(y1 - 50) <= 5 and abs(y2 - 103) <= 5
    assert jitter_box((0, 0, 40, 53), rng, (40, 53))[:2] == (0, 0)


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="fanshot")
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.run(args)


def test_cli_synth_and_contact_sheet(tmp_path: Path) -> None:
    assert run_cli("synth", "--n", "1", "--out", str(tmp_path / "out"), "--seed", "3", "--workers", "1",
                   "--art-cache", str(tmp_path / "no-cache")) == 0
    assert (tmp_path / "out" / "labels" / "synth_000000.txt").read_text()
    save_face_set(tmp_path / "cache" / "faces" / "drawn", SETS["drawn"], {"name": "drawn"})
    assert run_cli("art", "--cache", str(tmp_path / "cache"), "--source", "drawn",
                   "--contact-sheet", str(tmp_path / "sheet.png")) == 0
    assert (tmp_path / "sheet.png").stat().st_size > 10_000


def test_contact_sheets_need_a_filled_cache(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no face sets"):
        write_contact_sheets(tmp_path, tmp_path / "sheet.png")


@pytest.mark.slow
def test_randomised_photos_vary_framing_and_faces_but_not_the_plain_ones() -> None:
    request = corpus(1, 3)[0]
    plain = render_example(0, 3, request, SETS)
    assert plain.variants == {} and "variants" not in sidecar(plain)
    framings = Counter()
    for index in range(12):
        example = render_example(index, 3, request, SETS, randomisation_extras(None))
        framings[example.variants["framing"]] += 1
        assert sidecar(example)["variants"] == example.variants
        assert_labels_fit(format_labels(example.boxes), example.scene.tiles, example.scene.image.shape[1::-1])
        if example.variants["framing"] == "closeup":
            assert 1 <= len(example.scene.tiles) <= 3
            assert float(example.variants["tile_width"]) > 0.1  # a close-up's tiles are large in the frame
    assert set(framings) == {"hand", "small", "closeup"}


# Plain `fanshot synth` output recorded before `--randomise` grew (2026-12-01): other sets and the shipped
# models' records depend on plain renders staying the same for a seed. Labels by hash; images by their mean
# colour, to 0.5 (OpenCV builds may differ in the last bit of a pixel, a changed random draw moves it more).
PLAIN_SEED_21 = [("1e89b374aa211ebc", (768, 1024), (77.39, 60.83, 52.84), 72),
                 ("125ed191419f9dc6", (960, 960), (137.02, 42.03, 50.85), 69),
                 ("922142fd7149c306", (768, 1024), (155.49, 178.97, 156.27), 66),
                 ("554ab9cfd6765085", (640, 1024), (226.72, 231.51, 175.27), 58)]


def test_plain_renders_are_unchanged_by_randomisation_features() -> None:
    for index, request in enumerate(hand_requests(4, 21)):
        example = render_example(index, 21, request, SETS)
        labels, size, mean, quality = PLAIN_SEED_21[index]
        assert hashlib.sha256(format_labels(example.boxes).encode()).hexdigest()[:16] == labels
        assert example.scene.image.shape[:2] == size and example.scene.jpeg_quality == quality
        assert np.abs(example.scene.image.reshape(-1, 3).mean(axis=0) - mean).max() < 0.5
