import io
import zipfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from PIL import Image, ImageOps

from fanshot.api.app import create_app
from fanshot.datasets.importer import read_dataset
from fanshot.datasets.yolo import parse_data_yaml, parse_labels
from fanshot.scoring.tiles import DETECTOR_CLASSES
from tests.api.conftest import MISREAD, READ_CODES, fake_recognise, jpeg, local_client
from tests.vision.test_image import png_header_only, scan_bomb

pytestmark = pytest.mark.storage  # every test here reads or writes records or photos

WINNING_HAND = {"concealed": "123m456p789s11122z", "winning_tile": "2z"}


def confirmation_of(recognition: dict) -> dict:
    tiles = [{"code": tile["code"], "box": tile["box"]} for tile in recognition["tiles"]]
    tiles[MISREAD]["code"] = "3m"
    return {"tiles": tiles, "hand": dict(WINNING_HAND)}


def test_health(client):
    assert client.get("/healthz").json() == {"status": "ok"}


def test_page_and_docs_are_served(client):
    assert "<html" in client.get("/").text.lower()
    assert client.get("/docs").status_code == 200
    assert "/v1/recognitions/{recognition_id}/confirmation" in client.get("/openapi.json").json()["paths"]


def test_recognition_is_stored_and_read_back(client, recognition):
    assert len(recognition["id"]) == 32 and recognition["confirmation"] is None
    assert [tile["code"] for tile in recognition["tiles"]] == READ_CODES
    assert recognition["image"] == {"width": 640, "height": 480}
    assert client.get(f"/v1/recognitions/{recognition['id']}").json() == recognition
    image = client.get(f"/v1/recognitions/{recognition['id']}/image")
    assert image.headers["content-type"] == "image/jpeg" and image.content == jpeg()


def test_big_photos_are_recognised_at_reduced_size(client):
    response = client.post("/v1/recognitions", files={"photo": ("big.jpg", jpeg(4000, 3000))})
    assert response.json()["image"] == {"width": 1600, "height": 1200}


@pytest.mark.parametrize(("photo", "code"), [
    (b"", "empty"),
    (b"GIF89a? no, a text file", "not_an_image"),
    (jpeg()[:-500], "truncated"),
    (png_header_only(8000, 7000), "too_many_pixels"),
    (png_header_only(3000, 63), "too_thin"),
    (scan_bomb(300), "too_many_scans"),  # issue 36: refused before it can hold a worker
])
def test_bad_photos_are_refused_clearly(client, photo, code):
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", photo, "image/jpeg")})
    assert response.status_code == 422
    assert [error["code"] for error in response.json()["errors"]] == [code]


def test_missing_photo_field(client):
    response = client.post("/v1/recognitions", files={"picture": ("x.jpg", jpeg())})
    assert response.status_code == 422 and response.json()["errors"][0]["code"] == "bad_request"


def test_bodies_over_20_mb_are_refused_from_the_declared_length(client):
    response = client.post("/v1/recognitions", content=b"x" * (20 * 1024 * 1024 + 1),
                           headers={"content-type": "multipart/form-data; boundary=b"})
    assert response.status_code == 413 and response.json()["errors"][0]["code"] == "too_large"


def test_bodies_over_20_mb_are_refused_while_reading(client):
    def chunks():  # no Content-Length: the limit must hold while the body streams in
        for _ in range(21):
            yield b"x" * (1024 * 1024)
    response = client.post("/v1/recognitions", content=chunks(),
                           headers={"content-type": "multipart/form-data; boundary=b"})
    assert response.status_code == 413 and response.json()["errors"][0]["code"] == "too_large"


@pytest.mark.parametrize("path", ["/v1/recognitions/{}", "/v1/recognitions/{}/image"])
def test_unknown_ids_are_404(client, path):
    response = client.get(path.format("0" * 32))
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


def test_confirmation_is_stored(client, recognition):
    """DESIGN.md: `{"tiles": [{code, box}], "hand": {...} | null}`: a client that does not place tiles by index
    sends the hand in notation, and it is stored as sent."""
    url = f"/v1/recognitions/{recognition['id']}"
    response = client.put(f"{url}/confirmation", json=confirmation_of(recognition))
    assert response.status_code == 200, response.text
    stored = client.get(url).json()["confirmation"]
    assert stored == response.json() and stored["tiles"][MISREAD]["code"] == "3m"
    assert stored["hand"] == WINNING_HAND


def test_the_confirmation_keeps_where_each_tile_sits_and_how_the_hand_was_won(client, recognition):
    url = f"/v1/recognitions/{recognition['id']}"
    body = {"tiles": confirmation_of(recognition)["tiles"], "ruleset": "jipinghu", "options": {"min_fan": 1},
            "hand_tiles": {"concealed": list(range(12)), "melds": [], "flowers": [], "loose": [12, 13], "winning": 11},
            "context": {"win": "discard", "seat_wind": "2z", "prevalent_wind": "1z", "discarder": "3z"}}
    assert client.put(f"{url}/confirmation", json=body).status_code == 200
    stored = client.get(url).json()["confirmation"]
    assert {key: stored[key] for key in ("ruleset", "options", "hand_tiles", "context")} == {
        "ruleset": "jipinghu", "options": {"min_fan": 1}, "context": body["context"],
        "hand_tiles": {**body["hand_tiles"]}}


def placed_confirmation(recognition: dict) -> dict:
    """The fixed reading with a tile the photo does not show (added by hand, `box: null`) standing in the hand, the
    three 1z a pung, the 9s loose, and the detections two tiles are, by index."""
    tiles = confirmation_of(recognition)["tiles"] + [{"code": "5s", "box": None}]
    tiles[0]["detection"], tiles[MISREAD]["detection"] = 0, MISREAD
    return {"tiles": tiles, "hand_tiles": {"concealed": [*range(8), 12, 13, 14], "winning": 14, "loose": [8],
                                           "melds": [{"kind": "pung", "tiles": [9, 10, 11]}]}}


PLACED_HAND = {"concealed": "123m456p578s22z", "melds": [{"kind": "pung", "tiles": "111z"}], "flowers": "",
               "winning_tile": "5s"}


def test_the_hand_is_derived_from_where_each_tile_sits(client, recognition):
    """Issue 35: the hand was stored twice (notation and indices), unchecked; now `hand_tiles` is its one source,
    and a tile added without a box keeps its place in `tiles` (box null) for `hand_tiles` to name it."""
    url = f"/v1/recognitions/{recognition['id']}"
    body = placed_confirmation(recognition)
    response = client.put(f"{url}/confirmation", json=body)
    assert response.status_code == 200, response.text
    stored = client.get(url).json()["confirmation"]
    assert stored == response.json() and stored["hand"] == PLACED_HAND
    assert stored["tiles"][14] == {"code": "5s", "box": None} and stored["hand_tiles"]["winning"] == 14
    assert [tile.get("detection") for tile in stored["tiles"][:3]] == [0, None, MISREAD]


@pytest.mark.parametrize("hand", [
    PLACED_HAND,
    {**PLACED_HAND, "concealed": "22z875s654p321m"},  # the same tiles in another order
    {**PLACED_HAND, "flowers": None},  # null: not given
])
def test_a_hand_sent_beside_hand_tiles_may_be_the_one_they_place(client, recognition, hand):
    body = {**placed_confirmation(recognition), "hand": hand}
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["hand"] == PLACED_HAND


@pytest.mark.parametrize("hand", [
    WINNING_HAND,  # what the page stored before issue 35 beside a placement it disagreed with
    {**PLACED_HAND, "winning_tile": "2z"},
    {**PLACED_HAND, "melds": [{"kind": "pung", "tiles": "111z", "fed_by": "3z"}]},
])
def test_a_hand_sent_beside_hand_tiles_that_is_another_is_refused(client, recognition, hand):
    body = {**placed_confirmation(recognition), "hand": hand}
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body)
    assert response.status_code == 422, response.text
    [error] = response.json()["errors"]
    assert error["code"] == "hand_disagrees" and error["detail"] == {"field": "hand", "placed": PLACED_HAND}
    assert "leave hand out" in error["message"]
    assert client.get(f"/v1/recognitions/{recognition['id']}").json()["confirmation"] is None


@pytest.mark.parametrize(("change", "field"), [
    (lambda body: body["tiles"][0].update(detection=14), "tiles[0].detection"),  # the recognition has 14
    (lambda body: body["tiles"][0].update(detection=-1), "tiles[0].detection"),
    (lambda body: body["hand_tiles"].update(winning=12 + 99), "hand_tiles"),
    (lambda body: body["hand_tiles"].update(winning=9), "hand_tiles"),  # in a meld, not standing
])
def test_indices_that_name_no_such_tile_are_refused(client, recognition, change, field):
    body = placed_confirmation(recognition)
    change(body)
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body)
    assert response.status_code == 422, response.text
    [error] = response.json()["errors"]
    assert error["code"] == "bad_request" and field in error["message"]


def test_a_tile_without_a_box_is_placed_but_is_no_label(client, recognition):
    """The export, which adaptation reads as well (api/storage/export.py `labelled_files`), labels the tiles in the
    photo alone: a tile added by hand has no box to learn from."""
    body = placed_confirmation(recognition)
    assert client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body).status_code == 200
    labels = exported(client).read(f"labels/{recognition['id']}.txt").decode().splitlines()
    assert len(labels) == len(READ_CODES) == len(body["tiles"]) - 1


@pytest.mark.parametrize("hand_tiles", [{"concealed": [0, 0]}, {"loose": [14]}, {"concealed": [-1]},
                                        {"melds": [{"kind": "pung", "tiles": [0, 1, 99]}]}])
def test_hand_tiles_must_name_each_labelled_tile_at_most_once(client, recognition, hand_tiles):
    body = {**confirmation_of(recognition), "hand_tiles": hand_tiles}
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body)
    assert response.status_code == 422 and response.json()["errors"][0]["code"] == "bad_request"


def test_confirming_an_unknown_id_is_404(client, recognition):
    response = client.put(f"/v1/recognitions/{'f' * 32}/confirmation", json=confirmation_of(recognition))
    assert response.status_code == 404


def malformed(change):
    def make(recognition):
        body = confirmation_of(recognition)
        change(body)
        return body
    return make


@pytest.mark.parametrize(("make", "code"), [
    (malformed(lambda body: body["tiles"][0].update(code="10m")), "bad_request"),
    (malformed(lambda body: body["tiles"][0].update(box=[5, 5, 1, 9])), "bad_box"),
    (malformed(lambda body: body["tiles"][0].update(box=[0, 0, 9999, 10])), "bad_box"),
    (malformed(lambda body: body["tiles"][0].pop("box")), "bad_request"),
    (malformed(lambda body: body["hand"].update(winning_tile="1m2m")), "bad_tile"),
    (malformed(lambda body: body["hand"].update(melds=[{"kind": "pung", "tiles": "111s"}] * 1_000)),
     "too_many_tiles"),
    (malformed(lambda body: body["hand"].update(concealed="1m" * 15)), "too_many_tiles"),
    (malformed(lambda body: body["hand"].update(concealed="11111m")), "too_many_copies"),
    (malformed(lambda body: body["hand"].update(melds=[{"kind": "chow", "tiles": "135m"}])), "bad_meld"),
    (malformed(lambda body: body["hand"].update(winning_tile="9p")), "winning_tile_missing"),
    (malformed(lambda body: body.update(ruleset="riichi")), "unknown_ruleset"),
    (malformed(lambda body: body.update(options={"min_fan": "1"})), "bad_option"),
    (malformed(lambda body: body.update(context={"win": "tsumo"})), "bad_context"),
    (malformed(lambda body: body.update(context={"stake": {"unit": "10"}})), "bad_context"),
    (malformed(lambda body: body["hand"].update(concealed="123x")), "bad_tile"),
    (malformed(lambda body: body["hand"].update(extra=1)), "bad_request"),
    (lambda recognition: [1, 2, 3], "bad_request"),
])
def test_malformed_confirmations_are_422(client, recognition, make, code):
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=make(recognition))
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["code"] == code


@pytest.mark.parametrize("hand", [None, {"concealed": "123m45p", "melds": [{"kind": "pung", "tiles": "777z"}]},
                                  {"concealed": "", "winning_tile": ""},
                                  {"concealed": "11z", "melds": [{"kind": "kong", "tiles": "", "concealed": True},
                                                                 {"kind": "pung", "tiles": "55s"}]}])
def test_a_confirmation_may_have_no_hand_or_a_draft_one(client, recognition, hand):
    body = {**confirmation_of(recognition), "hand": hand}
    body["tiles"][0]["code"] = "back"
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body)
    assert response.status_code == 200, response.text
    assert response.json().get("hand") == hand and response.json()["tiles"][0]["code"] == "back"


def test_an_oversized_confirmation_is_refused_before_it_is_read(client, recognition):
    body = {**confirmation_of(recognition), "hand": {"concealed": "1m" * 9_000_000}}
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=body)
    assert response.status_code == 413 and response.json()["errors"][0]["code"] == "too_large"
    assert client.get(f"/v1/recognitions/{recognition['id']}").json()["confirmation"] is None


def test_if_match_guards_against_lost_updates(client, recognition):
    url = f"/v1/recognitions/{recognition['id']}"
    read = client.get(url).headers["etag"]
    first = client.put(f"{url}/confirmation", json=confirmation_of(recognition), headers={"If-Match": read})
    assert first.status_code == 200 and first.headers["etag"] != read
    assert client.get(url).headers["etag"] == first.headers["etag"]
    stale = client.put(f"{url}/confirmation", json={**confirmation_of(recognition), "hand": None},
                       headers={"If-Match": read})
    assert stale.status_code == 412 and stale.json()["errors"][0]["code"] == "precondition_failed"
    assert stale.headers["etag"] == first.headers["etag"]
    assert client.get(url).json()["confirmation"] == first.json()
    again = client.put(f"{url}/confirmation", json=confirmation_of(recognition),
                       headers={"If-Match": first.headers["etag"]})
    assert again.status_code == 200 and again.json()["confirmed_at"] >= first.json()["confirmed_at"]


def test_concurrent_confirmations_with_one_etag_store_exactly_one(client, recognition):
    url = f"/v1/recognitions/{recognition['id']}"
    read = client.get(url).headers["etag"]

    def confirm(index: int) -> int:
        body = confirmation_of(recognition)
        body["tiles"][0]["code"] = DETECTOR_CLASSES[index]
        return client.put(f"{url}/confirmation", json=body, headers={"If-Match": read}).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(confirm, range(16)))
    assert sorted(statuses) == [200] + [412] * 15


def test_confirmations_are_stamped_in_the_order_they_are_stored(client, recognition):
    url = f"/v1/recognitions/{recognition['id']}"
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: client.put(f"{url}/confirmation", json=confirmation_of(recognition)),
                                range(16)))
    latest = max(answer.json()["confirmed_at"] for answer in answers)
    assert client.get(url).json()["confirmation"]["confirmed_at"] == latest


def test_export_is_a_yolo_dataset_of_confirmed_photos(client, recognition):
    client.post("/v1/recognitions", files={"photo": ("unconfirmed.jpg", jpeg())})
    put = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=confirmation_of(recognition))
    assert put.status_code == 200, put.text
    response = client.get("/v1/datasets/export?format=yolo")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    name = recognition["id"]
    assert sorted(archive.namelist()) == ["data.yaml", f"images/{name}.jpg", f"labels/{name}.txt"]
    assert parse_data_yaml(archive.read("data.yaml").decode(), "data.yaml")["names"] == list(DETECTOR_CLASSES)
    boxes = parse_labels(archive.read(f"labels/{name}.txt").decode(), "labels", len(DETECTOR_CLASSES))
    assert [DETECTOR_CLASSES[box.cls] for box in boxes][:4] == ["1m", "2m", "3m", "4p"]
    first = recognition["tiles"][0]["box"]
    assert boxes[0].cx == pytest.approx((first[0] + first[2]) / 2 / 640, abs=1e-6)
    assert boxes[0].h == pytest.approx(0.2, abs=1e-6)


def test_export_reimports_as_a_dataset(client, recognition, tmp_path):
    client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=confirmation_of(recognition))
    zipfile.ZipFile(io.BytesIO(client.get("/v1/datasets/export").content)).extractall(tmp_path / "export")
    [example] = read_dataset(tmp_path / "export")[""]
    assert example.image.name == f"{recognition['id']}.jpg" and len(example.boxes) == len(READ_CODES)


def test_export_turns_exif_rotated_photos_upright(client):
    exif = Image.Exif()
    exif[0x0112] = 6
    created = client.post("/v1/recognitions", files={"photo": ("r.jpg", jpeg(640, 480, exif=exif))}).json()
    assert created["image"] == {"width": 480, "height": 640}
    client.put(f"/v1/recognitions/{created['id']}/confirmation", json=confirmation_of(created))
    archive = zipfile.ZipFile(io.BytesIO(client.get("/v1/datasets/export").content))
    assert Image.open(archive.open(f"images/{created['id']}.jpg")).size == (480, 640)


def quartered_jpeg(width: int, height: int, **save) -> bytes:
    """A photo whose four quarters differ, so that a turn or a flip shows."""
    image = Image.new("RGB", (width, height), (20, 120, 60))
    image.paste((200, 30, 30), (0, 0, width // 2, height // 2))
    image.paste((30, 30, 200), (width // 2, height // 2, width, height))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=95, **save)
    return buffer.getvalue()


def upright_pixels(photo: bytes, size: tuple[int, int]) -> np.ndarray:
    """The photo as a viewer shows it (EXIF orientation applied), at `size`."""
    return np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(photo))).convert("RGB").resize(size), float)


def assert_in_frame(served: bytes, photo: bytes, recognition: dict) -> None:
    """`served` is `photo` upright, at the size of the recognition's `image`: the frame its boxes use."""
    picture = Image.open(io.BytesIO(served))
    size = (recognition["image"]["width"], recognition["image"]["height"])
    assert picture.size == size and picture.getexif().get(0x0112, 1) == 1
    assert np.abs(np.asarray(picture.convert("RGB"), float) - upright_pixels(photo, size)).mean() < 4


ROTATED = Image.Exif()
ROTATED[0x0112] = 6  # the camera was turned: a viewer shows the stored pixels turned 90° clockwise


@pytest.mark.parametrize(("photo", "frame"), [
    (quartered_jpeg(640, 480, exif=ROTATED), (480, 640)),
    (quartered_jpeg(4000, 3000), (1600, 1200)),
    (quartered_jpeg(3000, 2000, exif=ROTATED), (1067, 1600)),
], ids=["turned", "shrunk", "turned-and-shrunk"])
def test_a_stored_photo_is_in_the_frame_of_its_boxes(client, photo, frame):
    """Issue 35: "a stored photo is in the frame of its boxes": upright, at the size the boxes refer to, for the
    page, any client of the image and the export (which adaptation reads) alike."""
    created = confirmed_upload(client, photo)
    assert (created["image"]["width"], created["image"]["height"]) == frame
    assert_in_frame(client.get(f"/v1/recognitions/{created['id']}/image").content, photo, created)
    assert_in_frame(exported(client).read(f"images/{created['id']}.jpg"), photo, created)


def test_a_photo_stored_as_uploaded_before_is_served_and_exported_in_the_frame_of_its_boxes(client):
    photo = quartered_jpeg(3000, 2000, exif=ROTATED)
    created = confirmed_upload(client, photo)
    client.app.state.store.images.put(f"{created['id']}.jpg", photo)  # as a version before issue 35 kept it
    assert_in_frame(client.get(f"/v1/recognitions/{created['id']}/image").content, photo, created)
    assert_in_frame(exported(client).read(f"images/{created['id']}.jpg"), photo, created)


def test_a_stored_photo_the_store_damaged_is_served_as_stored_not_a_500(client):
    created = confirmed_upload(client, quartered_jpeg(640, 480))
    client.app.state.store.images.put(f"{created['id']}.jpg", b"\xff\xd8 damaged")
    answer = client.get(f"/v1/recognitions/{created['id']}/image")
    assert answer.status_code == 200 and answer.content == b"\xff\xd8 damaged"
    assert exported(client).read("skipped.txt").decode() == (
        f"{created['id']}.jpg: damaged in the image store (it no longer decodes)\n")


def test_unknown_export_format_is_422(client):
    assert client.get("/v1/datasets/export?format=coco").status_code == 422


def test_errors_never_leak_internals(tmp_path):
    def broken(image, models_dir, original=None):
        raise RuntimeError("secret detail in /srv/fanshot/vision.py")
    client = local_client(create_app(tmp_path, recognise=broken), raise_server_exceptions=False)
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 500
    assert response.json() == {"errors": [{"code": "internal", "message": response.json()["errors"][0]["message"]}]}
    assert "secret" not in response.text and "Traceback" not in response.text


def test_missing_recogniser_is_503(tmp_path):
    def absent(image, models_dir, original=None):
        raise ModuleNotFoundError("No module named 'fanshot.vision.recogniser'")
    client = local_client(create_app(tmp_path, recognise=absent))
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 503 and response.json()["errors"][0]["code"] == "model_unavailable"


def test_fake_recogniser_keeps_boxes_inside_the_photo():
    import numpy as np
    result = fake_recognise(np.zeros((100, 200, 3), np.uint8))
    assert all(0 <= t["box"][0] < t["box"][2] <= 200 for t in result["tiles"])


def test_undecodable_bodies_are_422(client, recognition):
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", content=b"\xff\xfe{",
                          headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["errors"][0]["code"] == "bad_request"


def test_wrong_method_says_what_is_allowed(client):
    response = client.delete("/v1/score")
    assert response.status_code == 405 and response.headers["allow"] == "POST"


def test_recognised_tiles_can_be_echoed_back_as_the_confirmation(client, recognition):
    tiles = [dict(tile) for tile in recognition["tiles"]]  # with confidence and alternatives
    tiles[MISREAD]["code"] = "3m"
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation",
                          json={"tiles": tiles, "hand": WINNING_HAND})
    assert response.status_code == 200, response.text
    assert response.json()["tiles"][MISREAD] == {"code": "3m", "box": recognition["tiles"][MISREAD]["box"]}


def test_concurrent_confirmations_of_one_photo_are_all_stored_one_after_another(client, recognition):
    """Phones (or instances) confirming the same photo at once: each waits for the one before, none fails."""
    url = f"/v1/recognitions/{recognition['id']}/confirmation"
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: client.put(url, json=confirmation_of(recognition)), range(40)))
    assert [answer.status_code for answer in answers] == [200] * 40
    latest = max(answer.json()["confirmed_at"] for answer in answers)
    assert client.get(f"/v1/recognitions/{recognition['id']}").json()["confirmation"]["confirmed_at"] == latest


def photo_bytes(format: str, colour: tuple[int, int, int] = (20, 120, 60), **params) -> bytes:  # noqa: A002
    buffer = io.BytesIO()
    Image.new("RGB", (640, 480), colour).save(buffer, format, **params)
    return buffer.getvalue()


def confirmed_upload(client, data: bytes, name: str = "hand.jpg") -> dict:
    created = client.post("/v1/recognitions", files={"photo": (name, data)})
    assert created.status_code == 201, created.text
    created = created.json()
    assert client.put(f"/v1/recognitions/{created['id']}/confirmation",
                      json=confirmation_of(created)).status_code == 200
    return created


def exported(client) -> zipfile.ZipFile:
    response = client.get("/v1/datasets/export?format=yolo")
    assert response.status_code == 200
    return zipfile.ZipFile(io.BytesIO(response.content))


@pytest.mark.parametrize(("format", "params", "suffix"), [
    ("GIF", {}, ".jpg"), ("TIFF", {}, ".jpg"), ("WEBP", {}, ".jpg"), ("BMP", {}, ".jpg"),
    ("HEIF", {"quality": 90}, ".jpg"), ("MPO", {"save_all": True}, ".jpg"), ("PNG", {}, ".png"),
    ("JPEG", {}, ".jpg"),
])
def test_every_photo_is_stored_and_exported_as_jpeg_or_png(client, tmp_path, format, params, suffix):  # noqa: A002
    created = confirmed_upload(client, photo_bytes(format, **params))
    image = client.get(f"/v1/recognitions/{created['id']}/image")
    assert image.headers["content-type"] == {".jpg": "image/jpeg", ".png": "image/png"}[suffix]
    assert Image.open(io.BytesIO(image.content)).size == (640, 480)
    exported(client).extractall(tmp_path / "export")
    [example] = read_dataset(tmp_path / "export")[""]
    assert example.image.name == f"{created['id']}{suffix}" and len(example.boxes) == len(READ_CODES)


def test_a_photo_uploaded_three_times_is_exported_once_with_its_latest_confirmation(client):
    first, second, third = (confirmed_upload(client, jpeg()) for _ in range(3))
    latest = confirmation_of(third)
    latest["tiles"] = latest["tiles"][:5]
    assert client.put(f"/v1/recognitions/{second['id']}/confirmation", json=latest).status_code == 200
    archive = exported(client)
    assert sorted(archive.namelist()) == ["data.yaml", f"images/{second['id']}.jpg", f"labels/{second['id']}.txt"]
    assert len(archive.read(f"labels/{second['id']}.txt").decode().splitlines()) == 5


def test_export_splits_train_and_val_by_photo(client, tmp_path):
    ids = [confirmed_upload(client, photo_bytes("JPEG", (index * 20, 90, 200)))["id"] for index in range(12)]
    archive = exported(client)
    data = parse_data_yaml(archive.read("data.yaml").decode(), "data.yaml")
    assert (data["train"], data["val"]) == ("train/images", "val/images")
    archive.extractall(tmp_path / "export")
    splits = read_dataset(tmp_path / "export")
    train, val = ({example.image.stem for example in splits[split]} for split in ("train", "val"))
    assert val and train and not train & val and train | val == set(ids)
    assert exported(client).namelist() == archive.namelist()  # the same photos in the same splits every time


def test_the_recogniser_gets_the_uploaded_file_to_read_small_faces_at_full_size(tmp_path):
    seen = {}

    def recognise(image, models_dir, original=None):
        seen["read"], seen["full"] = image.shape, original.pixels().shape
        return fake_recognise(image)
    client = local_client(create_app(tmp_path, recognise=recognise))
    assert client.post("/v1/recognitions", files={"photo": ("big.jpg", jpeg(4000, 3000))}).status_code == 201
    assert seen == {"read": (1200, 1600, 3), "full": (3000, 4000, 3)}
