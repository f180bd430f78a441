"""What `fanshot synth --randomise` draws for one photo beyond the faces (variants.py): the framing and tile
width, the camera's quarter-turn roll and tilt, tiles turned upside down, the body colour, the background, the
photo effects. Pure draws from the photo's own random stream; scene.render applies the resulting Look."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from fanshot.datasets.synth.layout import FLAT, STANDING, Placed, scatter_tiles
from fanshot.datasets.synth.scene import Effects, Look
from fanshot.datasets.synth.textures import KINDS

# Tile width as a share of the frame's shorter side, by framing: a whole hand; a hand small in the frame; a
# close-up of one to three tiles, up to one filling it.
FRAMINGS = {"hand": (0.04, 0.1), "small": (0.02, 0.04), "closeup": (0.12, 0.9)}
FRAMING_SHARES = {"hand": 0.6, "small": 0.2, "closeup": 0.2}
MAX_TILT = 60.0  # degrees from straight down
STANDING_TILT = 35.0  # a standing row is seen from low: its faces look sideways
# The four back colours the issue names, most often; the others of BACK_COLOURS now and then.
BODIES = {"white": 0.2, "yellow": 0.2, "green": 0.2, "blue": 0.2, "orange": 0.1, "dark green": 0.1}
UPSIDE_DOWN = 0.15  # the chance that a flat tile lies turned 180°
PHOTO_SHARE = 0.35  # the share of backgrounds that are photographs, when there are any
# Scattered tiles (`--scatter`) as a player at the table photographs them: from low, mostly upright, on felt
# (else any background), the table's rail across the far side, the frame cutting tiles at its edges.
SCATTER_TILT = (45.0, 70.0)
SCATTER_FRAMINGS = {"hand": 0.7, "small": 0.3}
SCATTER_FELT = 0.6
SCATTER_RAIL = 0.7
SCATTER_CUT = 0.5


def draw_view(rng: np.random.Generator, standing: bool, tile_width: float = 0.0) -> tuple[int, float]:
    """The camera's roll in quarter turns (0-3: the tiles show turned 0, 90, 180 or 270°) and its tilt from
    straight down in degrees: up to MAX_TILT, less for larger tiles (a tile that fills the frame is shot from
    above, or its body would not fit), from STANDING_TILT for a standing row."""
    low = STANDING_TILT if standing else 0.0
    return int(rng.integers(4)), float(rng.uniform(low, max(low, MAX_TILT * (1 - tile_width))))


def draw_tile_width(rng: np.random.Generator, shares: Mapping[str, float] = FRAMING_SHARES
                    ) -> tuple[str, float]:
    """A framing (keys of FRAMINGS, drawn by `shares`) and a tile width in its range (log-uniform)."""
    framing = str(rng.choice(list(shares), p=list(shares.values())))
    low, high = FRAMINGS[framing]
    return framing, float(np.exp(rng.uniform(np.log(low), np.log(high))))


def closeup(placed: Sequence[Placed], rng: np.random.Generator, tile_width: float) -> list[Placed]:
    """One to three neighbouring tiles of the hand, as many as fit across the frame at `tile_width`."""
    most = int(np.clip(1.2 / tile_width, 1, 3))
    start = int(rng.integers(len(placed)))
    return list(placed[start:start + int(rng.integers(1, most + 1))])


def upside_down(placed: Sequence[Placed], rng: np.random.Generator) -> tuple[list[Placed], int]:
    """Some flat tiles turned 180° (players lay tiles either way up); how many."""
    turned = [tile.pose == FLAT and rng.random() < UPSIDE_DOWN for tile in placed]
    out = [Placed(t.code, t.pose, t.x, t.y, t.turn + np.pi) if flip else t
           for t, flip in zip(placed, turned, strict=True)]
    return out, sum(turned)


def draw_effects(rng: np.random.Generator) -> Effects:
    """Light from dim to bright and warm to cool, glare, a cast shadow, missed focus, noise, JPEG 30-95."""
    return Effects(exposure=float(rng.uniform(0.6, 1.25)),
                   white_balance=tuple(float(v) for v in rng.uniform(0.85, 1.15, 3)),
                   glare=float(rng.uniform(0.5, 1.0)) if rng.random() < 0.35 else 0.0,
                   cast_shadow=float(rng.uniform(0.2, 0.5)) if rng.random() < 0.25 else 0.0,
                   blur=float(rng.uniform(0.8, 2.5)) if rng.random() < 0.25 else 0.0,
                   noise=float(rng.uniform(0, 12)),
                   jpeg_quality=int(rng.integers(30, 96)))


def draw_background(rng: np.random.Generator, photos: Mapping[str, np.ndarray]) -> tuple[str, str | None]:
    """A procedural kind (KINDS) or, PHOTO_SHARE of the time when there are photographs, "photo" and its name."""
    if photos and rng.random() < PHOTO_SHARE:
        return "photo", sorted(photos)[int(rng.integers(len(photos)))]
    return str(rng.choice(sorted(KINDS))), None


def draw_look(placed: Sequence[Placed], rng: np.random.Generator, photos: Mapping[str, np.ndarray]
              ) -> tuple[list[Placed], Look, dict[str, str]]:
    """The tiles to show (a close-up keeps one to three, some lie upside down), the Look that renders them, and
    what was drawn (for the sidecar)."""
    framing, tile_width = draw_tile_width(rng)
    tiles = closeup(placed, rng, tile_width) if framing == "closeup" else list(placed)
    tiles, turned = upside_down(tiles, rng)
    quarter_turns, tilt = draw_view(rng, any(tile.pose == STANDING for tile in tiles), tile_width)
    body = str(rng.choice(list(BODIES), p=list(BODIES.values())))
    background, photo = draw_background(rng, photos)
    effects = draw_effects(rng)
    look = Look(quarter_turns, tilt, tile_width, body, background, photos[photo] if photo else None, rng, effects)
    view, rest = _described(look, framing, photo)
    return tiles, look, {**view, "upside_down": str(turned), **rest}


def _described(look: Look, framing: str, photo: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """A look's draws for the sidecar: the view (framing, width, roll, tilt), then the rest."""
    view = {"framing": framing, "tile_width_wanted": f"{look.tile_width:.3f}",
            "rotation": str(90 * look.quarter_turns), "tilt": f"{look.tilt:.0f}"}
    effects = look.effects
    rest = {"body": look.body, "background": f"photo:{photo}" if photo else look.background,
            "exposure": f"{effects.exposure:.2f}", "glare": f"{effects.glare:.2f}",
            "cast_shadow": f"{effects.cast_shadow:.2f}", "blur": f"{effects.blur:.1f}",
            "noise": f"{effects.noise:.1f}", "jpeg": str(effects.jpeg_quality)}
    return view, rest


def draw_scatter_look(placed: Sequence[Placed], rng: np.random.Generator, photos: Mapping[str, np.ndarray]
                      ) -> tuple[list[Placed], Look, dict[str, str]]:
    """`draw_look` for scattered tiles (layout.scatter_tiles): a hand or small framing, the camera low and
    mostly upright, felt most often, the rail and cut edges now and then."""
    framing, tile_width = draw_tile_width(rng, SCATTER_FRAMINGS)
    tiles = scatter_tiles(placed, rng)
    quarter_turns = int(rng.choice(4, p=[0.85, 0.06, 0.03, 0.06]))
    tilt = float(rng.uniform(*SCATTER_TILT))
    body = str(rng.choice(list(BODIES), p=list(BODIES.values())))
    background, photo = ("felt", None) if rng.random() < SCATTER_FELT else draw_background(rng, photos)
    effects = draw_effects(rng)
    rail, cut = bool(rng.random() < SCATTER_RAIL), bool(rng.random() < SCATTER_CUT)
    look = Look(quarter_turns, tilt, tile_width, body, background, photos[photo] if photo else None, rng, effects,
                rail=rail, cut_edges=cut)
    view, rest = _described(look, framing, photo)
    return tiles, look, {"layout": "scatter", **view, "standing": str(sum(t.pose == STANDING for t in tiles)),
                         "rail": str(rail), "cut_edges": str(cut), **rest}
