import io
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest
from PIL import Image
from PIL.JpegImagePlugin import JpegImageFile

from fanshot.vision.image import (
    MAX_ASPECT,
    MIN_SIDE,
    PhotoError,
    draft_scale,
    fit_size,
    load_photo,
    most_jpeg_scans,
)


def encode(image: Image.Image, format: str = "JPEG", **params) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=format, **params)
    return buffer.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares its size but carries no pixels: only a header check can classify it."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def error_code(data: bytes) -> str:
    with pytest.raises(PhotoError) as caught:
        load_photo(data)
    return caught.value.code


def test_decodes_rgb_uint8():
    pixels = load_photo(encode(Image.new("L", (30, 20), 128), "PNG"))
    assert pixels.shape == (20, 30, 3) and pixels.dtype == np.uint8


def test_empty():
    assert error_code(b"") == "empty"


def test_not_an_image():
    assert error_code(b"%PDF-1.4 this is a document, not a photo") == "not_an_image"


@pytest.mark.parametrize("max_side", [None, 100])  # full decode; decode at reduced size
def test_truncated(max_side):
    data = encode(Image.effect_noise((400, 400), 50).convert("RGB"))
    with pytest.raises(PhotoError) as caught:
        load_photo(data[: len(data) // 2], max_side=max_side)
    assert caught.value.code == "truncated"


@pytest.mark.parametrize("side", [7_500, 20_000])  # above the limit; above Pillow's own bomb error (2x)
def test_too_many_pixels_is_refused_from_the_header(side):
    assert error_code(png_header_only(side, side)) == "too_many_pixels"


@pytest.mark.parametrize(("width", "height", "fits"), [
    (640, 480, True),
    (MIN_SIDE, MIN_SIDE, True),
    (MIN_SIDE - 1, 400, False),
    (1, 1, False),
    (63, 63 * MAX_ASPECT, True),  # a hand in one tight row, turned a quarter, with room to spare
    (63, 63 * MAX_ASPECT + 1, False),
    (3000, 63, False),  # 11 tiles read in such a strip of noise before it was refused
    (1000, 30, False),
    (1, 5000, False),  # read as an empty photo before too_thin
    (20000, 1, False),
    (MIN_SIDE, MIN_SIDE * MAX_ASPECT + 1, False),
])
def test_a_photo_to_recognise_too_small_or_thin_to_hold_a_hand_is_refused_from_the_header(width, height, fits):
    data = png_header_only(width, height)  # no pixels: refused or accepted before a decode is tried
    with pytest.raises(PhotoError) as caught:
        load_photo(data, of_a_hand=True)
    assert (caught.value.code == "truncated") == fits
    assert error_code(data) == "truncated"  # a stored photo is read whatever its shape


def test_exif_orientation_is_applied():
    image = Image.new("RGB", (40, 20), (255, 0, 0))
    image.paste((0, 0, 255), (20, 0, 40, 20))  # left red, right blue
    exif = Image.Exif()
    exif[0x0112] = 6  # stored rotated: display needs a 90° clockwise turn
    pixels = load_photo(encode(image, exif=exif))
    assert pixels.shape == (40, 20, 3)
    top, bottom = pixels[5, 10], pixels[35, 10]
    assert top[0] > 200 > top[2] and bottom[2] > 200 > bottom[0]


def test_max_side_bounds_the_decoded_size():
    pixels = load_photo(encode(Image.new("RGB", (2400, 1600), (9, 9, 9))), max_side=500)
    assert max(pixels.shape[:2]) == 500 and pixels.shape[:2] == (333, 500)


def test_a_big_shrink_averages_fine_detail():
    noise = np.random.default_rng(0).integers(0, 256, (400, 2000, 3), dtype=np.uint8)  # std 74
    # A PNG has no reduced-size decode: a 4× shrink, where every output pixel should average its 4×4 pixels.
    pixels = load_photo(encode(Image.fromarray(noise), "PNG"), max_side=500)
    assert pixels.shape == (100, 500, 3) and pixels.std() < 25  # 18 averaged; sampling 2×2 would leave ~37


def test_big_jpeg_is_decoded_at_reduced_size(monkeypatch):
    drafts = []
    draft = JpegImageFile.draft
    monkeypatch.setattr(JpegImageFile, "draft", lambda self, *args: drafts.append(draft(self, *args)))
    load_photo(encode(Image.new("RGB", (2400, 1600))), max_side=1000)
    assert drafts == [("RGB", (0, 0, 1200, 800))]  # decoded at half size, then shrunk to 1000


@pytest.mark.parametrize(("width", "height", "max_side", "scale"), [
    (4000, 3000, 1600, 2),  # 12 MP for the API: 2000×1500, then shrunk to 1600
    (3000, 4000, 1600, 2),  # the same, portrait
    (4000, 3000, 1280, 2),
    (4000, 3000, 1000, 4),  # 1000×750 exactly: no shrink at all
    (4000, 3000, 500, 8),
    (4000, 3000, 100, 8),  # libjpeg reduces at most 8 times
    (3200, 2400, 1600, 2),
    (3199, 2400, 1600, 1),  # half would be 1599 px: full size, never enlarged afterwards
    (1600, 1200, 1600, 1),
    (640, 640, 1600, 1),
])
def test_draft_scale_is_the_largest_reduction_that_keeps_max_side(width, height, max_side, scale):
    assert draft_scale(width, height, max_side) == scale


@pytest.mark.parametrize(("size", "max_side", "fitted"), [
    ((2000, 1500), 1600, (1600, 1200)),
    ((1500, 2000), 1600, (1200, 1600)),
    ((2400, 1600), 500, (500, 333)),
    ((10_000, 3), 100, (100, 1)),
])
def test_fit_size_keeps_the_aspect_ratio(size, max_side, fitted):
    assert fit_size(*size, max_side) == fitted


# What ImageOps.exif_transpose does for each EXIF orientation is undone by storing the upright picture turned
# by the inverse.
STORED = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
          5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE,
          8: Image.Transpose.ROTATE_270}
QUADRANTS = {(0, 0): (255, 0, 0), (1, 0): (0, 255, 0), (0, 1): (0, 0, 255), (1, 1): (255, 255, 255)}


@pytest.mark.parametrize("orientation", [1, *STORED])
def test_big_jpeg_decoded_at_reduced_size_is_upright(orientation, monkeypatch):
    upright = Image.new("RGB", (4000, 3000))
    for (column, row), colour in QUADRANTS.items():  # red top left, green top right, blue, white below
        upright.paste(colour, (column * 2000, row * 1500, column * 2000 + 2000, row * 1500 + 1500))
    exif = Image.Exif()
    if orientation in STORED:
        exif[0x0112] = orientation
    stored = upright.transpose(STORED[orientation]) if orientation in STORED else upright
    drafts = []
    draft = JpegImageFile.draft
    monkeypatch.setattr(JpegImageFile, "draft", lambda self, *args: drafts.append(draft(self, *args)))
    pixels = load_photo(encode(stored, quality=92, exif=exif), max_side=1600)
    assert drafts[0][1][2:] == (stored.width // 2, stored.height // 2)  # decoded at half size
    assert pixels.shape == (1200, 1600, 3) and pixels.dtype == np.uint8
    for (column, row), colour in QUADRANTS.items():
        centre = pixels[row * 600 + 300, column * 800 + 400].astype(int)
        assert np.abs(centre - colour).max() < 12, (column, row, centre)


MEASURE_DECODE = """
import sys
from pathlib import Path
from PIL import Image
from fanshot.vision.image import RECOGNITION_MAX_SIDE, decode_bytes, draft_scale, is_jpeg, load_photo, _open

def high_water_kb():
    return int(next(line for line in open("/proc/self/status") if line.startswith("VmHWM")).split()[1])

data = Path(sys.argv[1]).read_bytes()
image = _open(data)
scale = draft_scale(*image.size, RECOGNITION_MAX_SIDE) if is_jpeg(image) else 1
before = high_water_kb()
load_photo(data, max_side=RECOGNITION_MAX_SIDE)
print((high_water_kb() - before) * 1024, decode_bytes(image, scale, RECOGNITION_MAX_SIDE))
"""


def gradient(mode: str, size: tuple[int, int]) -> Image.Image:
    return Image.linear_gradient("L").resize(size).convert(mode)


@pytest.mark.parametrize(("name", "image", "params"), [
    ("rgb.png", lambda: gradient("RGB", (4000, 3000)), {}),
    ("rgba16.png", lambda: None, {}),  # written by hand below: Pillow saves no 16-bit RGBA
    ("palette.gif", lambda: Image.radial_gradient("L").resize((4000, 3000)).convert("RGB").quantize(64), {}),
    ("cmyk.tif", lambda: gradient("CMYK", (4000, 3000)), {}),
    ("rgb.bmp", lambda: gradient("RGB", (4000, 3000)), {}),
    ("rgba.webp", lambda: gradient("RGBA", (4000, 3000)), {"lossless": True}),
    ("rgb.heic", lambda: gradient("RGB", (4000, 3000)), {"quality": 50}),
    ("progressive.jpg", lambda: gradient("RGB", (8000, 6000)), {"progressive": True}),
    ("baseline.jpg", lambda: gradient("RGB", (8000, 6000)), {}),
])
@pytest.mark.slow
def test_decoding_takes_no_more_memory_than_estimated(tmp_path, name, image, params):
    """The header-based estimate that bounds each decode (MAX_DECODE_BYTES) against the measured peak."""
    path = tmp_path / name
    if name == "rgba16.png":
        path.write_bytes(png_of_zeros(4000, 3000, colour_type=6, depth=16))
    else:
        image().save(path, **params)
    measured, estimated = map(int, subprocess.run([sys.executable, "-c", MEASURE_DECODE, str(path)], check=True,
                                                  capture_output=True, text=True).stdout.split())
    assert measured <= estimated, f"{name}: measured {measured >> 20} MB, estimated {estimated >> 20} MB"
    assert estimated <= 3 * max(measured, 16 << 20), f"{name}: the estimate refuses photos needlessly"


def zlib_of_zeros(length: int, block: int = 1 << 20) -> bytes:
    """A zlib stream of `length` zero bytes in milliseconds: one compressed block of zeros, repeated (a full flush
    ends each block on a byte boundary with nothing carried over), then the rest; the Adler-32 of n zeros is
    (n mod 65521) << 16 | 1."""
    repeated = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = repeated.compress(bytes(block)) + repeated.flush(zlib.Z_FULL_FLUSH)
    blocks, rest = divmod(length, block)
    last = zlib.compressobj(9, zlib.DEFLATED, -15)
    tail = last.compress(bytes(rest)) + last.flush()
    return b"\x78\xda" + piece * blocks + tail + struct.pack(">I", (length % 65521) << 16 | 1)


def test_zlib_of_zeros_is_a_valid_stream_of_that_many_zeros() -> None:
    for length in (0, 5, (1 << 20) - 1, 1 << 20, 3 * (1 << 20) + 77):
        assert zlib.decompress(zlib_of_zeros(length)) == bytes(length)


def png_of_zeros(width: int, height: int, colour_type: int = 2, depth: int = 8) -> bytes:
    """A PNG of zeros (each row: filter 0, then zero samples): kilobytes on disk, any size when decoded."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    pixels = zlib_of_zeros(height * (1 + width * channels * depth // 8))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


@pytest.mark.parametrize(("width", "height", "colour_type", "depth"), [
    (1, 49_000_000, 2, 8),  # 6 KB: was 1 GB and a 500
    (7000, 7000, 6, 16),
    (16000, 3000, 6, 16),
])
def test_decompression_bombs_are_refused_from_the_header(width, height, colour_type, depth):
    assert error_code(png_of_zeros(width, height, colour_type, depth)) == "too_many_pixels"


def test_heic_photos_are_read():
    pixels = load_photo(encode(Image.new("RGB", (640, 480), (200, 30, 30)), "HEIF", quality=90))
    assert pixels.shape == (480, 640, 3) and abs(int(pixels[240, 320, 0]) - 200) < 12


def scan_bomb(repeats: int, size: tuple[int, int] = (1600, 1200)) -> bytes:
    """A flat progressive JPEG whose last scan is repeated: a few KB that decode slower with every repeat (issue 36:
    a 97 KB one held a recognition worker for 33 s). It holds its encoder's ten scans and `repeats` - 1 more."""
    photo = encode(Image.new("RGB", size, (120, 130, 140)), progressive=True, quality=90)
    last = photo.rindex(b"\xff\xda")
    return photo[:last] + photo[last:-2] * repeats + photo[-2:]


def test_a_progressive_jpeg_of_too_many_scans_is_refused_before_decoding():
    assert error_code(scan_bomb(300)) == "too_many_scans"  # each repeat adds a pass over every block
    assert load_photo(scan_bomb(1)).shape == (1200, 1600, 3)  # an encoder's own ten scans
    assert load_photo(encode(Image.new("RGB", (64, 48)), progressive=True)).shape == (48, 64, 3)


def test_a_bigger_progressive_jpeg_may_hold_fewer_scans():
    # a scan is a pass over every block: 20 megapixels may take 40 scans, 50 megapixels 16, 16 megapixels 48
    assert [most_jpeg_scans(*size) for size in ((5000, 4000), (8660, 5773), (4000, 4000))] == [40, 16, 48]
    assert error_code(scan_bomb(32, (5000, 4000))) == "too_many_scans"  # 41 scans: was decoded (48 allowed)
    assert load_photo(scan_bomb(31, (5000, 4000)), max_side=1600).shape == (1280, 1600, 3)
