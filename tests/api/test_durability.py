"""A confirmation the server has acknowledged survives the server being killed (SIGKILL, no shutdown)."""

import errno
import os
import sqlite3
from contextlib import closing

import httpx
import numpy as np
import pytest

from fanshot.api.storage.images import FolderImages
from fanshot.api.storage.store import Store
from tests.api.conftest import fake_recognise, free_port, jpeg, serve
from tests.api.test_recognitions import confirmation_of


@pytest.mark.server
def test_acknowledged_confirmation_survives_a_kill(tmp_path):
    recognition = Store(tmp_path).add_recognition(fake_recognise(np.zeros((480, 640, 3), np.uint8)), jpeg(),
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


def test_a_photo_write_that_fails_leaves_no_temporary_file(tmp_path, monkeypatch):
    # issue 36: a failed write (a full disk) left its .tmp file in the images folder for good
    images = FolderImages(tmp_path / "images")

    def disk_full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        images.put("photo.jpg", b"jpeg bytes")
    assert list((tmp_path / "images").iterdir()) == []
