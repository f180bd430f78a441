"""`fanshot synth --scatter`: tiles as a table shows them mid-game (issue 40): standing, scattered, seen from
low, on felt, the table's rail across the far side, the frame cutting tiles at its edges; labels stay on the
faces that show."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from fanshot.datasets.synth.dataset import hand_requests, randomisation_extras, render_example
from fanshot.datasets.synth.layout import DOWN, FLAT, STANDING, Placed, place_hand, scatter_tiles
from fanshot.datasets.synth.looks import FRAMINGS, SCATTER_TILT, draw_scatter_look
from fanshot.datasets.synth.scene import RenderedTile, Scene, cut_edges, render
from fanshot.scoring.tiles import BACK
from tests.datasets.test_synth import KONG_REQUEST, SETS, run_cli
from tests.datasets.test_synth_randomise import a_look, assert_tiles_where_labelled

HAND = KONG_REQUEST["hand"]  # a concealed kong: two of its tiles lie face down
HAND_TILES = place_hand(HAND, np.random.default_rng(0))


def scattered(seed: int) -> list[Placed]:
    rng = np.random.default_rng(seed)
    return scatter_tiles(place_hand(HAND, rng), rng)


def test_scattered_tiles_keep_their_codes_and_stand_apart() -> None:
    for seed in range(20):
        placed = place_hand(HAND, np.random.default_rng(seed))
        tiles = scatter_tiles(placed, np.random.default_rng(seed))
        assert [t.code for t in tiles] == [t.code for t in placed]
        assert all((t.pose == DOWN) == (t.code == BACK) for t in tiles)
        assert all(abs(t.turn) <= 0.6 for t in tiles)  # faces still toward the camera
        centres = np.array([(t.x, t.y) for t in tiles])
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(tiles)) * 9
        assert gaps.min() > 0.99  # side by side at the closest, never one inside another


def test_most_scattered_tiles_stand_and_some_lie_face_up() -> None:
    poses = [t.pose for seed in range(20) for t in scattered(seed) if t.code != BACK]
    standing, flat = poses.count(STANDING) / len(poses), poses.count(FLAT) / len(poses)
    assert 0.6 < standing < 0.9 and 0.1 < flat < 0.4


def test_scatter_looks_are_low_hand_or_small_and_recorded() -> None:
    rng = np.random.default_rng(3)
    for _ in range(40):
        tiles, look, drawn = draw_scatter_look(place_hand(HAND, rng), rng, {})
        assert SCATTER_TILT[0] <= look.tilt <= SCATTER_TILT[1]
        low, high = FRAMINGS[drawn["framing"]]
        assert drawn["framing"] in ("hand", "small") and low <= look.tile_width <= high
        assert drawn["layout"] == "scatter" and drawn["rail"] == str(look.rail)
        assert int(drawn["standing"]) == sum(t.pose == STANDING for t in tiles)


def test_standing_scattered_tiles_render_with_labels_on_their_faces() -> None:
    scene = render(scattered(1), SETS["drawn"], np.random.default_rng(5), a_look(tilt=60.0, tile_width=0.06))
    assert len(scene.tiles) == len(HAND_TILES)
    assert_tiles_where_labelled(scene)


def test_the_rail_is_drawn_past_the_tiles_and_leaves_them_alone() -> None:
    look = a_look(tilt=65.0, tile_width=0.04)
    plain = render(scattered(2), SETS["drawn"], np.random.default_rng(5), look)
    railed = render(scattered(2), SETS["drawn"], np.random.default_rng(5), replace(look, rail=True))
    changed = np.abs(plain.image.astype(int) - railed.image.astype(int)).max(axis=2) > 40
    assert changed.mean() > 0.02  # a band of the frame is rail or room now
    assert [t.box for t in railed.tiles] == [t.box for t in plain.tiles]
    assert_tiles_where_labelled(railed)


def _scene(boxes: list[tuple[float, float, float, float]]) -> Scene:
    tiles = [RenderedTile("1m", np.zeros((8, 2)), np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))
             for x1, y1, x2, y2 in boxes]
    return Scene(np.zeros((100, 200, 3), np.uint8), tiles, 90)


class _Fixed:
    """A stand-in rng: crops to 70 % of each side from the corner (0, 0)."""

    def uniform(self, low: float, high: float) -> float:
        return 0.7

    def integers(self, low: int, high: int) -> int:
        return 0


def test_a_cut_tile_keeps_its_label_when_most_of_it_shows_and_a_sliver_goes_unlabelled() -> None:
    inside, most, sliver = (10, 10, 30, 40), (120, 10, 145, 40), (136, 50, 156, 80)  # the crop is 140 × 70
    cut = cut_edges(_scene([inside, most, sliver]), _Fixed())
    assert cut.image.shape == (70, 140, 3)
    assert [t.box for t in cut.tiles] == [(10, 10, 30, 40), (120, 10, 140, 40)]


def test_no_crop_is_taken_that_leaves_a_tile_half_shown_or_keeps_none() -> None:
    for boxes in ([(10, 10, 30, 40), (130, 10, 150, 40)], [(150, 80, 170, 95)]):  # half shown; wholly outside
        scene = _scene(boxes)
        assert cut_edges(scene, _Fixed()) is scene


def assert_boxes_inside(scene: Scene) -> None:
    """Every label box has an area and lies in the frame (a cut tile's body may not)."""
    h, w = scene.image.shape[:2]
    for tile in scene.tiles:
        x1, y1, x2, y2 = tile.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h


def test_cut_photos_keep_every_label_inside_the_frame() -> None:
    look = replace(a_look(tilt=55.0, tile_width=0.06), cut_edges=True)
    counts = []
    for seed in range(6):
        scene = render(scattered(seed), SETS["drawn"], np.random.default_rng(seed), look)
        assert_boxes_inside(scene)
        counts.append(len(scene.tiles))
    assert min(counts) > 0 and max(counts) <= len(HAND_TILES) and min(counts) < len(HAND_TILES)


@pytest.mark.slow
def test_scattered_examples_record_the_layout_and_keep_labels_on_tiles() -> None:
    extras = replace(randomisation_extras(None), scatter=True)
    for index, request in enumerate(hand_requests(6, 17)):
        example = render_example(index, 17, request, SETS, extras)
        assert example.variants["layout"] == "scatter" and len(example.boxes) == len(example.scene.tiles)
        assert_boxes_inside(example.scene)


def test_cli_scatter_writes_scattered_photos(tmp_path: Path) -> None:
    assert run_cli("synth", "--scatter", "--n", "2", "--out", str(tmp_path / "out"), "--seed", "4", "--workers", "1",
                   "--art-cache", str(tmp_path / "no-cache")) == 0
    meta = json.loads((tmp_path / "out" / "images" / "synth_000001.json").read_text())
    assert meta["variants"]["layout"] == "scatter"
