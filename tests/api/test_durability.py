"""A confirmation the server has acknowledged survives the server being killed (SIGKILL, no shutdown)."""

import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import httpx
import numpy as np

from api.store import Store
from tests.api.conftest import fake_recognize, jpeg
from tests.api.test_recognitions import confirmation_of


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(data_dir: Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "fanshot", "serve", "--port", str(port),
                               "--data-dir", str(data_dir)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.1)
        if server.poll() is not None:
            raise RuntimeError(f"server exited: {server.stderr.read().decode()[-2000:]}")
    server.kill()
    raise TimeoutError("server did not start within 60 s")


def test_acknowledged_confirmation_survives_a_kill(tmp_path):
    recognition = Store(tmp_path).add_recognition(fake_recognize(np.zeros((480, 640, 3), np.uint8)), jpeg(),
                                                  "image/jpeg", ".jpg")
    url = f"/v1/recognitions/{recognition['id']}"
    port = free_port()
    server = serve(tmp_path, port)
    try:
        acknowledged = httpx.put(f"http://127.0.0.1:{port}{url}/confirmation", json=confirmation_of(recognition))
        assert acknowledged.status_code == 200
    finally:
        server.kill()  # SIGKILL: no shutdown handlers, no flushing
        server.wait()
    server = serve(tmp_path, port)
    try:
        assert httpx.get(f"http://127.0.0.1:{port}{url}").json()["confirmation"] == acknowledged.json()
        assert httpx.get(f"http://127.0.0.1:{port}{url}/image").content == jpeg()
    finally:
        server.kill()
        server.wait()


def test_the_database_is_in_wal_mode(tmp_path):
    Store(tmp_path)
    with closing(sqlite3.connect(tmp_path / "fanshot.sqlite3")) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
