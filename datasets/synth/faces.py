"""Tile face images: one standard size, cut from sprite sheets or font glyphs, kept in a cache folder.

A face set maps each of the 42 face codes (every detector class but `back`) to an RGB uint8 array of
FACE_H x FACE_W: the whole top face of the tile, art on the tile's face colour. Backs are not art: the scene
paints them in the body colour.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from fanshot.scoring.tiles import BACK, DETECTOR_CLASSES

FACE_W, FACE_H = 96, 128
FACE_CODES: tuple[str, ...] = tuple(code for code in DETECTOR_CLASSES if code != BACK)
IVORY = (246, 242, 230)
# Back (body) colours of common sets: the back layer, its side, and face-down tiles.
BACK_COLOURS = {"green": (40, 130, 70), "blue": (40, 80, 160), "yellow": (225, 180, 50), "white": (238, 236, 228),
                "orange": (220, 110, 40), "dark green": (20, 80, 50)}
FaceSet = dict[str, np.ndarray]


def back_face(colour: Sequence[int]) -> np.ndarray:
    """A face-down tile's top: the body colour with a faint sheen toward one corner."""
    ramp = np.linspace(1.08, 0.92, FACE_H, dtype=np.float32)[:, None, None]
    return np.clip(np.float32(colour) * ramp * np.ones((1, FACE_W, 1), np.float32), 0, 255).astype(np.uint8)


def fit_face(rgb: np.ndarray) -> np.ndarray:
    """Resize any face crop to the standard face size."""
    return cv2.resize(rgb, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def over(rgba: np.ndarray, colour: Sequence[int] = IVORY) -> np.ndarray:
    """Composite an RGBA image over a plain colour."""
    alpha = rgba[..., 3:4].astype(np.float32) / 255
    return (rgba[..., :3] * alpha + np.float32(colour) * (1 - alpha)).astype(np.uint8)


def grid_faces(sheet: np.ndarray, order: Sequence[str | None], cols: int, cell: tuple[float, float],
               box: tuple[float, float, float, float]) -> FaceSet:
    """Faces cut from a sprite sheet read row by row: `order` names each cell's code (None: skip it),
    `cell` is the cell size in pixels and `box` the face inside a cell as fractions (x0, y0, x1, y1)."""
    faces = {}
    for i, code in enumerate(order):
        if code is None:
            continue
        x, y = (i % cols) * cell[0], (i // cols) * cell[1]
        x0, x1 = (round(x + f * cell[0]) for f in box[0::2])
        y0, y1 = (round(y + f * cell[1]) for f in box[1::2])
        faces[code] = fit_face(sheet[y0:y1, x0:x1])
    return faces


def glyph_face(font: ImageFont.FreeTypeFont, char: str, inset: float = 0.05) -> np.ndarray:
    """A face from a mahjong-tile glyph (U+1F000 block): the glyph's ink box less its drawn outline, dark ink
    on ivory."""
    size = font.size * 2
    canvas = Image.new("L", (size, size), 255)
    ImageDraw.Draw(canvas).text((size // 4, size // 4), char, font=font, fill=0)
    ink = np.array(canvas) < 128
    ys, xs = np.nonzero(ink)
    dx, dy = round((xs.max() - xs.min()) * inset), round((ys.max() - ys.min()) * inset)
    grey = np.array(canvas)[ys.min() + dy:ys.max() - dy, xs.min() + dx:xs.max() - dx]
    shade = grey.astype(np.float32)[..., None] / 255
    return fit_face((np.float32(IVORY) * shade + np.float32((20, 20, 25)) * (1 - shade)).astype(np.uint8))


def save_face_set(folder: Path, faces: Mapping[str, np.ndarray], meta: Mapping[str, str]) -> None:
    """Write a face set as `folder/<code>.png` plus `folder/source.json` (its origin and licence)."""
    folder.mkdir(parents=True, exist_ok=True)
    for code, face in faces.items():
        Image.fromarray(face).save(folder / f"{code}.png")
    (folder / "source.json").write_text(json.dumps(dict(meta), indent=2) + "\n", encoding="utf-8")


def load_face_sets(faces_dir: Path) -> dict[str, FaceSet]:
    """Every complete face set under `faces_dir` (one folder per source), by source name."""
    sets = {}
    for folder in sorted(p for p in faces_dir.glob("*") if (p / "source.json").is_file()):
        paths = [folder / f"{code}.png" for code in FACE_CODES]
        if all(path.is_file() for path in paths):
            sets[folder.name] = {code: np.array(Image.open(path).convert("RGB"))
                                 for code, path in zip(FACE_CODES, paths, strict=True)}
    return sets


def contact_sheet(faces: Mapping[str, np.ndarray], back: np.ndarray, title: str, cols: int = 11) -> np.ndarray:
    """All 43 classes in detector order, each labelled with its code, under a title line."""
    pad, label = 8, 22
    cell_w, cell_h = FACE_W + pad, FACE_H + label + pad
    rows = -(-len(DETECTOR_CLASSES) // cols)
    sheet = np.full((40 + rows * cell_h, cols * cell_w + pad, 3), 255, np.uint8)
    cv2.putText(sheet, title, (pad, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 2, cv2.LINE_AA)
    for i, code in enumerate(DETECTOR_CLASSES):
        x, y = pad + (i % cols) * cell_w, 40 + (i // cols) * cell_h
        sheet[y:y + FACE_H, x:x + FACE_W] = back if code == BACK else faces[code]
        cv2.rectangle(sheet, (x - 1, y - 1), (x + FACE_W, y + FACE_H), (150, 150, 150), 1)
        cv2.putText(sheet, code, (x + 30, y + FACE_H + 17), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (200, 0, 0), 2,
                    cv2.LINE_AA)
    return sheet
