"""Shared fixtures: an app on a temporary data directory with a small deterministic fake recogniser."""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from PIL import Image

from fanshot.api.app import create_app
from tests.services import free_port

SHARED_TEST_IMAGES = Path(__file__).resolve().parents[2] / "../shared/data/chinese-mahjong-detection/test/images"
# A self-drawn winning hand, 123m 456p 789s 111z 22z, read with one mistake: the third tile as 3s.
READ_CODES = ["1m", "2m", "3s", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]
MISREAD = 2


def fake_recognise(image: np.ndarray, models_dir: Path | None = None, original: object = None) -> dict[str, Any]:
    """Fourteen tiles in a row across the middle of the photo; tile MISREAD is the uncertain one."""
    height, width = image.shape[:2]
    step = width / len(READ_CODES)
    tiles = []
    for index, code in enumerate(READ_CODES):
        uncertain = index == MISREAD
        tiles.append({
            "box": [round(index * step + 1, 1), round(height * 0.4, 1), round((index + 1) * step - 1, 1),
                    round(height * 0.6, 1)],
            "code": code,
            "confidence": 0.41 if uncertain else 0.97,
            "alternatives": [{"code": "3m", "p": 0.38}, {"code": "3p", "p": 0.1}, {"code": "9s", "p": 0.001}]
            if uncertain else [],
        })
    return {
        "image": {"width": width, "height": height},
        "tiles": tiles,
        "groups": [{"kind": "concealed", "tiles": list(range(len(READ_CODES)))}],
        "hand": {"concealed": "12m456p3789s11122z", "melds": [], "flowers": "", "winning_tile": "2z"},
        "hand_tiles": {"concealed": list(range(len(READ_CODES))), "melds": [], "flowers": [], "loose": []},
        "suggestions": [{"changes": [{"tile": MISREAD, "from": "3s", "to": "3m"}], "p": 0.38,
                         "text": "tile 3: 3s → 3m makes a winning hand (p 0.38)"}],
        "timing_ms": {"total": 1.0},
    }


def fake_name_tile(image: np.ndarray, box: list[float], models_dir: Path | None = None) -> dict[str, Any]:
    """Every drawn box holds a plum flower (1f), the tile the browser tests draw a box for."""
    return {"code": "1f", "confidence": 0.9, "alternatives": [{"code": "2f", "p": 0.06}, {"code": "3f", "p": 0.0}]}


def fake_load_models() -> str:
    return "test-models"


CHROMIUM = Path("/usr/bin/chromium")  # Debian's; Playwright's own browser download is not needed
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-background-networking", "--disable-gpu"]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """One Playwright driver for the session: the browser lane runs last (tests/conftest.py), so the driver's
    event loop never meets another test's."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """One Chromium for every browser test (each start costs about a second of CPU, with its driver more); every
    page opens in a context of its own, so no test sees another's storage."""
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


def jpeg(width: int = 640, height: int = 480, **save: Any) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (20, 120, 60)).save(buffer, "JPEG", **save)
    return buffer.getvalue()


BACKENDS = ["embedded", pytest.param("postgres+s3", marks=pytest.mark.postgres)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked `storage` (it reads or writes records or photos) runs on both backends; any other test of the
    app runs on the embedded one alone, which is all it can tell apart."""
    if "storage" in metafunc.fixturenames and metafunc.definition.get_closest_marker("storage"):
        metafunc.parametrize("storage", BACKENDS, indirect=True)


@pytest.fixture
def storage(request: pytest.FixtureRequest) -> dict[str, str]:
    """create_app's storage options: the embedded default (nothing), or a new PostgreSQL database at the newest
    schema and a new bucket on the S3-compatible server."""
    if getattr(request, "param", "embedded") == "embedded":
        return {}
    return {"database_url": request.getfixturevalue("migrated_postgres_url"),
            "images_url": request.getfixturevalue("s3_images_url"),
            "s3_endpoint_url": request.getfixturevalue("s3_endpoint")}


@pytest.fixture
def client(tmp_path: Path, storage: dict[str, str]) -> Iterator[TestClient]:
    client = local_client(create_app(tmp_path / "data", **storage, recognise=fake_recognise,
                                     name_tile=fake_name_tile, load_models=fake_load_models))
    yield client
    client.app.state.store.engine.dispose()  # its pooled connections: the PostgreSQL cluster allows 200 in all


def local_client(app: FastAPI, **options: Any) -> TestClient:
    """A test client that calls the app by a name it answers to (the app refuses TestClient's `testserver`)."""
    return TestClient(app, base_url="http://localhost", **options)


@pytest.fixture
def recognition(client: TestClient) -> dict[str, Any]:
    response = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")})
    assert response.status_code == 201, response.text
    return response.json()


def real_photo() -> Path:
    photos = sorted(SHARED_TEST_IMAGES.glob("*.jpg"))
    if not photos:
        pytest.skip(f"no shared test photos at {SHARED_TEST_IMAGES} (CI provides ../shared)")
    return photos[0]


def serve(data_dir: Path, port: int, *options: str) -> subprocess.Popen:
    """A real `fanshot serve` process, returned once it answers /healthz; its log is in `server.log_file`."""
    # A file, not a pipe: a chatty server must never block on its log. It lives as long as the server.
    log_file = tempfile.TemporaryFile()  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "fanshot", "serve", "--port", str(port),
                               "--data-dir", str(data_dir), *options], stdout=log_file, stderr=log_file)
    server.log_file = log_file
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.1)
        if server.poll() is not None:
            raise RuntimeError(f"server exited: {server_log(server)[-2000:]}")
    server.kill()
    raise TimeoutError("server did not start within 60 s")


@contextmanager
def served(data_dir: Path, *options: str) -> Iterator[str]:
    """A real `fanshot serve` on a free port for the block (its base URL), killed with SIGKILL after it: what
    it acknowledged must already be on disk."""
    port = free_port()
    server = serve(data_dir, port, *options)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.kill()
        server.wait()


def server_log(server: subprocess.Popen) -> str:
    server.log_file.seek(0)
    return server.log_file.read().decode(errors="replace")
