"""The shipped detector behind the API, on a real photo of the shared test split."""

import io
from pathlib import Path

import pytest
from PIL import Image

from fanshot.api.app import create_app
from fanshot.vision.image import MAX_ASPECT, MIN_SIDE
from tests.api.conftest import local_client, real_photo

pytestmark = pytest.mark.model

MODELS = Path(__file__).resolve().parents[2] / "models"

if not any(MODELS.glob("*.onnx")):
    pytest.skip(f"no ONNX model in {MODELS} yet (the vision work ships it)", allow_module_level=True)


def test_real_photo_is_recognised(tmp_path):
    client = local_client(create_app(tmp_path))
    response = client.post("/v1/recognitions", files={"photo": ("hand.jpg", real_photo().read_bytes())})
    assert response.status_code == 201, response.text
    result = response.json()
    assert len(result["tiles"]) >= 10
    width, height = result["image"]["width"], result["image"]["height"]
    assert all(0 <= t["box"][0] < t["box"][2] <= width and 0 <= t["box"][1] < t["box"][3] <= height
               for t in result["tiles"])
    assert isinstance(result["hand"]["concealed"], str)


@pytest.mark.parametrize(("width", "height"), [(MIN_SIDE, MIN_SIDE * MAX_ASPECT), (MAX_ASPECT * 200, 200)])
def test_the_thinnest_photos_accepted_are_read_not_a_500(tmp_path, width, height):
    client = local_client(create_app(tmp_path))
    photo = io.BytesIO()
    Image.new("RGB", (width, height), (20, 120, 60)).save(photo, "PNG")
    response = client.post("/v1/recognitions", files={"photo": ("thin.png", photo.getvalue())})
    assert response.status_code == 201, response.text
    assert response.json()["tiles"] == []


def test_a_drawn_box_is_named_by_the_shipped_classifier(tmp_path):
    client = local_client(create_app(tmp_path))
    recognition = client.post("/v1/recognitions", files={"photo": ("hand.jpg", real_photo().read_bytes())}).json()
    tile = max((t for t in recognition["tiles"] if t["code"] != "back"), key=lambda t: t["confidence"])
    response = client.post(f"/v1/recognitions/{recognition['id']}/classify", json={"box": tile["box"]})
    assert response.status_code == 200, response.text
    assert response.json()["code"] == tile["code"]
