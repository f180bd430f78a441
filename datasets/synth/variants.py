"""Domain randomisation of a face set for one rendered photo (`fanshot synth --randomise`): what tile sets do
differently from the art sources. Red-painted fives (still labelled 5m/5p/5s), a blank or framed white dragon
(5z), Hong Kong corner indices, faded or bolder ink. Each variant is drawn from its own random stream, so the
scene's randomness is unchanged by it."""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from datasets.synth.faces import FACE_H, FACE_W, IVORY, FaceSet

FIVES = ("5m", "5p", "5s")
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
    amount = ink(face)
    return np.clip(np.float32(IVORY) * (1 - amount) + RED * amount, 0, 255).astype(np.uint8)


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


def randomise_faces(faces: Mapping[str, np.ndarray], rng: np.random.Generator) -> tuple[FaceSet, dict[str, str]]:
    """A varied copy of a face set for one photo, and which variants it took (for the sidecar)."""
    out, taken = dict(faces), {}
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
