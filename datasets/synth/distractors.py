"""Tile-like things that are not tiles, drawn onto an RGB image: keyboard keys, dominoes, dice, coins, playing
cards, fingers. Rendered scenes carry them as unlabelled negatives and the clutter evaluation set is made of
them, so that the localiser learns what a tile is not."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Draw = Callable[[np.ndarray, np.random.Generator, tuple[float, float], float], None]
INK = (25, 25, 30)
SKIN = ((224, 172, 140), (198, 134, 99), (141, 85, 56), (240, 200, 170))


def _rect(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float], angle: float,
          colour: np.ndarray | tuple, radius: float = 0.0) -> np.ndarray:
    """Fill a turned rectangle (corners rounded by `radius` px); its 4 corners."""
    corners = cv2.boxPoints((centre, size, angle))
    if radius > 0:
        inner = cv2.boxPoints((centre, (max(size[0] - 2 * radius, 1), max(size[1] - 2 * radius, 1)), angle))
        cv2.fillConvexPoly(image, np.round(inner).astype(np.int32), _c(colour), cv2.LINE_AA)
        for corner in inner:
            cv2.circle(image, tuple(np.round(corner).astype(int)), max(1, round(radius)), _c(colour), -1, cv2.LINE_AA)
        for a, b in zip(inner, np.roll(inner, -1, axis=0), strict=True):
            cv2.line(image, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), _c(colour),
                     max(1, round(2 * radius)), cv2.LINE_AA)
    else:
        cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), _c(colour), cv2.LINE_AA)
    return corners


def _c(colour: np.ndarray | tuple) -> list[float]:
    return np.clip(np.asarray(colour, np.float64), 0, 255).tolist()


def _along(centre: tuple[float, float], angle: float, dx: float, dy: float) -> tuple[float, float]:
    """A point dx, dy (in the turned frame) from centre."""
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    return centre[0] + dx * c - dy * s, centre[1] + dx * s + dy * c


def keyboard(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], unit: float) -> None:
    """A block of keys (light or dark caps with a letter) in rows, like a laptop keyboard."""
    dark = rng.random() < 0.6
    cap = np.float64((40, 40, 45) if dark else (225, 225, 222)) * rng.uniform(0.85, 1.1)
    ink = (230, 230, 230) if dark else INK
    angle, pitch = rng.uniform(-30, 30), unit * rng.uniform(0.9, 1.3)
    rows, cols = int(rng.integers(2, 5)), int(rng.integers(4, 12))
    frame = np.float64(cap) * 0.6
    _rect(image, centre, (cols * pitch + pitch * 0.3, rows * pitch + pitch * 0.3), angle, frame)
    for r in range(rows):
        for k in range(cols):
            at = _along(centre, angle, (k - (cols - 1) / 2) * pitch, (r - (rows - 1) / 2) * pitch)
            _rect(image, at, (pitch * 0.82, pitch * 0.82), angle, cap, pitch * 0.08)
            letter = chr(int(rng.integers(65, 91)))
            cv2.putText(image, letter, (round(at[0] - pitch * 0.2), round(at[1] + pitch * 0.15)),
                        cv2.FONT_HERSHEY_SIMPLEX, pitch / 60, ink, max(1, round(pitch / 30)), cv2.LINE_AA)


def _pips(image: np.ndarray, centre: tuple[float, float], angle: float, side: float, count: int,
          colour: tuple) -> None:
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    for dx, dy in spots.get(count, []):
        at = _along(centre, angle, dx * side * 0.27, dy * side * 0.27)
        cv2.circle(image, (round(at[0]), round(at[1])), max(1, round(side * 0.09)), colour, -1, cv2.LINE_AA)


def dominoes(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], unit: float) -> None:
    """One to four dominoes: a body twice as long as wide, a line across, pips on each half."""
    ivory = rng.random() < 0.6
    body, pip = ((240, 236, 225), INK) if ivory else ((25, 25, 28), (235, 235, 235))
    for _ in range(int(rng.integers(1, 5))):
        at = (centre[0] + rng.normal(0, unit), centre[1] + rng.normal(0, unit))
        angle, side = rng.uniform(0, 180), unit * rng.uniform(0.7, 1.1)
        _rect(image, at, (side, 2 * side), angle, np.float64(body) * 0.8, side * 0.1)
        _rect(image, at, (side * 0.92, 2 * side * 0.94), angle, body, side * 0.1)
        ends = (_along(at, angle, 0, -side / 2), _along(at, angle, 0, side / 2))
        a, b = _along(at, angle, -side * 0.4, 0), _along(at, angle, side * 0.4, 0)
        cv2.line(image, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), pip, max(1, round(side / 25)))
        for end in ends:
            _pips(image, end, angle, side, int(rng.integers(0, 7)), pip)


def dice(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], unit: float) -> None:
    """One to three dice: rounded squares with pips."""
    for _ in range(int(rng.integers(1, 4))):
        at = (centre[0] + rng.normal(0, unit * 0.8), centre[1] + rng.normal(0, unit * 0.8))
        angle, side = rng.uniform(0, 90), unit * rng.uniform(0.5, 0.9)
        body = ((245, 245, 240), INK) if rng.random() < 0.6 else ((200, 30, 30), (250, 250, 250))
        _rect(image, at, (side, side), angle, np.float64(body[0]) * 0.75, side * 0.15)
        _rect(image, at, (side * 0.9, side * 0.9), angle, body[0], side * 0.15)
        _pips(image, at, angle, side, int(rng.integers(1, 7)), body[1])


def coins(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], unit: float) -> None:
    """A few coins or chips: discs with a rim and a mark."""
    for _ in range(int(rng.integers(1, 6))):
        at = (round(centre[0] + rng.normal(0, unit)), round(centre[1] + rng.normal(0, unit)))
        radius = max(2, round(unit * rng.uniform(0.3, 0.6)))
        colour = rng.uniform(60, 240, 3) if rng.random() < 0.5 else np.float64((200, 160, 70)) * rng.uniform(0.7, 1.1)
        cv2.circle(image, at, radius, _c(colour), -1, cv2.LINE_AA)
        cv2.circle(image, at, round(radius * 0.8), _c(colour * 0.75), max(1, radius // 8), cv2.LINE_AA)
        cv2.putText(image, str(int(rng.integers(1, 10))), (at[0] - radius // 3, at[1] + radius // 3),
                    cv2.FONT_HERSHEY_SIMPLEX, radius / 30, _c(colour * 0.5), max(1, radius // 10), cv2.LINE_AA)


def cards(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], unit: float) -> None:
    """One to three playing cards: white, rounded, a corner index and a suit mark."""
    for _ in range(int(rng.integers(1, 4))):
        at = (centre[0] + rng.normal(0, unit), centre[1] + rng.normal(0, unit))
        angle, width = rng.uniform(0, 180), unit * rng.uniform(1.2, 2.0)
        _rect(image, at, (width, width * 1.4), angle, (248, 248, 245), width * 0.06)
        ink = (200, 20, 30) if rng.random() < 0.5 else INK
        corner = _along(at, angle, -width * 0.35, -width * 0.5)
        cv2.putText(image, "AKQJ23456789"[int(rng.integers(12))], (round(corner[0]), round(corner[1] + width * 0.1)),
                    cv2.FONT_HERSHEY_SIMPLEX, width / 120, ink, max(1, round(width / 50)), cv2.LINE_AA)
        cv2.circle(image, (round(at[0]), round(at[1])), max(1, round(width * 0.12)), ink, -1, cv2.LINE_AA)


def finger(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], unit: float) -> None:
    """A finger or two reaching in: a long rounded bar in a skin tone with a paler nail."""
    skin = np.float64(SKIN[int(rng.integers(len(SKIN)))]) * rng.uniform(0.85, 1.1)
    angle = rng.uniform(0, 360)
    for k in range(int(rng.integers(1, 3))):
        at = _along(centre, angle, 0, k * unit * 0.8)
        width = unit * rng.uniform(0.6, 0.8)
        _rect(image, at, (width * 5, width), angle, skin, width * 0.45)
        tip = _along(at, angle, width * 2.1, 0)
        _rect(image, tip, (width * 0.6, width * 0.6), angle, skin * 1.12, width * 0.25)


DISTRACTORS: dict[str, Draw] = {"keyboard": keyboard, "dominoes": dominoes, "dice": dice, "coins": coins,
                                "cards": cards, "finger": finger}


def scatter(image: np.ndarray, rng: np.random.Generator, count: int, unit: float,
            keep_out: tuple[float, float, float, float] | None = None) -> list[str]:
    """Draw `count` random distractors of about `unit` px (a tile's width) on `image`, centred outside the
    `keep_out` box (x1, y1, x2, y2) when given; the kinds drawn. (OpenCV writes text on 8-bit images only:
    a float image is drawn on through an 8-bit copy.)"""
    h, w = image.shape[:2]
    target, image = image, np.clip(image, 0, 255).astype(np.uint8)
    drawn = []
    for _ in range(count * 10):
        if len(drawn) == count:
            break
        at = (rng.uniform(0, w), rng.uniform(0, h))
        if keep_out is not None:
            x1, y1, x2, y2 = keep_out
            if x1 - 3 * unit < at[0] < x2 + 3 * unit and y1 - 3 * unit < at[1] < y2 + 3 * unit:
                continue
        kind = sorted(DISTRACTORS)[int(rng.integers(len(DISTRACTORS)))]
        DISTRACTORS[kind](image, rng, at, unit)
        drawn.append(kind)
    target[:] = image
    return drawn
