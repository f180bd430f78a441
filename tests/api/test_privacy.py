"""Issue 36 item 3: photos are kept, served and exported without where they were taken or by whom; the picture and
its orientation are untouched."""

import io
import zipfile

import numpy as np
import pytest
from PIL import ExifTags, Image, PngImagePlugin, UnidentifiedImageError

from fanshot.api.storage.privacy import without_private_metadata
from tests.api.test_recognitions import confirmed_upload

GPS = {ExifTags.GPS.GPSLatitudeRef: "N", ExifTags.GPS.GPSLatitude: (22.0, 17.0, 30.5),
       ExifTags.GPS.GPSLongitudeRef: "E", ExifTags.GPS.GPSLongitude: (114.0, 9.0, 44.2)}
SECRETS = (b"Wong Kar Fai", b"SN-0042-TABLE", b"22.2917")  # the owner, the camera's serial, a coordinate in XMP


def private_exif(orientation: int = 6) -> Image.Exif:
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = orientation
    exif[ExifTags.Base.Artist] = "Wong Kar Fai"
    exif[ExifTags.Base.Make] = "Phone"
    exif.get_ifd(ExifTags.IFD.Exif)[ExifTags.Base.BodySerialNumber] = "SN-0042-TABLE"
    exif.get_ifd(ExifTags.IFD.GPSInfo).update(GPS)
    return exif


def picture() -> Image.Image:
    pixels = np.random.default_rng(3).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    return Image.fromarray(pixels)


def private_jpeg(orientation: int = 6, **save) -> bytes:
    buffer = io.BytesIO()
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><exif:GPSLatitude>22.2917</exif:GPSLatitude></x:xmpmeta>'
    picture().save(buffer, "JPEG", exif=private_exif(orientation), xmp=xmp, comment=b"Wong Kar Fai",
                   icc_profile=b"\0" * 128, **save)
    return buffer.getvalue()


def private_png() -> bytes:
    text = PngImagePlugin.PngInfo()
    text.add_text("Author", "Wong Kar Fai")
    text.add_itxt("XML:com.adobe.xmp", "<exif:GPSLatitude>22.2917</exif:GPSLatitude>")
    text.add_text("Comment", "SN-0042-TABLE", zip=True)
    buffer = io.BytesIO()
    picture().save(buffer, "PNG", pnginfo=text, exif=private_exif())
    return buffer.getvalue()


def leaks(photo: bytes) -> list[bytes]:
    image = Image.open(io.BytesIO(photo))
    found = [secret for secret in SECRETS if secret in photo]
    if image.getexif().get_ifd(ExifTags.IFD.GPSInfo):
        found.append(b"GPS")
    return found


@pytest.mark.parametrize("photo", [private_jpeg(), private_jpeg(progressive=True), private_png()],
                         ids=["jpeg", "progressive jpeg", "png"])
def test_metadata_goes_and_the_picture_and_its_orientation_stay(photo):
    assert leaks(photo)  # the photo as a phone would send it
    clean = without_private_metadata(photo)
    assert leaks(clean) == []
    before, after = Image.open(io.BytesIO(photo)), Image.open(io.BytesIO(clean))
    assert dict(after.getexif()) == {ExifTags.Base.Orientation: 6}
    assert np.array_equal(np.asarray(before), np.asarray(after))  # the same coded picture: nothing re-encoded


def test_the_colour_profile_stays():
    clean = Image.open(io.BytesIO(without_private_metadata(private_jpeg())))
    assert clean.info.get("icc_profile") == b"\0" * 128


def test_an_upright_photo_keeps_no_exif_at_all():
    clean = without_private_metadata(private_jpeg(orientation=1))
    assert b"Exif\0\0" not in clean and not Image.open(io.BytesIO(clean)).getexif()


def test_the_further_pictures_of_an_mpo_go_with_their_own_exif():
    buffer = io.BytesIO()
    picture().save(buffer, "MPO", save_all=True, append_images=[picture()], exif=private_exif())
    mpo = buffer.getvalue()
    clean = without_private_metadata(mpo)
    assert clean.count(b"\xff\xd8") == 1 and len(clean) < len(mpo) and leaks(clean) == []
    assert Image.open(io.BytesIO(clean)).format == "JPEG"


@pytest.mark.parametrize("other", [b"", b"GIF89a...", b"\xff\xd8\xff\xe1\x00", private_jpeg()[:-500],
                                   private_png()[:-30]], ids=["empty", "gif", "cut jpeg", "jpeg without its end",
                                                              "png without its end"])
def test_bytes_it_does_not_follow_are_not_passed_on(other):
    assert without_private_metadata(other) is None  # the caller re-encodes the pixels, or refuses the photo


@pytest.mark.storage
def test_no_upload_is_stored_served_or_exported_with_its_location(client):
    uploads = [confirmed_upload(client, photo) for photo in (private_jpeg(), private_png())]
    for created in uploads:
        served = client.get(f"/v1/recognitions/{created['id']}/image").content
        # turned by EXIF: served upright, in the frame of its boxes (storage/frames.py), so with no orientation to keep
        picture = Image.open(io.BytesIO(served))
        assert leaks(served) == [] and ExifTags.Base.Orientation not in picture.getexif()
        assert picture.size == (created["image"]["width"], created["image"]["height"])
    archive = zipfile.ZipFile(io.BytesIO(client.get("/v1/datasets/export?format=yolo").content))
    images = [name for name in archive.namelist() if "/images/" in name or name.startswith("images/")]
    assert len(images) == 2 and all(leaks(archive.read(name)) == [] for name in images)


@pytest.mark.storage
def test_photos_stored_with_their_metadata_before_it_was_removed_are_served_and_exported_without(client):
    created = confirmed_upload(client, private_jpeg())
    client.app.state.store.images.put(f"{created['id']}.jpg", private_jpeg())  # as an older version kept it
    assert leaks(client.get(f"/v1/recognitions/{created['id']}/image").content) == []
    archive = zipfile.ZipFile(io.BytesIO(client.get("/v1/datasets/export?format=yolo").content))
    assert leaks(archive.read(f"images/{created['id']}.jpg")) == []


# Issue 53: the probe's nine photos. A cleaner that cannot follow a file must re-encode it, never store it as sent.
MAKE = b"FanshotCam"


def located_exif() -> Image.Exif:
    exif = private_exif(orientation=1)  # upright, so a JPEG or PNG in the frame of its boxes is kept, cleaned
    exif[ExifTags.Base.Make] = MAKE.decode()
    return exif


def located(fmt: str, **save) -> bytes:
    buffer = io.BytesIO()
    picture().save(buffer, fmt, exif=located_exif(), **save)
    return buffer.getvalue()


def before_app1(extra: bytes) -> bytes:
    photo = located("JPEG")
    at = photo.index(b"\xff\xe1")
    return photo[:at] + extra + photo[at:]


LOCATED = {"jpeg": lambda: located("JPEG"), "progressive jpeg": lambda: located("JPEG", progressive=True),
           "stray bytes before APP1": lambda: before_app1(b"\x00\x13\x37"),
           "RST0 before APP1": lambda: before_app1(b"\xff\xd0"),
           "png": lambda: located("PNG"), "webp": lambda: located("WEBP", lossless=True),
           "heic": lambda: located("HEIF", quality=-1), "tiff": lambda: located("TIFF")}


def location_leaks(photo: bytes) -> list[str]:
    """What of the GPS position, camera make and owner's name the photo still tells, by its EXIF or its bytes."""
    try:
        exif = Image.open(io.BytesIO(photo)).getexif()
    except UnidentifiedImageError:
        exif = Image.Exif()
    found = ["GPS"] if exif.get_ifd(ExifTags.IFD.GPSInfo) else []
    found += [name for name, tag in (("Make", ExifTags.Base.Make), ("Artist", ExifTags.Base.Artist)) if tag in exif]
    return found + [secret.decode() for secret in (MAKE, b"Wong Kar Fai") if secret in photo]


@pytest.mark.parametrize("variant", [*LOCATED, "TEM before APP1"])
def test_every_probe_variant_tells_where_it_was_taken(variant):
    photo = LOCATED[variant]() if variant in LOCATED else before_app1(b"\xff\x01")
    assert location_leaks(photo) != []  # so a clean result below is the cleaner's work


@pytest.mark.parametrize("extra", [b"\x00\x13\x37", b"\xff\x01", b"\xff\xd0"], ids=["stray bytes", "TEM", "RST0"])
def test_a_jpeg_the_cleaner_cannot_follow_is_not_passed_on(extra):
    assert without_private_metadata(before_app1(extra)) is None  # the caller re-encodes its pixels


def test_a_segment_between_scans_is_not_passed_on():
    photo = located("JPEG", progressive=True)
    second_scan = photo.index(b"\xff\xda", photo.index(b"\xff\xda") + 2)
    comment = b"\xff\xfe\x00\x0eWong Kar Fai"
    assert without_private_metadata(photo[:second_scan] + comment + photo[second_scan:]) is None


@pytest.mark.storage
@pytest.mark.parametrize("variant", LOCATED)
def test_no_probe_variant_is_stored_served_or_exported_with_its_location(client, variant):
    created = confirmed_upload(client, LOCATED[variant]())
    stored, _ = client.app.state.store.image(created["id"])
    served = client.get(f"/v1/recognitions/{created['id']}/image").content
    archive = zipfile.ZipFile(io.BytesIO(client.get("/v1/datasets/export?format=yolo").content))
    [exported] = [name for name in archive.namelist() if name.startswith("images/")]
    assert {"stored": location_leaks(stored), "served": location_leaks(served),
            "exported": location_leaks(archive.read(exported))} == {"stored": [], "served": [], "exported": []}


@pytest.mark.storage
def test_a_jpeg_with_a_tem_marker_before_app1_is_refused_and_nothing_kept(client):
    response = client.post("/v1/recognitions", files={"photo": ("hand.jpg", before_app1(b"\xff\x01"))})
    assert response.status_code == 422 and response.json()["errors"][0]["code"] == "not_an_image"
    assert client.app.state.store.examples() == [] and client.app.state.store.confirmed_count() == 0
