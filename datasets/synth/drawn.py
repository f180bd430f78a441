"""Faces drawn by us: numerals over 萬, dots as rings, bamboo as sticks, honours and flowers as characters.
Three styles: Chinese (blue numerals, green sticks, a framed 白), simplified (the Chinese style written as mainland
sets write it: 万, 东, 发) and Japanese (black numerals over red 萬, sticks green and blue, a blank 白, dots with a
red centre), the way riichi sets are painted.

Needs only a CJK font (any found on the machine or in the art cache); without one the characters become
their tile codes, so the renderer and its tests always have a face set, offline.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from fanshot.datasets.synth.faces import FACE_CODES, FACE_H, FACE_W, IVORY, FaceSet, fit_face

SCALE = 3  # drawn this many times larger, then reduced (smooth edges)
W, H = FACE_W * SCALE, FACE_H * SCALE
RED, GREEN, BLUE, BLACK = (190, 30, 35), (20, 120, 60), (25, 50, 140), (25, 25, 30)
NUMERALS = "一二三四五六七八九"
HONOURS = {"1z": ("東", BLACK), "2z": ("南", BLACK), "3z": ("西", BLACK), "4z": ("北", BLACK),
           "6z": ("發", GREEN), "7z": ("中", RED)}
FLOWERS = "梅蘭菊竹春夏秋冬"
SIMPLIFIED = {"萬": "万", "東": "东", "發": "发", "蘭": "兰"}
# Standard pip positions (fractions of the face) for 1..9 dots; bamboo uses its own for 2..9.
DOTS = {
    1: [(.5, .5)], 2: [(.5, .28), (.5, .72)], 3: [(.25, .2), (.5, .5), (.75, .8)],
    4: [(.3, .28), (.7, .28), (.3, .72), (.7, .72)], 5: [(.27, .22), (.73, .22), (.5, .5), (.27, .78), (.73, .78)],
    6: [(x, y) for y in (.2, .5, .8) for x in (.3, .7)],
    7: [(.22, .13), (.5, .24), (.78, .35), (.3, .6), (.7, .6), (.3, .85), (.7, .85)],
    8: [(x, y) for y in (.15, .38, .62, .85) for x in (.3, .7)],
    9: [(x, y) for y in (.2, .5, .8) for x in (.2, .5, .8)],
}
STICKS = {
    2: [(.5, .3), (.5, .7)], 3: [(.5, .3), (.3, .7), (.7, .7)], 4: [(x, y) for y in (.3, .7) for x in (.3, .7)],
    5: [(.25, .3), (.75, .3), (.5, .5), (.25, .7), (.75, .7)], 6: [(x, y) for y in (.3, .7) for x in (.2, .5, .8)],
    7: [(.5, .2)] + [(x, y) for y in (.5, .8) for x in (.2, .5, .8)],
    8: [(x, y) for y in (.3, .7) for x in (.14, .38, .62, .86)],
    9: [(x, y) for y in (.2, .5, .8) for x in (.2, .5, .8)],
}


STYLES = ("chinese", "simplified", "japanese")


def drawn_faces(font_path: Path | None, style: str = "chinese") -> FaceSet:
    """The 42 drawn faces in a style of STYLES, with the given CJK font (None: the tile codes as text instead of
    characters)."""
    return dict(_drawn(str(font_path) if font_path else "", style))


@cache
def _drawn(font_path: str, style: str) -> tuple[tuple[str, np.ndarray], ...]:
    return tuple((code, _face(code, font_path, style)) for code in FACE_CODES)


def face_text(code: str, style: str) -> str:
    """The characters a character or honour face of `style` shows, numeral first ("" for the white dragon,
    the dots and the bamboo, which are drawn)."""
    rank, suit = int(code[0]), code[1]
    text = (NUMERALS[rank - 1] + "萬" if suit == "m" else HONOURS[code][0] if code in HONOURS
            else FLOWERS[rank - 1] if suit == "f" else "")
    return "".join(SIMPLIFIED.get(char, char) for char in text) if style == "simplified" else text


def _font(font_path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path, size) if font_path else ImageFont.load_default(size)


def _face(code: str, font_path: str, style: str) -> np.ndarray:
    image = Image.new("RGB", (W, H), IVORY)
    draw = ImageDraw.Draw(image)
    rank, suit, japanese = int(code[0]), code[1], style == "japanese"
    if suit == "p":
        _rings(draw, DOTS[rank], 0.36 if rank == 1 else 0.16 if rank < 7 else 0.12, japanese)
    elif suit == "s":
        _sticks(draw, rank, japanese)
    else:
        _characters(draw, code, font_path, style)
    return fit_face(np.array(image))


def _text(draw: ImageDraw.ImageDraw, text: str, centre: tuple[float, float], size: float, colour: tuple,
          font_path: str) -> None:
    font = _font(font_path, round(size * W))
    draw.text((centre[0] * W, centre[1] * H), text, font=font, fill=colour, anchor="mm")


def _characters(draw: ImageDraw.ImageDraw, code: str, font_path: str, style: str) -> None:
    rank, suit, japanese, text = int(code[0]), code[1], style == "japanese", face_text(code, style)
    if code == "5z" and japanese:  # a riichi set's 白 is blank
        return
    if not font_path:  # no CJK font: the code itself, large
        _text(draw, code, (.5, .5), .5, BLACK, "")
    elif suit == "m":
        _text(draw, text[0], (.5, .24), .5, BLACK if japanese else BLUE, font_path)
        _text(draw, text[1], (.5, .7), .66, RED, font_path)
    elif code == "5z":
        for inset, width in ((.1, 5 * SCALE), (.17, 2 * SCALE)):
            draw.rectangle((inset * W, inset * H * .8, (1 - inset) * W, (1 - inset * .8) * H), outline=BLUE,
                           width=width)
    elif suit == "z":
        _text(draw, text, (.5, .5), .82, HONOURS[code][1], font_path)
    else:
        _text(draw, text, (.5, .55), .62, (GREEN, RED, BLUE, BLACK)[rank % 4], font_path)
        _text(draw, str(1 + (rank - 1) % 4), (.82, .12), .2, RED, font_path)


def _rings(draw: ImageDraw.ImageDraw, centres: Iterable[tuple[float, float]], radius: float, japanese: bool) -> None:
    palette = (BLUE, GREEN, RED)
    for k, (x, y) in enumerate(centres):
        cx, cy, r = x * W, y * H, radius * W
        rings = (palette[k % 3], IVORY, palette[(k + 1) % 3], IVORY) + ((RED,) if japanese else ())
        for step, colour in enumerate(rings):
            rr = r * (1 - step * 0.22)
            draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=colour)


def _sticks(draw: ImageDraw.ImageDraw, rank: int, japanese: bool) -> None:
    if rank == 1:  # the "bird" tile: one large ornamented stick
        _stick(draw, (.5, .5), 3.2, GREEN)
        draw.ellipse((.32 * W, .1 * H, .68 * W, .32 * H), fill=RED)
        return
    for k, centre in enumerate(STICKS[rank]):
        red = (rank in (5, 7) and k == (2 if rank == 5 else 0)) or (rank == 9 and k % 3 == 1)
        _stick(draw, centre, 1.0, RED if red else BLUE if japanese and k % 2 else GREEN)


def _stick(draw: ImageDraw.ImageDraw, centre: Sequence[float], scale: float, colour: tuple) -> None:
    half_w, half_h = 0.06 * W * scale, 0.14 * H * min(scale, 2.2)
    x, y = centre[0] * W, centre[1] * H
    draw.rounded_rectangle((x - half_w, y - half_h, x + half_w, y + half_h), radius=half_w, fill=colour)
    for node in (-0.45, 0.0, 0.45):  # bamboo joints
        draw.line((x - half_w, y + node * half_h * 2, x + half_w, y + node * half_h * 2), fill=IVORY,
                  width=2 * SCALE)
