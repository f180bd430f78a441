"""Photo bytes → RGB pixels, upright as the camera meant them, refusing anything that is not a sane photo."""

from __future__ import annotations

import io

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PIXELS = 50_000_000
# Pillow's own bomb guard (warns above this, refuses above twice this) backs up the header check below.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
# Formats phones and scanners produce (JPEG covers MPO); Pillow's other decoders are needless attack surface.
FORMATS = ("JPEG", "PNG", "WEBP", "BMP", "GIF", "TIFF")
# The detector works at ≤ 640 px and the tile crops need ~80 px per tile; 1600 px keeps both and lets a
# 12-megapixel JPEG decode at half size. The app, `fanshot read` and `fanshot eval` all decode to this.
RECOGNITION_MAX_SIDE = 1600
JPEG_SCALES = (8, 4, 2, 1)  # libjpeg decodes at 1/8, 1/4, 1/2 or full size, each step about twice as fast


class PhotoError(Exception):
    """A photo that cannot be read; `code` is stable (empty, not_an_image, truncated, too_many_pixels)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def load_photo(data: bytes, *, max_side: int | None = None) -> np.ndarray:
    """Decode `data` to an H×W×3 uint8 RGB array with EXIF orientation applied.

    With `max_side`, the longer side is at most that many pixels. A big JPEG is decoded at reduced size
    (`draft_scale`: a 12-megapixel one at half size for a 1600 px cap, about a quarter of the full decode's
    time), turned upright, then shrunk to the cap (bilinear from under twice the cap, area filter beyond)."""
    if not data:
        raise PhotoError("empty", "the photo is empty (0 bytes)")
    image = _open(data)
    width, height = image.size
    if width * height > MAX_PIXELS:  # from the header, before a single pixel is decoded
        raise PhotoError("too_many_pixels", f"the photo is {width}×{height} pixels; "
                         f"at most {MAX_PIXELS // 1_000_000} megapixels are accepted")
    if max_side is not None and (scale := draft_scale(width, height, max_side)) > 1:
        # Pillow picks the largest reduction that keeps both sides at least the requested size: ask for exactly
        # 1/scale (a no-op for formats other than JPEG).
        image.draft("RGB", (width // scale, height // scale))
    try:
        image.load()
    except (OSError, SyntaxError, ValueError) as error:
        raise PhotoError("truncated", f"the photo's data is incomplete or corrupt ({error})") from error
    ImageOps.exif_transpose(image, in_place=True)
    pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    if max_side is not None and max(pixels.shape[:2]) > max_side:
        # Under 2× (the case after a JPEG draft) bilinear drops no pixel and is ~5× faster than the area
        # filter (~6 vs ~30 ms for 2000×1500 → 1600×1200); beyond, area averaging keeps small tiles unaliased.
        # Both are several times faster than Pillow's resize.
        shrink = cv2.INTER_LINEAR if max(pixels.shape[:2]) < 2 * max_side else cv2.INTER_AREA
        pixels = cv2.resize(pixels, fit_size(pixels.shape[1], pixels.shape[0], max_side), interpolation=shrink)
    return pixels


def draft_scale(width: int, height: int, max_side: int) -> int:
    """The largest JPEG reduction (8, 4, 2 or 1) at which a width×height photo still has its longer side at
    least `max_side` pixels: decoding is cheapest, and the final shrink to `max_side` never enlarges."""
    longer = max(width, height)
    return next(scale for scale in JPEG_SCALES if scale == 1 or longer // scale >= max_side)


def fit_size(width: int, height: int, max_side: int) -> tuple[int, int]:
    """(width, height) scaled to a longer side of `max_side`, keeping the aspect ratio."""
    ratio = max_side / max(width, height)
    return max(1, round(width * ratio)), max(1, round(height * ratio))


def _open(data: bytes) -> Image.Image:
    try:
        return Image.open(io.BytesIO(data), formats=FORMATS)
    except Image.DecompressionBombError as error:
        raise PhotoError("too_many_pixels", str(error)) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise PhotoError("not_an_image", "the file is not a photo in a supported format "
                         f"({', '.join(FORMATS)})") from error
