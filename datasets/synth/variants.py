"""Domain randomisation of a face set for one rendered photo (`fanshot synth --randomise`): what tile sets do
differently from the art sources. A Japanese-style set instead of the art source, flowers in another art
(another source's, or painted pictures), red-painted fives (still labelled 5m/5p/5s), a blank or framed white
dragon (5z), Hong Kong corner indices, faded or bolder ink. Each variant is drawn from its own random stream, so
the scene's randomness is unchanged by it.

Ink variants (`ink_variants`, `fanshot synth --ink`): the ink's hue turned, each face's ink in a colour of its own,
strokes thinned or thickened; the face colour and the label stay. They have a stream of their own too, so a set
rendered without them is drawn the same as before they existed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from fanshot.datasets.synth.faces import FACE_H, FACE_W, IVORY, FaceSet

FIVES = ("5m", "5p", "5s")
FLOWERS = tuple(f"{n}f" for n in range(1, 9))
RED = np.float32((200, 25, 30))
FRAMES = ((30, 60, 160), (20, 20, 25), (40, 120, 70))  # blue, black, green frames of a framed 白
# Hong Kong sets print a small index in the top-left corner: the number of a suited tile, the letter of an honour.
CORNER_INDEX = {**{f"{n}{suit}": str(n) for n in range(1, 10) for suit in "mps"},
                "1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "P", "6z": "F", "7z": "C",
                **{f"{n}f": str((n - 1) % 4 + 1) for n in range(1, 9)}}


def ink(face: np.ndarray) -> np.ndarray:
    """How far each pixel is from the face's ivory, 0 (ivory) to 1 (dark ink): H×W×1 float32."""
    distance = np.abs(face.astype(np.float32) - np.float32(IVORY)).max(axis=2, keepdims=True)
    return np.clip(distance / 180, 0, 1)


def red_painted(face: np.ndarray) -> np.ndarray:
    """The face with all its ink red, as a set's red five."""
    return recoloured(face, RED)


def recoloured(face: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The face with all its ink in one colour (RGB)."""
    amount = ink(face)
    return np.clip(np.float32(IVORY) * (1 - amount) + np.float32(colour) * amount, 0, 255).astype(np.uint8)


def hue_turned(face: np.ndarray, degrees: float) -> np.ndarray:
    """The ink's hue turned by `degrees` (red to green at 120), its lightness and the face colour kept."""
    hsv = cv2.cvtColor(face, cv2.COLOR_RGB2HSV)
    hsv[..., 0] = (hsv[..., 0].astype(np.int32) + round(degrees / 2)) % 180  # OpenCV's hue runs 0-179
    amount = ink(face)
    turned = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB).astype(np.float32)
    return np.clip(face * (1 - amount) + turned * amount, 0, 255).astype(np.uint8)


def stroked(face: np.ndarray, pixels: int) -> np.ndarray:
    """Strokes thickened by `pixels` on each side (> 0: the darker ink spreads) or thinned (< 0: the face eats
    into them)."""
    if pixels == 0:
        return face.copy()
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(pixels) + 1,) * 2)
    return (cv2.erode if pixels > 0 else cv2.dilate)(face, kernel)


INK_SHARES = {"hue": 0.35, "recolour": 0.2, "stroke": 0.35}  # the chance a photo's faces take each ink variant
STROKES = (-1, 1, 2)  # pixels at the face's 96 x 128: thinner, bolder, much bolder


def ink_variants(faces: Mapping[str, np.ndarray], rng: np.random.Generator) -> tuple[FaceSet, dict[str, str]]:
    """A copy of a face set with its ink varied for one photo, and what was taken: strokes thinned or
    thickened, then the hue of every face's ink turned by one angle, or each face's ink in a colour of its own
    (as sets paint numerals red, green, purple)."""
    out, taken = dict(faces), {}
    draws = {name: rng.random() < share for name, share in INK_SHARES.items()}
    if draws["stroke"]:
        pixels = int(rng.choice(STROKES))
        out = {code: stroked(face, pixels) for code, face in out.items()}
        taken["stroke"] = str(pixels)
    if draws["recolour"]:
        out = {code: recoloured(face, _saturated(rng)) for code, face in out.items()}
        taken["recolour"] = "yes"
    elif draws["hue"]:
        degrees = float(rng.uniform(30, 330))
        out = {code: hue_turned(face, degrees) for code, face in out.items()}
        taken["hue"] = f"{degrees:.0f}"
    return out, taken


def _saturated(rng: np.random.Generator) -> np.ndarray:
    """A random ink colour: any hue, well saturated, dark enough to read on the face."""
    hsv = np.uint8([[[rng.integers(180), rng.integers(130, 256), rng.integers(90, 220)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0]


def blank_white(rng: np.random.Generator) -> np.ndarray:
    """A white dragon with no mark at all: the bare face."""
    face = np.float32(IVORY) * np.ones((FACE_H, FACE_W, 1), np.float32)
    return np.clip(face + rng.normal(0, 1.5, face.shape), 0, 255).astype(np.uint8)


def framed_white(rng: np.random.Generator) -> np.ndarray:
    """A white dragon drawn as a frame (one or two lines) inset from the face's edge."""
    face = blank_white(rng)
    colour = FRAMES[int(rng.integers(len(FRAMES)))]
    inset, width = rng.uniform(0.12, 0.22), int(rng.integers(3, 9))
    x, y = round(FACE_W * inset), round(FACE_H * inset * 0.8)
    cv2.rectangle(face, (x, y), (FACE_W - x, FACE_H - y), colour, width, cv2.LINE_AA)
    if rng.random() < 0.4:
        gap = width + int(rng.integers(3, 7))
        cv2.rectangle(face, (x + gap, y + gap), (FACE_W - x - gap, FACE_H - y - gap), colour, max(1, width // 2),
                      cv2.LINE_AA)
    return face


def corner_index(face: np.ndarray, code: str, colour: tuple[int, int, int]) -> np.ndarray:
    """The face shrunk a little toward the bottom right, a small index in the top-left corner."""
    out = np.full_like(face, IVORY)
    inner = cv2.resize(face, (round(FACE_W * 0.82), round(FACE_H * 0.82)), interpolation=cv2.INTER_AREA)
    out[FACE_H - inner.shape[0]:, FACE_W - inner.shape[1]:] = inner
    cv2.putText(out, CORNER_INDEX[code], (4, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2, cv2.LINE_AA)
    return out


def inked(face: np.ndarray, strength: float) -> np.ndarray:
    """Ink faded (< 1) or bolder (> 1)."""
    amount = np.clip(ink(face) * strength, 0, 1)
    colour = face.astype(np.float32) - np.float32(IVORY)
    scale = np.where(ink(face) > 0, amount / np.maximum(ink(face), 1e-6), 0)
    return np.clip(np.float32(IVORY) + colour * scale, 0, 255).astype(np.uint8)


def painted_flower(code: str, rng: np.random.Generator) -> np.ndarray:
    """A flower or season tile painted as a picture, the way many sets show them, with its number (1-4) in a
    corner: plum, orchid, chrysanthemum, bamboo (1f-4f); a blossoming tree, the sun over waves, falling leaves,
    snowflakes (5f-8f). Colours, corner and placement vary with `rng`, the motif is the code's."""
    face = np.full((FACE_H, FACE_W, 3), IVORY, np.uint8)
    rank = int(code[0])
    jitter = rng.uniform(0.85, 1.15, 3)

    def colour(rgb: tuple[int, int, int]) -> tuple[float, ...]:
        return tuple(np.clip(np.float64(rgb) * jitter, 0, 255).tolist())

    def blossom(at: tuple[int, int], r: int, petal: tuple[int, int, int]) -> None:
        for k in range(5):
            a = 2 * np.pi * k / 5
            cv2.circle(face, (round(at[0] + r * np.cos(a)), round(at[1] + r * np.sin(a))), r, colour(petal), -1,
                       cv2.LINE_AA)
        cv2.circle(face, at, max(1, r // 2), colour((230, 190, 40)), -1, cv2.LINE_AA)

    cx, cy = FACE_W // 2 + int(rng.integers(-6, 7)), FACE_H // 2 + int(rng.integers(-6, 7))
    if rank == 1:  # plum: a dark branch, pink blossoms
        branch = np.int32([[10, 118], [cx - 10, cy + 10], [cx + 8, cy - 20], [86, 14]])
        cv2.polylines(face, [branch], False, colour((90, 55, 35)), 5, cv2.LINE_AA)
        for x, y in branch[1:] + [[8, -6], [-8, 4], [-6, 0]]:
            blossom((int(x), int(y)), 6, (230, 120, 150))
    elif rank == 2:  # orchid: long curved leaves, purple flowers
        for dx in (-24, -8, 10, 26):
            leaf = np.int32([[cx, 118], [cx + dx // 2, 70], [cx + dx, 25]])
            cv2.polylines(face, [leaf], False, colour((40, 130, 60)), 3, cv2.LINE_AA)
        for at in ((cx - 14, 40), (cx + 16, 52)):
            cv2.ellipse(face, at, (10, 6), 30, 0, 360, colour((140, 60, 170)), -1, cv2.LINE_AA)
    elif rank == 3:  # chrysanthemum: radial petals round a centre, on a stem
        cv2.line(face, (cx, cy), (cx, 120), colour((40, 130, 60)), 3, cv2.LINE_AA)
        for k in range(18):
            cv2.ellipse(face, (cx, cy - 15), (22, 4), 20 * k, 0, 360, colour((235, 160, 30)), -1, cv2.LINE_AA)
        cv2.circle(face, (cx, cy - 15), 7, colour((180, 90, 20)), -1, cv2.LINE_AA)
    elif rank == 4:  # bamboo: stalks with joints, a few leaves
        for x in (cx - 18, cx + 4, cx + 22):
            cv2.line(face, (x, 10), (x, 120), colour((40, 140, 70)), 7, cv2.LINE_AA)
            for y in range(25, 120, 28):
                cv2.line(face, (x - 4, y), (x + 4, y), colour((20, 80, 40)), 2, cv2.LINE_AA)
        for at, angle in (((cx - 5, 40), 150), ((cx + 12, 70), 30), ((cx - 28, 90), 160)):
            cv2.ellipse(face, at, (14, 3), angle, 0, 360, colour((30, 110, 50)), -1, cv2.LINE_AA)
    elif rank == 5:  # spring: a tree in blossom on a green hill
        cv2.ellipse(face, (cx, 125), (60, 22), 0, 180, 360, colour((70, 150, 70)), -1, cv2.LINE_AA)
        cv2.line(face, (cx, 105), (cx, 55), colour((90, 55, 35)), 5, cv2.LINE_AA)
        cv2.circle(face, (cx, 50), 26, colour((240, 170, 190)), -1, cv2.LINE_AA)
        for _ in range(7):
            cv2.circle(face, (cx + int(rng.integers(-18, 19)), 50 + int(rng.integers(-18, 19))), 3,
                       colour((210, 60, 110)), -1, cv2.LINE_AA)
    elif rank == 6:  # summer: the sun over waves
        cv2.circle(face, (cx, 45), 18, colour((220, 50, 30)), -1, cv2.LINE_AA)
        for k in range(12):
            a = np.pi * k / 6
            cv2.line(face, (round(cx + 22 * np.cos(a)), round(45 + 22 * np.sin(a))),
                     (round(cx + 30 * np.cos(a)), round(45 + 30 * np.sin(a))), colour((230, 120, 30)), 2, cv2.LINE_AA)
        for y in (88, 102, 116):
            wave = np.int32([[x, y + 5 * np.sin(x / 6)] for x in range(6, FACE_W - 5, 3)])
            cv2.polylines(face, [wave], False, colour((30, 80, 170)), 3, cv2.LINE_AA)
    elif rank == 7:  # autumn: falling leaves, red and orange
        for k in range(6):
            at = (int(rng.integers(18, FACE_W - 18)), 20 + 17 * k)
            points = [(at[0] + (12 if j % 2 == 0 else 5) * np.cos(np.pi * j / 5 + k),
                       at[1] + (12 if j % 2 == 0 else 5) * np.sin(np.pi * j / 5 + k)) for j in range(10)]
            cv2.fillPoly(face, [np.int32(points)], colour(((200, 50, 30), (230, 130, 30))[k % 2]), cv2.LINE_AA)
    else:  # winter: snowflakes over a snowy ground
        cv2.ellipse(face, (cx, 128), (64, 18), 0, 180, 360, colour((170, 190, 215)), -1, cv2.LINE_AA)
        for at in ((cx - 20, 30), (cx + 18, 55), (cx - 12, 82)):
            for k in range(3):
                a = np.pi * k / 3
                d = (round(14 * np.cos(a)), round(14 * np.sin(a)))
                cv2.line(face, (at[0] - d[0], at[1] - d[1]), (at[0] + d[0], at[1] + d[1]), colour((40, 90, 170)), 2,
                         cv2.LINE_AA)
    number = str((rank - 1) % 4 + 1)
    corner = (4, 22) if rng.random() < 0.5 else (FACE_W - 18, 22)
    cv2.putText(face, number, corner, cv2.FONT_HERSHEY_SIMPLEX, 0.7, (200, 30, 35) if rng.random() < 0.6 else
                (30, 60, 160), 2, cv2.LINE_AA)
    return face


def randomise_faces(faces: Mapping[str, np.ndarray], rng: np.random.Generator,
                    other_flowers: Sequence[Mapping[str, np.ndarray]] = (),
                    japanese: Mapping[str, np.ndarray] | None = None) -> tuple[FaceSet, dict[str, str]]:
    """A varied copy of a face set for one photo, and which variants it took (for the sidecar): sometimes the
    `japanese` set instead, flowers from one of `other_flowers` (other art sources) or painted, then the
    fives, white dragon, corner index and ink variants."""
    out, taken = dict(faces), {}
    if japanese is not None and rng.random() < 0.15:
        out = dict(japanese)
        taken["style"] = "japanese"
    flowers = rng.choice(["art", "other", "painted"], p=[0.5, 0.25, 0.25])
    if flowers == "other" and other_flowers:
        chosen = other_flowers[int(rng.integers(len(other_flowers)))]
        out.update({code: chosen[code] for code in FLOWERS if code in out})
        taken["flowers"] = "other"
    elif flowers == "painted":
        out.update({code: painted_flower(code, rng) for code in FLOWERS if code in out})
        taken["flowers"] = "painted"
    if rng.random() < 0.35:
        for code in FIVES:
            out[code] = red_painted(out[code])
        taken["fives"] = "red"
    white = rng.choice(["art", "blank", "framed"], p=[0.4, 0.3, 0.3])
    if white != "art":
        out["5z"] = blank_white(rng) if white == "blank" else framed_white(rng)
        taken["white"] = str(white)
    if rng.random() < 0.25:
        colour = (20, 20, 25) if rng.random() < 0.5 else (30, 60, 160)
        out = {code: corner_index(face, code, colour) for code, face in out.items()}
        taken["corner_index"] = "yes"
    if rng.random() < 0.3:
        strength = float(rng.uniform(0.6, 1.4))
        out = {code: inked(face, strength) for code, face in out.items()}
        taken["ink"] = f"{strength:.2f}"
    return out, taken
