"""What a stored photo must not give away: where it was taken, by whom, with which camera. A phone's JPEG carries
GPS coordinates, the owner's name and serial numbers in its EXIF, XMP and IPTC blocks; a PNG may carry them in
text chunks. Photos are kept, exported and served without them.

The cleaner fails closed (issue 53): it keeps a JPEG's or PNG's coded picture only when it can follow every byte
and every segment or chunk it keeps is on a list of those that hold no metadata. Anything else (stray bytes, a
marker out of place, a segment it does not know, another format) gets None, and the caller re-encodes the pixels
(api/storage/frames.py): the original is never stored. Only the EXIF orientation stays, which a viewer needs to
show the picture upright (the app keeps a photo as uploaded only when it is upright already)."""

from __future__ import annotations

import re
import zlib

from PIL import Image

from fanshot.vision.image import EXIF_ERRORS

JPEG_START = b"\xff\xd8"
START_OF_SCAN, END_OF_PICTURE = 0xDA, 0xD9
EXIF_HEADER = b"Exif\x00\x00"
ORIENTATION = 0x0112
# JPEG segments kept before the first scan: the frame header (SOF0-15 less DHT, JPG and DAC), Huffman, quantisation
# and arithmetic-coding tables, the restart interval, and the APP segments that hold no metadata: APP0 (JFIF),
# APP2 (an ICC colour profile; a multi-picture index "MPF" is dropped) and APP14 (Adobe colour transform).
FRAME_AND_TABLES = {*range(0xC0, 0xD0)} - {0xC8} | {0xDB, 0xDD}
KEPT_APPS = {0xE0, 0xE2, 0xEE}
DROPPED = {*range(0xE1, 0xF0)} - KEPT_APPS | {0xFE}  # other APP segments and comments: metadata
# Between a progressive JPEG's scans: tables, the restart interval, the number of lines, and the next scan.
BETWEEN_SCANS = {0xC4, 0xCC, 0xDB, 0xDD, 0xDC, START_OF_SCAN}
# In entropy-coded data a 0xFF is followed by 0x00 (a stuffed byte), a restart marker or more 0xFF (fill).
NEXT_MARKER = re.compile(rb"\xff(?![\x00\xd0-\xd7\xff])")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# PNG chunks kept: the picture, its palette and transparency, and how to show its colours; text, time, EXIF and
# any chunk not named here go.
PNG_KEPT = {b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"cHRM", b"gAMA", b"iCCP", b"sBIT", b"sRGB", b"cICP",
            b"bKGD", b"pHYs"}


def without_private_metadata(photo: bytes) -> bytes | None:
    """The photo (JPEG or PNG) with its metadata removed but the orientation, its picture untouched; None when the
    cleaner cannot prove the result clean: then only re-encoding the pixels can."""
    if photo.startswith(JPEG_START):
        return _clean_jpeg(photo)
    if photo.startswith(PNG_SIGNATURE):
        return _clean_png(photo)
    return None


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


def _segment(photo: bytes, at: int) -> tuple[int, int] | None:
    """The marker at `at` and the offset past its segment, or None where no whole segment starts there."""
    if at + 4 > len(photo) or photo[at] != 0xFF:
        return None
    end = at + 2 + int.from_bytes(photo[at + 2:at + 4], "big")
    return (photo[at + 1], end) if at + 4 <= end <= len(photo) else None


def _clean_jpeg(photo: bytes) -> bytes | None:
    """The JPEG's segments up to its first scan filtered, then its scans up to the first picture's end (an MPO's
    further pictures, each with its own EXIF, are dropped); None at anything it cannot follow."""
    kept, at = [JPEG_START], 2
    while (segment := _segment(photo, at)) is not None:
        marker, end = segment
        body = photo[at + 4:end]
        if marker == START_OF_SCAN:
            scans_end = _end_of_scans(photo, at)
            return None if scans_end is None else b"".join([*kept, photo[at:scans_end]])
        if marker == 0xE1 and body.startswith(EXIF_HEADER):
            if (orientation := exif_orientation(body)) != 1:
                block = orientation_exif(orientation)
                kept.append(b"\xff\xe1" + (len(block) + 2).to_bytes(2, "big") + block)
        elif marker in DROPPED or body.startswith(b"MPF\x00"):
            pass  # metadata, or a multi-picture index
        elif marker in FRAME_AND_TABLES or marker in KEPT_APPS:
            kept.append(photo[at:end])
        else:
            return None  # TEM, a restart marker, a second start of picture...: not a header this reader follows
        at = end
    return None


def _end_of_scans(photo: bytes, at: int) -> int | None:
    """The offset past the end-of-picture marker that closes the scans from `at`; None if anything but tables and
    scans comes first (an APP segment between scans could hold metadata), or the picture has no end."""
    while (segment := _segment(photo, at)) is not None:
        marker, end = segment
        if marker not in BETWEEN_SCANS:
            return None
        at = end
        if marker == START_OF_SCAN:
            found = NEXT_MARKER.search(photo, at)
            if found is None:
                return None
            at = found.start()
            if photo[at + 1:at + 2] == bytes([END_OF_PICTURE]):
                return at + 2
    return None


def _clean_png(photo: bytes) -> bytes | None:
    """The PNG's chunks that hold no metadata (an EXIF one back with the orientation alone); None at anything it
    cannot follow, or a critical chunk it does not know."""
    kept, at = [PNG_SIGNATURE], len(PNG_SIGNATURE)
    while at + 12 <= len(photo):
        length, kind = int.from_bytes(photo[at:at + 4], "big"), photo[at + 4:at + 8]
        end = at + 12 + length
        if end > len(photo):
            return None
        if kind == b"eXIf":
            if (orientation := exif_orientation(photo[at + 8:at + 8 + length])) != 1:
                kept.append(_png_chunk(b"eXIf", orientation_exif(orientation)[len(EXIF_HEADER):]))
        elif kind in PNG_KEPT:
            kept.append(photo[at:end])
        elif kind[:1].isupper():
            return None  # a critical chunk it does not know: the picture may need it
        at = end
        if kind == b"IEND":
            return b"".join(kept)
    return None


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")
