"""What a stored photo must not give away: where it was taken, by whom, with which camera. A phone's JPEG carries
GPS coordinates, the owner's name and serial numbers in its EXIF, XMP and IPTC blocks; a PNG may carry them in
text chunks. Photos are kept, exported and served without them, the picture itself untouched (no re-encoding):
only the EXIF orientation stays, which a viewer needs to show the picture upright (the app keeps a photo as
uploaded only when it is upright already, and re-encodes any other: api/storage/frames.py)."""

from __future__ import annotations

import zlib

from PIL import Image

from fanshot.vision.image import EXIF_ERRORS

JPEG_START = b"\xff\xd8"
JPEG_END = b"\xff\xd9"
START_OF_SCAN = 0xDA
EXIF_HEADER = b"Exif\x00\x00"
ORIENTATION = 0x0112
# JPEG segments kept: APP0 (JFIF), APP2 (ICC colour profile; a multi-picture index "MPF" is dropped), APP14 (Adobe
# colour transform), and every non-APP segment before the scan (tables, frame header). The rest are metadata.
KEPT_APPS = {0xE0, 0xE2, 0xEE}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_METADATA = {b"tEXt", b"iTXt", b"zTXt", b"eXIf", b"tIME"}


def without_private_metadata(photo: bytes) -> bytes:
    """The photo (JPEG or PNG, as the store keeps them) with its metadata removed but the orientation; any other
    bytes are returned as they are."""
    if photo.startswith(JPEG_START):
        return _clean_jpeg(photo)
    if photo.startswith(PNG_SIGNATURE):
        return _clean_png(photo)
    return photo


def orientation_exif(orientation: int) -> bytes:
    """An EXIF block (with its `Exif\\0\\0` header) that holds the orientation tag alone."""
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    return exif.tobytes()


def exif_orientation(block: bytes) -> int:
    """The orientation tag of an EXIF block (with or without its header), 1 when absent or unreadable."""
    exif = Image.Exif()
    try:
        exif.load(block)
    except EXIF_ERRORS:
        return 1
    value = exif.get(ORIENTATION, 1)
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _clean_jpeg(photo: bytes) -> bytes:
    """The JPEG's segments up to its first scan filtered, then its scan data up to the first picture's end (an
    MPO's further pictures, each with its own EXIF, are dropped)."""
    kept, at = [JPEG_START], 2
    while at + 4 <= len(photo) and photo[at] == 0xFF:
        marker = photo[at + 1]
        if marker == 0xFF:  # fill byte before a marker
            at += 1
            continue
        length = int.from_bytes(photo[at + 2:at + 4], "big")
        segment, body = photo[at:at + 2 + length], photo[at + 4:at + 2 + length]
        if marker == START_OF_SCAN:
            end = photo.find(JPEG_END, at)
            kept.append(photo[at:] if end < 0 else photo[at:end + 2])
            return b"".join(kept)
        if marker == 0xE1 and body.startswith(EXIF_HEADER):
            orientation = exif_orientation(body)
            if orientation != 1:
                block = orientation_exif(orientation)
                kept.append(b"\xff\xe1" + (len(block) + 2).to_bytes(2, "big") + block)
        elif marker < 0xE0 or (marker in KEPT_APPS and not body.startswith(b"MPF\x00")):
            kept.append(segment)
        at += 2 + length
    return photo  # not a JPEG this reader follows: left alone, the decoder refuses it elsewhere


def _clean_png(photo: bytes) -> bytes:
    """The PNG's chunks less its text, time and EXIF ones (the EXIF back with the orientation alone)."""
    kept, at = [PNG_SIGNATURE], len(PNG_SIGNATURE)
    while at + 8 <= len(photo):
        length, kind = int.from_bytes(photo[at:at + 4], "big"), photo[at + 4:at + 8]
        chunk = photo[at:at + 12 + length]
        if kind == b"eXIf":
            orientation = exif_orientation(photo[at + 8:at + 8 + length])
            if orientation != 1:
                block = orientation_exif(orientation)[len(EXIF_HEADER):]
                kept.append(_png_chunk(b"eXIf", block))
        elif kind not in PNG_METADATA:
            kept.append(chunk)
        at += 12 + length
        if kind == b"IEND":
            break
    return b"".join(kept)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
