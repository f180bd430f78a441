"""Photo bytes → RGB pixels, upright as the camera meant them, refusing anything that is not a sane photo."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PIXELS = 50_000_000
# Pillow's own bomb guard (warns above this, refuses above twice this) backs up the header check below.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
# Formats phones and scanners produce (JPEG covers MPO); Pillow's other decoders are needless attack surface.
FORMATS = ("JPEG", "PNG", "WEBP", "BMP", "GIF", "TIFF")


class PhotoError(Exception):
    """A photo that cannot be read; `code` is stable (empty, not_an_image, truncated, too_many_pixels)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def load_photo(data: bytes, *, max_side: int | None = None) -> np.ndarray:
    """Decode `data` to an H×W×3 uint8 RGB array with EXIF orientation applied.

    With `max_side`, the longer side is at most that many pixels; big JPEGs are decoded at reduced size
    (Image.draft), which is several times faster than decoding 12 megapixels and shrinking afterwards."""
    if not data:
        raise PhotoError("empty", "the photo is empty (0 bytes)")
    image = _open(data)
    width, height = image.size
    if width * height > MAX_PIXELS:  # from the header, before a single pixel is decoded
        raise PhotoError("too_many_pixels", f"the photo is {width}×{height} pixels; "
                         f"at most {MAX_PIXELS // 1_000_000} megapixels are accepted")
    if max_side is not None and max(width, height) > max_side:
        # draft() keeps both sides at least the requested size, so request the aspect-preserving target.
        scale = max_side / max(width, height)
        image.draft("RGB", (max(1, int(width * scale)), max(1, int(height * scale))))
    try:
        image.load()
    except (OSError, SyntaxError, ValueError) as error:
        raise PhotoError("truncated", f"the photo's data is incomplete or corrupt ({error})") from error
    image = ImageOps.exif_transpose(image).convert("RGB")
    if max_side is not None and max(image.size) > max_side:
        image.thumbnail((max_side, max_side), Image.Resampling.BILINEAR)
    return np.asarray(image)


def _open(data: bytes) -> Image.Image:
    try:
        return Image.open(io.BytesIO(data), formats=FORMATS)
    except Image.DecompressionBombError as error:
        raise PhotoError("too_many_pixels", str(error)) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise PhotoError("not_an_image", "the file is not a photo in a supported format "
                         f"({', '.join(FORMATS)})") from error
