"""A stored photo is in the frame of its boxes (issue 35): upright (its EXIF orientation applied) and at the size the
recogniser read it (the recognition's `image`, at most 1600 px a side), so that a box's pixels are the photo's
pixels for every reader: the page, the dataset export, adaptation, any client of `GET .../image`. A JPEG or PNG
already in that frame is kept as uploaded, less its private metadata (api/storage/privacy.py); any other photo as the
pixels read: a PNG stays lossless, the rest becomes a JPEG. So does a JPEG or PNG whose metadata the cleaner cannot
prove gone: it fails closed, and the pixels are re-encoded rather than the original stored."""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from PIL import Image, UnidentifiedImageError

from fanshot.api.storage.privacy import ORIENTATION, without_private_metadata
from fanshot.vision.image import PhotoError, load_photo, readable_exif

KEPT_AS_UPLOADED = {"JPEG": ("image/jpeg", ".jpg"), "PNG": ("image/png", ".png")}
JPEG_QUALITY = 95


def framed(photo: bytes, width: int, height: int, pixels: Callable[[], np.ndarray]) -> tuple[bytes, str, str]:
    """`photo` in the width×height upright frame of its boxes (bytes, MIME type, suffix); `pixels()`: the photo
    decoded in that frame, called only when the photo is not already in it."""
    image = Image.open(io.BytesIO(photo))
    kind = "JPEG" if image.format == "MPO" else image.format  # an MPO is a JPEG with more pictures appended
    upright = readable_exif(image).get(ORIENTATION, 1) == 1
    if kind in KEPT_AS_UPLOADED and upright and image.size == (width, height) and \
            (clean := without_private_metadata(photo)) is not None:
        return clean, *KEPT_AS_UPLOADED[kind]
    encoded = io.BytesIO()
    if kind == "PNG":
        Image.fromarray(pixels()).save(encoded, "PNG")
    else:
        Image.fromarray(pixels()).save(encoded, "JPEG", quality=JPEG_QUALITY)
    return encoded.getvalue(), *KEPT_AS_UPLOADED["PNG" if kind == "PNG" else "JPEG"]


class DamagedPhoto(Exception):
    """A stored photo whose bytes no longer decode: the image store damaged it."""


def in_frame(photo: bytes, image: dict[str, int]) -> tuple[bytes, str, str]:
    """A stored photo in the frame of its recognition's `image`: itself for every photo stored since issue 35; one
    stored before (as uploaded: perhaps turned by EXIF alone, perhaps larger) decoded into that frame."""
    width, height = image["width"], image["height"]
    try:
        return framed(photo, width, height, lambda: load_photo(photo, max_side=max(width, height)))
    except (UnidentifiedImageError, PhotoError, OSError) as damaged:
        raise DamagedPhoto(str(damaged)) from damaged
