"""Procedural table surfaces (felt, wood, cloth, stone, desk laminate), drawn in table coordinates; no image files
needed. Plain renders draw from felt, wood, cloth and stone only (their output must not change); `--randomise`
names any of KINDS."""

from __future__ import annotations

import cv2
import numpy as np

FELT = ((30, 110, 60), (25, 90, 120), (120, 30, 40), (70, 70, 75), (20, 60, 40), (150, 60, 70))
WOOD = ((150, 100, 60), (110, 70, 40), (190, 150, 105), (90, 55, 35))
CLOTH = ((200, 200, 195), (160, 40, 40), (40, 60, 110), (210, 190, 150), (60, 90, 70))
STONE = ((215, 212, 205), (160, 160, 165), (60, 60, 65), (225, 220, 210))
DESK = ((236, 236, 232), (190, 190, 188), (38, 38, 42), (205, 178, 140), (120, 120, 125), (230, 225, 210))
PLAIN_KINDS = ("felt", "felt", "wood", "cloth", "stone")


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1]: a coarse random grid, upsampled smoothly."""
    coarse = rng.uniform(-1, 1, (cells, cells)).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def table_texture(rng: np.random.Generator, shape: tuple[int, int], kind: str | None = None) -> np.ndarray:
    """An RGB float32 surface of `shape` (height, width) pixels, in 0..255: of `kind` (one of KINDS), or of a
    plain render's kinds drawn from `rng`."""
    kind = kind or str(rng.choice(list(PLAIN_KINDS)))
    return KINDS[kind](rng, shape)


def _colour(rng: np.random.Generator, palette: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    base = np.float32(palette[rng.integers(len(palette))])
    return np.clip(base * rng.uniform(0.8, 1.15, 3), 0, 255).astype(np.float32)


def _felt(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    grain = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 0.8)
    yy, xx = np.mgrid[:shape[0], :shape[1]].astype(np.float32)
    weave = np.sin(xx * rng.uniform(1.5, 2.5)) * np.sin(yy * rng.uniform(1.5, 2.5))
    light = 1 + 0.06 * smooth_noise(rng, shape, 5) + 0.05 * grain + 0.03 * weave
    return _colour(rng, FELT) * light[..., None]


def _wood(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    yy, xx = np.mgrid[:shape[0], :shape[1]].astype(np.float32)
    along, across = (xx, yy) if rng.random() < 0.5 else (yy, xx)
    warp = smooth_noise(rng, shape, 5) * rng.uniform(20, 60) + smooth_noise(rng, shape, 23) * 4
    rings = 0.5 + 0.5 * np.sin((across + warp) * rng.uniform(0.06, 0.16))
    plank = rng.uniform(120, 300)
    seams = (np.abs(((across + 0.5 * plank) % plank) - 0.5 * plank) > 1.5).astype(np.float32)
    streak = (1, 41) if along is yy else (41, 1)  # fibres run along the planks
    fibre = cv2.blur(rng.normal(0, 1, shape).astype(np.float32), streak) * 4
    tone = smooth_noise(rng, shape, 7)
    light = (0.85 + 0.1 * rings ** 3 + 0.06 * fibre + 0.06 * tone) * (0.65 + 0.35 * seams)
    return _colour(rng, WOOD) * light[..., None]


def _cloth(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    yy, xx = np.mgrid[:shape[0], :shape[1]].astype(np.float32)
    period = rng.uniform(20, 90)
    bands = (np.sin(xx * 2 * np.pi / period) > 0.3).astype(np.float32) + (np.sin(yy * 2 * np.pi / period) > 0.3)
    a, b = _colour(rng, CLOTH), _colour(rng, CLOTH)
    mix = cv2.GaussianBlur(bands / 2, (0, 0), 1.0)[..., None] * rng.uniform(0.2, 0.7)
    grain = 1 + 0.05 * cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 0.7)
    return (a * (1 - mix) + b * mix) * grain[..., None]


def _stone(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    veins = np.abs(smooth_noise(rng, shape, 9) + 0.5 * smooth_noise(rng, shape, 17))
    veins = cv2.GaussianBlur(np.exp(-veins * 8), (0, 0), 2.0)
    light = 1 - 0.07 * veins + 0.1 * smooth_noise(rng, shape, 4) + 0.02 * rng.normal(0, 1, shape).astype(np.float32)
    return _colour(rng, STONE) * light[..., None]


def _desk(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """An office desk or counter top: flat laminate, a fine speckle, sometimes a faint printed grain, a lamp's
    broad sheen."""
    yy, xx = np.mgrid[:shape[0], :shape[1]].astype(np.float32)
    speckle = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 0.6)
    grain = np.sin((yy if rng.random() < 0.5 else xx) * rng.uniform(0.05, 0.2) + 3 * smooth_noise(rng, shape, 6))
    sheen = np.exp(-(((xx / shape[1] - rng.uniform(0, 1)) ** 2 + (yy / shape[0] - rng.uniform(0, 1)) ** 2) / 0.08))
    light = 1 + 0.02 * speckle + rng.uniform(0, 0.03) * grain + rng.uniform(0, 0.12) * sheen
    return _colour(rng, DESK) * light[..., None]


KINDS = {"felt": _felt, "wood": _wood, "cloth": _cloth, "stone": _stone, "desk": _desk}
