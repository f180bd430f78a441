import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image
from PIL.JpegImagePlugin import JpegImageFile

from vision.image import PhotoError, load_photo


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


def test_truncated():
    data = encode(Image.effect_noise((200, 200), 50).convert("RGB"))
    assert error_code(data[: len(data) // 2]) == "truncated"


@pytest.mark.parametrize("side", [7_500, 20_000])  # above the limit; above Pillow's own bomb error (2x)
def test_too_many_pixels_is_refused_from_the_header(side):
    assert error_code(png_header_only(side, side)) == "too_many_pixels"


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


def test_big_jpeg_is_decoded_at_reduced_size(monkeypatch):
    drafts = []
    draft = JpegImageFile.draft
    monkeypatch.setattr(JpegImageFile, "draft", lambda self, *args: drafts.append(draft(self, *args)))
    load_photo(encode(Image.new("RGB", (2400, 1600))), max_side=1000)
    assert drafts == [("RGB", (0, 0, 1200, 800))]  # decoded at half size, then shrunk to 1000
