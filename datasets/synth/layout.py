"""A score request's hand laid out on the table the way players reveal a winning hand.

Table units are tile widths; +x runs right and +y away from the camera. The concealed row is farthest
(lying face up or standing toward the camera), exposed melds lie in a row in front of it or continue its
line after a gap, concealed kongs show their two middle tiles face down (sometimes the two outer ones),
and flowers are set apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fanshot.scoring.tiles import BACK, parse

FLAT, DOWN, STANDING = "flat", "down", "standing"
DEPTH = 1.75  # row pitch: a lying tile's length plus some room


@dataclass(frozen=True)
class Placed:
    """One tile on the table: its detector class (`back` when face down), pose, centre and turn (radians)."""

    code: str
    pose: str
    x: float
    y: float
    turn: float


def hand_groups(hand: dict[str, Any], rng: np.random.Generator) -> tuple[list[str], list[list[str]], list[str]]:
    """(concealed row, melds as shown, flowers): face-down tiles of concealed kongs become `back`."""
    concealed = parse(hand["concealed"])
    winning = hand.get("winning_tile")
    if winning in concealed and rng.random() < 0.5:  # the winning tile often sits at the end of the row
        concealed.remove(winning)
        concealed.append(winning)
    melds = []
    for meld in hand.get("melds", []):
        tiles = parse(meld["tiles"])
        if meld.get("concealed"):
            hidden = (1, 2) if rng.random() < 0.8 else (0, 3)
            tiles = [BACK if i in hidden else code for i, code in enumerate(tiles)]
        melds.append(tiles)
    flowers = parse(hand.get("flowers", ""), allow_flowers=True)
    return concealed, melds, flowers


def place_hand(hand: dict[str, Any], rng: np.random.Generator) -> list[Placed]:
    """Every tile of the hand placed on the table, centred on the origin."""
    concealed, melds, flowers = hand_groups(hand, rng)
    standing = rng.random() < 0.35
    placed = _row(concealed, 0.0, 0.0, STANDING if standing else FLAT, rng)
    meld_row = rng.random() < 0.6 or not concealed
    x = float(rng.uniform(-1, 2)) if meld_row else len(concealed) + float(rng.uniform(0.4, 1.2))
    y = -(DEPTH + standing * 0.8) if meld_row else 0.0  # room for the standing row's faces
    for tiles in melds:
        placed += _row(tiles, x, y, FLAT, rng)
        x += len(tiles) + float(rng.uniform(0.3, 0.9))
    if flowers:
        x, y = (x + float(rng.uniform(0.6, 1.5)), y) if rng.random() < 0.5 else (float(rng.uniform(-1, 3)), y - DEPTH)
        placed += _row(flowers, x, y, FLAT, rng)
    return _centred(placed)


def scatter_tiles(placed: Sequence[Placed], rng: np.random.Generator, flat_share: float = 0.25) -> list[Placed]:
    """The same tiles as a table shows them mid-game rather than revealed: standing upright, scattered in short
    runs and alone, each turned a little (up to ±35°, still facing the camera), a `flat_share` lying face up;
    face-down tiles stay down. Centred on the origin."""
    spots: list[tuple[float, float]] = []
    out: list[Placed] = []
    side = 2.4 * np.sqrt(len(placed)) + 2  # the area they scatter over, in tile widths
    x = y = turn = 0.0
    for tile in placed:
        in_run = bool(spots) and rng.random() < 0.45  # the next tile of a run: beside the last, turned with it
        if in_run:
            x, y = x + np.cos(turn) * 1.05, y + np.sin(turn) * 1.05
            in_run = all(np.hypot(x - a, y - b) > 1.0 for a, b in spots[:-1])
        if not in_run:
            for _ in range(50):  # alone: clear of the others
                x, y = rng.uniform(0, side, 2)
                if all(np.hypot(x - a, y - b) > 1.7 for a, b in spots):
                    break
            turn = float(rng.uniform(-0.6, 0.6))
        pose = tile.pose if tile.pose == DOWN else FLAT if rng.random() < flat_share else STANDING
        spots.append((x, y))
        out.append(Placed(tile.code, pose, float(x), float(y), turn))
    return _centred(out)


def _row(codes: Sequence[str], x0: float, y: float, pose: str, rng: np.random.Generator) -> list[Placed]:
    """Tiles side by side from x0, nearly touching, each a little off line."""
    gaps = np.cumsum(rng.uniform(0.01, 0.06, len(codes)))
    jitter = rng.normal(0, 0.02, (len(codes), 3))
    return [Placed(code, DOWN if code == BACK else pose, x0 + i + 0.5 + gaps[i] + jitter[i, 0], y + jitter[i, 1],
                   jitter[i, 2]) for i, code in enumerate(codes)]


def _centred(placed: list[Placed]) -> list[Placed]:
    xs, ys = [p.x for p in placed], [p.y for p in placed]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return [Placed(p.code, p.pose, p.x - cx, p.y - cy, p.turn) for p in placed]
