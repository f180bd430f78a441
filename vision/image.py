"""Photo bytes → RGB pixels, upright as the camera meant them, refusing anything that is not a sane photo.

Memory is bounded before a pixel is decoded: from the header, the memory the decode will take is estimated
(`decode_bytes`, per format, checked against measurements by tests/vision/test_image.py); a photo over
MAX_DECODE_BYTES is refused, and a caller may reserve the estimate from a shared budget while decoding."""

from __future__ import annotations

import io
import struct
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

import cv2
import numpy as np
import pillow_heif
from PIL import Image, ImageOps, UnidentifiedImageError

pillow_heif.register_heif_opener()  # iPhone photos (HEIC)
MAX_PIXELS = 50_000_000
# Pillow's own bomb guard (warns above this, refuses above twice this) backs up the header check below.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
# Formats phones and scanners produce (JPEG covers MPO); Pillow's other decoders are needless attack surface.
FORMATS = ("JPEG", "PNG", "WEBP", "BMP", "GIF", "TIFF", "HEIF")
# The most memory one decode may take: a 50-megapixel JPEG, PNG, TIFF, GIF or BMP fits, as does a 48-megapixel
# HEIC (an iPhone's largest); WebP, whose decoder holds three copies, up to 23 megapixels.
MAX_DECODE_BYTES = 448 * 1024 * 1024
# Peak bytes per pixel of a full-size decode and its reduction below, per format, on the worst mode each has
# (16-bit RGBA PNG, CMYK TIFF, palette GIF, lossless RGBA WebP): measured 7.9, 8.9, 5.1, 18.5, 8.7 for HEIC
# (tests/vision/test_image.py checks every estimate against a measurement).
BYTES_PER_PIXEL = {"PNG": 8, "GIF": 6, "BMP": 6, "TIFF": 10, "WEBP": 20, "HEIF": 9}
PIPELINE_BYTES_PER_PIXEL = 16
BYTES_PER_ROW = 64  # Pillow keeps a pointer and a block header per row: a 1×49-million-pixel image is rows only
Reserve = Callable[[int], AbstractContextManager[object]]
# The detector works at ≤ 640 px and the tile crops need ~80 px per tile; 1600 px keeps both and lets a
# 12-megapixel JPEG decode at half size. The app, `fanshot read` and `fanshot eval` all decode to this.
RECOGNITION_MAX_SIDE = 1600
JPEG_SCALES = (8, 4, 2, 1)  # libjpeg decodes at 1/8, 1/4, 1/2 or full size, each step about twice as fast
# The thinnest photo that can hold a hand: laid out in one row, a hand is at most 26 faces of 3:4 (14 tiles, 4
# more for kongs, 8 flowers), about 20 times as long as it is tall; 24 leaves room for gaps. The localiser never
# saw a thinner photo and reads noise in one as tiles (63×3000 px of noise: 11).
MAX_ASPECT = 24
MIN_SIDE = 16  # px: a face under this cannot be read (the classifier reads it enlarged to 64 px)
# A progressive JPEG's decode time grows with its scans times its pixels, whatever its size in bytes: each scan is
# a pass over the blocks of the whole photo (about 50 ms a scan at 50 megapixels here), encoders write about ten,
# and a 97 KB file that repeats one scan a thousand times held a worker for 33 s (issue 36). Scans are counted as
# start-of-scan markers, which entropy-coded data cannot hold (an EXIF thumbnail's few add to the count). A photo
# may hold MAX_JPEG_SCANS, and fewer as it grows: MAX_JPEG_SCAN_PIXELS is 16 scans at 50 megapixels, 48 at 16.
MAX_JPEG_SCANS = 48
MAX_JPEG_SCAN_PIXELS = 16 * MAX_PIXELS
START_OF_SCAN = b"\xff\xda"


class PhotoError(Exception):
    """A photo that cannot be read; `code` is stable (empty, not_an_image, truncated, too_many_pixels,
    too_many_scans, too_thin)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Original:
    """A photo's file beside the pixels read from it, for a stage that needs it at its own resolution
    (`fine_crops`): its longer side from the header, its pixels only when asked (within `reserve`, as above)."""

    data: bytes
    reserve: Reserve = lambda _: nullcontext()

    def longer_side(self) -> int:
        return max(_open(self.data).size)

    def pixels(self) -> np.ndarray:
        """At full size, or halved as often as the decode's memory bound needs (a 50 MP JPEG at half size): the
        photo was accepted, so reading it closer must not refuse it."""
        image = _open(self.data)
        side = max(image.size)
        while side > MIN_SIDE and decode_cost(image, side)[1] > MAX_DECODE_BYTES:
            side //= 2
        return load_photo(self.data, max_side=side, reserve=self.reserve)


def check_room_for_a_hand(width: int, height: int) -> None:
    """Refuse (`too_thin`) a photo too small or too thin to hold a hand's tiles."""
    shorter, longer = sorted((width, height))
    if shorter < MIN_SIDE:
        raise PhotoError("too_thin", f"the photo is {width}×{height} pixels; a tile needs at least {MIN_SIDE} px "
                         "each way")
    if longer > MAX_ASPECT * shorter:
        raise PhotoError("too_thin", f"the photo is {width}×{height} pixels, {longer / shorter:.0f} times as long as "
                         f"it is across; a hand fits in one at most {MAX_ASPECT} times as long (crop less tightly)")


def load_photo(data: bytes, *, max_side: int | None = None, reserve: Reserve = lambda _: nullcontext(),
               of_a_hand: bool = False) -> np.ndarray:
    """Decode `data` to an H×W×3 uint8 RGB array with EXIF orientation applied.

    With `max_side`, the longer side is at most that many pixels. A big JPEG is decoded at reduced size
    (`draft_scale`: a 12-megapixel one at half size for a 1600 px cap, about a quarter of the full decode's
    time); other formats are reduced by whole factors as soon as they are decoded. Then the photo is turned
    upright and shrunk to the cap (bilinear from under twice the cap, area filter beyond). `reserve(bytes)`
    is held while decoding: e.g. a share of a memory budget that several requests decode within. `of_a_hand`: a
    photo to recognise, refused before decoding if it cannot hold a hand (`check_room_for_a_hand`)."""
    if not data:
        raise PhotoError("empty", "the photo is empty (0 bytes)")
    image = _open(data)
    width, height = image.size
    if width * height > MAX_PIXELS:  # from the header, before a single pixel is decoded
        raise PhotoError("too_many_pixels", f"the photo is {width}×{height} pixels; "
                         f"at most {MAX_PIXELS // 1_000_000} megapixels are accepted")
    if of_a_hand:
        check_room_for_a_hand(width, height)
    if is_jpeg(image) and (scans := data.count(START_OF_SCAN)) > (most := most_jpeg_scans(width, height)):
        raise PhotoError("too_many_scans", f"the JPEG holds {scans} scans of {width}×{height} pixels; photos have "
                         f"about ten, and one this size may hold at most {most} (save it again as an ordinary, "
                         "baseline JPEG, or smaller)")
    scale, cost = decode_cost(image, max_side)
    if cost > MAX_DECODE_BYTES:
        raise PhotoError("too_many_pixels", f"this {image.format} of {width}×{height} pixels would take about "
                         f"{cost >> 20} MB to decode; at most {MAX_DECODE_BYTES >> 20} MB (a JPEG of up to "
                         f"{MAX_PIXELS // 1_000_000} megapixels always fits)")
    with reserve(cost):  # until the last copy is made: the estimate counts them
        image = decoded(image, scale, max_side)
        upright(image)
        pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
        if max_side is not None and max(pixels.shape[:2]) > max_side:
            # Under 2× (the case after a JPEG draft) bilinear drops no pixel and is ~5× faster than the area
            # filter (~6 vs ~30 ms for 2000×1500 → 1600×1200); beyond, area averaging keeps small tiles unaliased.
            # Both are several times faster than Pillow's resize.
            shrink = cv2.INTER_LINEAR if max(pixels.shape[:2]) < 2 * max_side else cv2.INTER_AREA
            pixels = cv2.resize(pixels, fit_size(pixels.shape[1], pixels.shape[0], max_side), interpolation=shrink)
        return pixels


def scan_work(data: bytes) -> int:
    """A JPEG's decode work, known before decoding it: its scans times its pixels (each scan is a pass over every
    block, however small the decode's output); 0 for any other photo, or a header that cannot be read."""
    try:
        image = _open(data)
    except PhotoError:
        return 0
    return data.count(START_OF_SCAN) * image.width * image.height if is_jpeg(image) else 0


def most_jpeg_scans(width: int, height: int) -> int:
    """The most scans a width×height JPEG may hold: each is a pass over every block (MAX_JPEG_SCAN_PIXELS)."""
    return min(MAX_JPEG_SCANS, MAX_JPEG_SCAN_PIXELS // max(1, width * height))


def is_jpeg(image: Image.Image) -> bool:
    return image.format in ("JPEG", "MPO")


def decode_cost(image: Image.Image, max_side: int | None) -> tuple[int, int]:
    """The JPEG draft scale a decode to `max_side` takes (1 for other formats), and its memory (`decode_bytes`)."""
    width, height = image.size
    scale = draft_scale(width, height, max_side) if max_side is not None and is_jpeg(image) else 1
    return scale, decode_bytes(image, scale, max_side)


def decode_bytes(image: Image.Image, scale: int, max_side: int | None) -> int:
    """About the most memory (bytes) decoding `image` takes, from its header: a JPEG decoded at 1/`scale`
    holds that in RGB (4 bytes a pixel in Pillow), plus its coefficients at full size if progressive; other
    formats decode at full size (BYTES_PER_PIXEL). Then the kept pixels pass through a few copies (upright,
    RGB, array)."""
    width, height = image.size
    if is_jpeg(image):
        kept = (width // scale) * (height // scale)
        progressive = image.info.get("progressive") or image.info.get("progression")
        decode = kept * 4 + (width * height * len(image.getbands()) * 2 if progressive else 0)
    else:
        factor = reduction(width, height, max_side)
        kept = (width // factor) * (height // factor)
        decode = width * height * BYTES_PER_PIXEL.get(image.format or "", max(BYTES_PER_PIXEL.values()))
    return decode + kept * PIPELINE_BYTES_PER_PIXEL + height * BYTES_PER_ROW


def reduction(width: int, height: int, max_side: int | None) -> int:
    """The whole factor a full-size decode is reduced by: the largest that keeps the longer side >= max_side."""
    return max(1, max(width, height) // max_side) if max_side is not None else 1


def decoded(image: Image.Image, scale: int, max_side: int | None) -> Image.Image:
    """The pixels of `image`: a JPEG at 1/`scale`; other formats at full size, then at once reduced by the
    largest whole factor that keeps the longer side at least `max_side` (box average: no detail aliases)."""
    width, height = image.size
    if scale > 1:
        # Pillow picks the largest reduction that keeps both sides at least the requested size: ask for exactly
        # 1/scale.
        image.draft("RGB", (width // scale, height // scale))
    try:
        image.load()
    except (OSError, SyntaxError, ValueError) as error:
        raise PhotoError("truncated", f"the photo's data is incomplete or corrupt ({error})") from error
    factor = 1 if is_jpeg(image) else reduction(width, height, max_side)
    if factor < 2:
        return image
    if image.mode not in ("L", "LA", "RGB", "RGBA", "I", "F"):  # palette, 1-bit, 16-bit, CMYK…: reduce() lacks them
        image = image.convert("RGBA" if "transparency" in image.info or "A" in image.mode else "RGB")
    exif = readable_exif(image)
    reduced = image.reduce(factor)
    reduced.info["exif"] = exif.tobytes()  # reduce() keeps no metadata; the orientation is still to apply
    return reduced


# What Pillow raises on an EXIF block that is malformed or cut short (seen in fuzzed PNG, WebP and HEIC photos)
EXIF_ERRORS = (SyntaxError, ValueError, TypeError, KeyError, IndexError, struct.error, OSError)


def readable_exif(image: Image.Image) -> Image.Exif:
    """The photo's EXIF, or none when its EXIF block cannot be read."""
    try:
        return image.getexif()
    except EXIF_ERRORS:
        return Image.Exif()


def upright(image: Image.Image) -> None:
    """Turn the photo by its EXIF orientation, in place. A photo whose EXIF cannot be read is taken as it is
    stored (no orientation), not refused: the pixels are fine, and the picture shows them as stored."""
    try:
        ImageOps.exif_transpose(image, in_place=True)
    except EXIF_ERRORS:
        return  # as stored


def draft_scale(width: int, height: int, max_side: int) -> int:
    """The largest JPEG reduction (8, 4, 2 or 1) at which a width×height photo still has its longer side at
    least `max_side` pixels: decoding is cheapest, and the final shrink to `max_side` never enlarges."""
    longer = max(width, height)
    return next(scale for scale in JPEG_SCALES if scale == 1 or longer // scale >= max_side)


def fit_size(width: int, height: int, max_side: int) -> tuple[int, int]:
    """(width, height) scaled to a longer side of `max_side`, keeping the aspect ratio."""
    ratio = max_side / max(width, height)
    return max(1, round(width * ratio)), max(1, round(height * ratio))


# Pillow's own opener, bound before anything can replace it: importing ultralytics (the train extra, for an
# adaptation) swaps `Image.open` process-wide for one that, on bytes Pillow cannot identify, imports pi_heif and
# raises ModuleNotFoundError, a 500 where a photo that is no photo is a 422 (`restore_pillow_open`).
PILLOW_OPEN = Image.open


def restore_pillow_open() -> None:
    """Put Pillow's own `Image.open` back, for every caller in the process, after importing ultralytics."""
    Image.open = PILLOW_OPEN


def _open(data: bytes) -> Image.Image:
    try:
        return PILLOW_OPEN(io.BytesIO(data), formats=FORMATS)
    except Image.DecompressionBombError as error:
        raise PhotoError("too_many_pixels", str(error)) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise PhotoError("not_an_image", "the file is not a photo in a supported format "
                         f"({', '.join(FORMATS)})") from error
