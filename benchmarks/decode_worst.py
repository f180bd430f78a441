"""How long the slowest photos Fanshot accepts take to decode (`load_photo` as the recognition route calls it): the
largest of each format, and progressive JPEGs of the most scans their size allows (the scan bomb of issue 36,
repeating its costliest scan). Refused inputs are listed too, refused from the header in no time.

    .venv/bin/python benchmarks/decode_worst.py [--rounds 2]

Prints a Markdown table: each photo's size and its fastest decode over the rounds (wall seconds). A photo over the
upload limit (textured TIFF, GIF and lossless WebP at these sizes) is refused on upload; its time bounds what fits.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fanshot.api.app import MAX_PHOTO_BYTES  # noqa: E402
from fanshot.vision.image import RECOGNITION_MAX_SIDE, PhotoError, load_photo  # noqa: E402
from tests.vision.test_image import encode, png_of_zeros, scan_bomb  # noqa: E402

FIFTY_MP = (8660, 5773)


def textured(width: int, height: int) -> Image.Image:
    """Smooth random colour: compresses like a photo, unlike a flat image."""
    coarse = np.random.default_rng(0).integers(0, 256, (height // 16 + 1, width // 16 + 1, 3), dtype=np.uint8)
    return Image.fromarray(coarse).resize((width, height), Image.BILINEAR)


def photos() -> dict[str, bytes]:
    return {
        "JPEG, baseline, 50 MP, quality 95": encode(textured(*FIFTY_MP), quality=95),
        "JPEG, progressive, 50 MP, 10 scans, quality 95": encode(textured(*FIFTY_MP), progressive=True, quality=95),
        "JPEG, progressive, 50 MP, 16 scans (the most allowed)": scan_bomb(7, FIFTY_MP),
        "JPEG, progressive, 16 MP, 48 scans (the most allowed)": scan_bomb(39, (4900, 3400)),
        "JPEG, progressive, 50 MP, 48 scans (refused)": scan_bomb(39, FIFTY_MP),
        "PNG, 16-bit RGBA, 50 MP": png_of_zeros(*FIFTY_MP, colour_type=6, depth=16),
        "HEIC, 48 MP, quality 90": encode(textured(8000, 6000), "HEIF", quality=90),
        "WebP, lossless RGBA, 21 MP": encode(textured(5600, 3800).convert("RGBA"), "WEBP", lossless=True, method=0),
        "TIFF, LZW, 44 MP": encode(textured(8100, 5400), "TIFF", compression="tiff_lzw"),
        "GIF, 50 MP": encode(textured(*FIFTY_MP).convert("P"), "GIF"),
    }


def decode_seconds(data: bytes, rounds: int) -> float | str:
    """The fastest of `rounds` decodes, or the code it is refused with."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        try:
            load_photo(data, max_side=RECOGNITION_MAX_SIDE, of_a_hand=True)
        except PhotoError as refused:
            return refused.code
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    rounds = parser.parse_args().rounds
    print("| photo | MB | decode (s) |\n|---|---:|---:|")
    for name, data in photos().items():
        seconds = decode_seconds(data, rounds)
        shown = f"{seconds:.2f}" if isinstance(seconds, float) else f"refused: `{seconds}`"
        if len(data) > MAX_PHOTO_BYTES:
            name += " (over the upload limit: bounds what fits)"
        print(f"| {name} | {len(data) / 1e6:.1f} | {shown} |", flush=True)


if __name__ == "__main__":
    main()
