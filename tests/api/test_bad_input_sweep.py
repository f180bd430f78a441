"""A sweep of bad and odd requests across every operation, with the real recogniser: none may get a 5xx, and
every refusal is the documented error shape."""

import io
import itertools
import json
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from fanshot.api.app import create_app
from tests.api.conftest import jpeg, local_client
from tests.vision.test_image import png_of_zeros

pytestmark = pytest.mark.model

MODELS = Path(__file__).resolve().parents[2] / "models"
SCORE = {"hand": {"concealed": "123m456p789s11122z", "winning_tile": "2z"}}
ODD_VALUES = [None, True, False, 0, -1, 1.5, 1e308, -1e308, "", "x", "😀" * 50, "1m" * 5000, [], [None], {},
              {"a": 1}, [[[[]]]], "NaN", 2**70]
SCORE_FIELDS = [("ruleset",), ("options",), ("options", "fans"), ("options", "min_fan"), ("options", "ghosts"),
                ("hand",), ("hand", "concealed"), ("hand", "melds"), ("hand", "flowers"), ("hand", "winning_tile"),
                ("context",), ("context", "win"), ("context", "seat_wind"), ("context", "special"),
                ("context", "stake"), ("context", "stake", "unit"), ("context", "horses")]


def with_value(body: dict, where: tuple[str, ...], value) -> dict:
    body = json.loads(json.dumps(body))
    target = body
    for key in where[:-1]:
        target = target.setdefault(key, {}) if isinstance(target.get(key, {}), dict) else {}
    target[where[-1]] = value
    return body


def image_bytes(size: tuple[int, int], format: str, mode: str = "RGB", **params) -> bytes:  # noqa: A002
    buffer = io.BytesIO()
    Image.new(mode, size).save(buffer, format, **params)
    return buffer.getvalue()


def score_cases():
    for where, value in itertools.product(SCORE_FIELDS, ODD_VALUES):
        yield "POST", "/v1/score", {"json": with_value(SCORE, where, value)}
    for raw in [b"", b"{", b"[]", b"null", b"1", b'"x"', b"\xff\xfe", b'{"hand": NaN}', b"{" * 10000,
                b'{"hand": {"concealed": "123m"}, "hand": 1}', json.dumps({"a": "b" * 300_000}).encode()]:
        yield "POST", "/v1/score", {"content": raw, "headers": {"content-type": "application/json"}}
    yield "POST", "/v1/score", {"content": json.dumps(SCORE), "headers": {"content-type": "text/plain"}}
    yield "POST", "/v1/score", {"content": json.dumps(SCORE), "headers": {"content-length": "abc"}}


def photo_cases():
    photos = [b"", b"x", b"GIF89a", jpeg()[:100], jpeg()[:-300], png_of_zeros(1, 49_000_000),
              png_of_zeros(7000, 7000, 6, 16), png_of_zeros(20000, 1), png_of_zeros(1, 5000),
              image_bytes((1, 1), "PNG"), image_bytes((5000, 1), "PNG"), image_bytes((3, 3), "GIF", "P"),
              image_bytes((64, 64), "TIFF", "F"), image_bytes((64, 64), "PNG", "I;16"),
              image_bytes((64, 64), "PNG", "LA"), image_bytes((64, 64), "WEBP", "RGBA"),
              image_bytes((64, 64), "BMP", "1"), image_bytes((64, 64), "HEIF"), image_bytes((64, 64), "JPEG", "CMYK"),
              image_bytes((64, 64), "JPEG", "L"), image_bytes((64, 64), "ICO"), image_bytes((64, 64), "PPM"),
              b"%PDF-1.4", b"<svg xmlns='http://www.w3.org/2000/svg'/>", zlib.compress(b"0" * 1000),
              struct.pack(">I", 0xFFFFFFFF) * 100]
    for photo in photos:
        yield "POST", "/v1/recognitions", {"files": {"photo": ("x.jpg", photo, "image/jpeg")}}
    yield "POST", "/v1/recognitions", {"files": {"picture": ("x.jpg", jpeg())}}
    yield "POST", "/v1/recognitions", {"files": [("photo", ("a.jpg", jpeg())), ("photo", ("b.jpg", jpeg()))]}
    yield "POST", "/v1/recognitions", {"data": {"photo": "not a file"}}
    yield "POST", "/v1/recognitions", {"json": {"photo": "x"}}
    yield "POST", "/v1/recognitions", {"content": b"--b\r\nbroken", "headers": {"content-type":
                                                                             "multipart/form-data; boundary=b"}}
    yield "POST", "/v1/recognitions", {"content": b"x", "headers": {"content-type": "multipart/form-data"}}


def confirmation_cases(recognition_id: str):
    url = f"/v1/recognitions/{recognition_id}/confirmation"
    tile = {"code": "1m", "box": [1, 1, 10, 10]}
    bodies = [None, [], {}, {"tiles": None}, {"tiles": [None]}, {"tiles": [{"code": "1m"}]},
              {"tiles": [{**tile, "code": "10m"}]}, {"tiles": [{**tile, "box": [1, 2]}]},
              {"tiles": [{**tile, "box": ["a", 1, 2, 3]}]}, {"tiles": [{**tile, "box": [-1, 1, 2, 3]}]},
              {"tiles": [tile] * 201},
              {"tiles": [tile], "hand": "123m"}, {"tiles": [tile], "hand": []},
              {"tiles": [tile], "hand": {"concealed": 5}}, {"tiles": [tile], "hand": {"melds": "x"}},
              {"tiles": [tile], "hand": {"concealed": "1m", "melds": [{"kind": "pung", "tiles": "1111111m"}]}},
              {"tiles": [tile], "hand": {"concealed": "1m" * 100}}, {"tiles": [tile], "hand": {"concealed": "😀"}},
              {"tiles": [tile], "hand": {"concealed": "1m", "flowers": "11f"}},
              {"tiles": [tile], "hand": {"concealed": "1m", "winning_tile": ["1m"]}}]
    for body in bodies:
        yield "PUT", url, {"json": body}
    for raw in [b'{"tiles": [{"code": "1m", "box": [1e309, 1, 2, 3]}]}', b'{"tiles": [{"code": "1m", "box": '
                b'[NaN, 1, 2, 3]}]}', b'{"tiles": [], "hand": {"concealed": Infinity}}']:
        yield "PUT", url, {"content": raw, "headers": {"content-type": "application/json"}}
    for tag in ['"nope"', "W/\"x\"", "", ",,,", "*" * 10000]:
        yield "PUT", url, {"json": {"tiles": [tile]}, "headers": {"if-match": tag}}


def path_cases(recognition_id: str):
    ids = ["0" * 32, "x", "..", "%2e%2e%2fetc%2fpasswd", "a" * 5000, "%00", "😀", recognition_id.upper()]
    for bad_id in ids:
        for suffix in ("", "/image"):
            yield "GET", f"/v1/recognitions/{bad_id}{suffix}", {}
        yield "PUT", f"/v1/recognitions/{bad_id}/confirmation", {"json": {"tiles": []}}
    for method, path in [("DELETE", "/v1/score"), ("GET", "/v1/score"), ("PATCH", "/v1/rulesets"),
                         ("POST", "/healthz"), ("GET", "/v1/rulesets/%00"), ("GET", "/v1/rulesets/" + "x" * 5000),
                         ("GET", "/v1/datasets/export?format=coco"), ("GET", "/v1/datasets/export?format="),
                         ("GET", "/v1/datasets/export?format=yolo&format=yolo"), ("GET", "/nowhere"),
                         ("GET", "/static/../api/app.py"), ("GET", "/static/%2e%2e/app.py"),
                         ("OPTIONS", "/v1/score"), ("HEAD", "/")]:
        yield method, path, {}
    for headers in [{"host": "evil.example"}, {"host": ""}, {"origin": "https://evil.example"}, {"origin": "null"},
                    {"sec-fetch-site": "cross-site"}, {"cookie": "fanshot_token=\x7f; ;;="},
                    {"authorization": "Bearer"}]:
        yield "POST", "/v1/score", {"json": SCORE, "headers": headers}


@pytest.mark.skipif(not any(MODELS.glob("*.onnx")), reason="no ONNX model in models/")
def test_no_bad_request_gets_a_5xx(tmp_path):
    client = local_client(create_app(tmp_path), raise_server_exceptions=False)
    created = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg())})
    assert created.status_code == 201
    recognition_id = created.json()["id"]
    cases = [*score_cases(), *photo_cases(), *confirmation_cases(recognition_id), *path_cases(recognition_id)]
    assert len(cases) >= 305
    failures = []
    for method, path, request in cases:
        response = client.request(method, path, **request)
        if response.status_code >= 500:
            failures.append((method, path, str(request)[:120], response.status_code, response.text[:200]))
        elif response.status_code >= 400 and method != "HEAD":
            body = response.json()
            assert set(body) == {"errors"} and all({"code", "message"} <= set(error) <= {"code", "message", "detail"}
                                                   for error in body["errors"])
    assert failures == []
