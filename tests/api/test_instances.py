"""Two `fanshot serve` processes on one PostgreSQL database and one S3-compatible store behave as one service:
what is written through one is read, confirmed, exported and followed through the other, and killing one
(SIGKILL) loses no write it acknowledged while the other keeps serving."""

from __future__ import annotations

import io
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest

from fanshot.api.storage.store import Store
from fanshot.cli import main
from fanshot.datasets.classes import CLASS_INDEX
from tests.api.conftest import fake_recognise, free_port, jpeg, serve
from tests.api.test_games import CHICKEN, PLAYERS, read_event, self_draw

pytestmark = pytest.mark.server

HAND = {"concealed": "123m456p789s11122z", "winning_tile": "2z"}


@pytest.fixture
def shared_storage(postgres_url, s3_images_url, s3_endpoint) -> dict[str, str]:
    assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
    return {"database_url": postgres_url, "images_url": s3_images_url, "s3_endpoint_url": s3_endpoint}


@pytest.fixture
def instances(tmp_path, shared_storage):
    """Two servers (each its own empty data directory: nothing is kept there) and their base URLs."""
    options = [f"--{option.replace('_', '-')}={value}" for option, value in shared_storage.items()]
    servers, urls = [], []
    try:
        for name in ("a", "b"):
            port = free_port()
            servers.append(serve(tmp_path / name, port, *options))
            urls.append(f"http://127.0.0.1:{port}")
        yield servers, urls
    finally:
        for server in servers:
            server.kill()
            server.wait()


def confirmation(box_right: float = 10.0) -> dict:
    return {"tiles": [{"code": "1m", "box": [1, 1, box_right, 10]}], "hand": HAND}


def test_upload_through_one_confirm_through_the_other_export_by_either(instances):
    _, (a, b) = instances
    uploaded = httpx.post(f"{a}/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")}, timeout=60)
    assert uploaded.status_code == 201, uploaded.text
    recognition_id = uploaded.json()["id"]
    assert httpx.get(f"{b}/v1/recognitions/{recognition_id}/image").content == jpeg()
    confirmed = httpx.put(f"{b}/v1/recognitions/{recognition_id}/confirmation", json=confirmation())
    assert confirmed.status_code == 200, confirmed.text
    assert httpx.get(f"{a}/v1/recognitions/{recognition_id}").json()["confirmation"] == confirmed.json()
    for url in (a, b):
        export = httpx.get(f"{url}/v1/datasets/export", timeout=60)
        with zipfile.ZipFile(io.BytesIO(export.content)) as archive:
            assert archive.read(f"images/{recognition_id}.jpg") == jpeg()
            assert archive.read(f"labels/{recognition_id}.txt").decode().startswith(f"{CLASS_INDEX['1m']} ")


def test_a_game_written_through_one_streams_to_a_follower_of_the_other(instances):
    _, (a, b) = instances
    game_id = httpx.post(f"{a}/v1/games", json={"players": PLAYERS}).json()["id"]
    with httpx.stream("GET", f"{b}/v1/games/{game_id}/events", timeout=20) as stream:
        lines = stream.iter_lines()
        assert read_event(lines)["version"] == 1
        added = httpx.post(f"{a}/v1/games/{game_id}/hands", json=self_draw(1, CHICKEN))
        assert added.status_code == 201, added.text
        live = read_event(lines)
    assert (live["version"], live["hands"][0]["points"]) == (2, [-2, 6, -2, -2])
    assert live == httpx.get(f"{b}/v1/games/{game_id}").json()


def test_killing_one_instance_in_a_burst_of_confirmations_loses_no_acknowledged_write(tmp_path, instances,
                                                                                       shared_storage):
    (killed, _), (a, b) = instances
    store = Store(tmp_path / "direct", **shared_storage)
    result = fake_recognise(np.zeros((480, 640, 3), np.uint8))
    ids = [store.add_recognition(result, jpeg(), "image/jpeg", ".jpg")["id"] for _ in range(80)]
    acknowledged: dict[str, dict] = {}
    lock, kill_now = threading.Lock(), threading.Event()

    def confirm(index: int) -> None:
        url = a if index % 2 == 0 else b
        try:
            answer = httpx.put(f"{url}/v1/recognitions/{ids[index]}/confirmation",
                               json=confirmation(10 + index), timeout=30)
        except httpx.TransportError:  # the killed instance: never acknowledged
            return
        if answer.status_code == 200:
            with lock:
                acknowledged[ids[index]] = answer.json()
                if len(acknowledged) == 20:
                    kill_now.set()

    def killer() -> None:
        kill_now.wait(60)
        killed.kill()  # SIGKILL, mid-burst

    threading.Thread(target=killer).start()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(confirm, range(len(ids))))
    assert killed.wait(10) is not None
    through_a = [i for i in range(0, len(ids), 2) if ids[i] in acknowledged]
    assert through_a and len(through_a) < len(ids) // 2  # a acknowledged some, then died before the rest
    assert all(ids[i] in acknowledged for i in range(1, len(ids), 2))  # b answered every one sent to it
    for recognition_id, stored in acknowledged.items():
        assert httpx.get(f"{b}/v1/recognitions/{recognition_id}").json()["confirmation"] == stored
    assert httpx.get(f"{b}/readyz", timeout=30).status_code == 200
