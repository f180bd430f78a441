import io
import zipfile

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.app import create_app
from datasets.importer import read_dataset
from datasets.yolo import parse_data_yaml, parse_labels
from scoring.tiles import DETECTOR_CLASSES
from tests.api.conftest import MISREAD, READ_CODES, fake_recognize, jpeg
from tests.vision.test_image import png_header_only

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
    url = f"/v1/recognitions/{recognition['id']}"
    response = client.put(f"{url}/confirmation", json=confirmation_of(recognition))
    assert response.status_code == 200, response.text
    stored = client.get(url).json()["confirmation"]
    assert stored == response.json() and stored["tiles"][MISREAD]["code"] == "3m"


def test_the_confirmation_keeps_where_each_tile_sits_and_how_the_hand_was_won(client, recognition):
    url = f"/v1/recognitions/{recognition['id']}"
    body = {**confirmation_of(recognition), "ruleset": "jipinghu", "options": {"min_fan": 1},
            "hand_tiles": {"concealed": list(range(12)), "melds": [], "flowers": [], "loose": [12, 13]},
            "context": {"win": "discard", "seat_wind": "2z", "prevalent_wind": "1z", "discarder": "3z"}}
    assert client.put(f"{url}/confirmation", json=body).status_code == 200
    stored = client.get(url).json()["confirmation"]
    assert {key: stored[key] for key in ("ruleset", "options", "hand_tiles", "context")} == {
        "ruleset": "jipinghu", "options": {"min_fan": 1}, "context": body["context"],
        "hand_tiles": {**body["hand_tiles"]}}


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
    (malformed(lambda body: body.pop("hand")), "bad_request"),
    (malformed(lambda body: body["hand"].update(concealed="123x")), "bad_tile"),
    (malformed(lambda body: body["hand"].update(extra=1)), "bad_request"),
    (lambda recognition: [1, 2, 3], "bad_request"),
])
def test_malformed_confirmations_are_422(client, recognition, make, code):
    response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation", json=make(recognition))
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["code"] == code


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


def test_unknown_export_format_is_422(client):
    assert client.get("/v1/datasets/export?format=coco").status_code == 422


def test_errors_never_leak_internals(tmp_path):
    def broken(image, models_dir):
        raise RuntimeError("secret detail in /srv/fanshot/vision.py")
    client = TestClient(create_app(tmp_path, recognize=broken), raise_server_exceptions=False)
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 500
    assert response.json() == {"errors": [{"code": "internal", "message": response.json()["errors"][0]["message"]}]}
    assert "secret" not in response.text and "Traceback" not in response.text


def test_missing_recognizer_is_503(tmp_path):
    def absent(image, models_dir):
        raise ModuleNotFoundError("No module named 'vision.recognize'")
    client = TestClient(create_app(tmp_path, recognize=absent))
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 503 and response.json()["errors"][0]["code"] == "model_unavailable"


def test_fake_recognizer_keeps_boxes_inside_the_photo():
    import numpy as np
    result = fake_recognize(np.zeros((100, 200, 3), np.uint8))
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
