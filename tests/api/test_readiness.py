"""Issue 53 items 2 and 7: /readyz tells the truth, and tells it at once. It said "ready" while the database files
were immutable and every write failed, while the active model's files were gone, named the shipped models while
another version was active, and took 10 s to answer while the object store hung."""

from __future__ import annotations

import subprocess

import pytest

from fanshot.api import readiness
from fanshot.api.app import create_app
from fanshot.api.storage.images import PhotoReads
from fanshot.vision.config import VisionFile
from fanshot.vision.recogniser import MODELS_DIR
from tests.api.conftest import fake_load_models, fake_recognise, jpeg, local_client
from tests.api.test_models import adapt, app_client, confirm_photos, fake_adapter
from tests.api.test_storage_faults import HungImages


@pytest.fixture(autouse=True)
def every_ask_checks_again(monkeypatch):
    monkeypatch.setattr(readiness, "FRESH_SECONDS", 0)


def codes(answer) -> list[str]:
    return [error["code"] for error in answer.json()["errors"]]


class CountedChecks(HungImages):
    def __init__(self, images) -> None:
        super().__init__(images)
        self.checks = 0

    def check(self) -> None:
        self.checks += 1
        super().check()


def test_readyz_answers_while_the_image_store_hangs_and_asks_it_once(tmp_path):
    app = create_app(tmp_path, recognise=fake_recognise, load_models=fake_load_models)
    hung = CountedChecks(app.state.store.images.store)
    app.state.store.images = PhotoReads(hung, seconds=60)  # the store's own wait far longer than /readyz's
    client = local_client(app)
    try:
        answers = [client.get("/readyz") for _ in range(3)]
        assert not hung.answer.is_set()  # so each answer came while the store still hung
        assert all(answer.status_code == 503 and codes(answer) == ["images_unavailable"] for answer in answers)
        assert hung.checks == 1  # one check in flight, not one more thread held per question
    finally:
        hung.answer.set()
    hung.answer.set()
    for _ in range(50):
        if (answer := client.get("/readyz")).status_code == 200:
            break
    assert answer.status_code == 200  # once the store answers


def test_answers_are_kept_a_moment_so_a_busy_balancer_costs_one_write_probe(tmp_path, monkeypatch):
    monkeypatch.setattr(readiness, "FRESH_SECONDS", 60)
    app = create_app(tmp_path, recognise=fake_recognise, load_models=fake_load_models)
    counted = CountedChecks(app.state.store.images.store)
    counted.answer.set()
    app.state.store.images = PhotoReads(counted)
    client = local_client(app)
    assert [client.get("/readyz").status_code for _ in range(5)] == [200] * 5 and counted.checks == 1


def immutable(*paths) -> None:
    if subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not possible here (needs root and a file system that has the flag)")


def test_readyz_is_503_when_the_database_files_are_immutable_under_an_open_connection(tmp_path):
    app = create_app(tmp_path, recognise=fake_recognise, load_models=fake_load_models)
    client = local_client(app)
    assert client.get("/readyz").status_code == 200  # a connection is open, its files writable
    files = [tmp_path / "fanshot.sqlite3", tmp_path / "fanshot.sqlite3-wal"]
    immutable(*files)
    try:
        ready = client.get("/readyz")
        upload = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    finally:
        subprocess.run(["chattr", "-i", *map(str, files)], check=True)
    assert upload.status_code == 503  # what /readyz must foretell
    assert ready.status_code == 503 and codes(ready) == ["database_unavailable"]


def test_readyz_names_the_active_version_and_is_503_when_its_files_are_gone(tmp_path):
    shipped = VisionFile.read(MODELS_DIR)  # a vision.json as an adaptation writes one, and the models it names
    files = {"vision.json": (MODELS_DIR / "vision.json").read_bytes(), **{name: b"model" for name in shipped.files()}}
    client = app_client(tmp_path, fake_adapter(0.95, files=files))
    client.app.state.load_models = fake_load_models
    assert client.get("/readyz").json()["model_version"] == "test-models"  # the shipped models, active
    confirm_photos(client, 2)
    version = adapt(client)["version"]
    assert client.get("/readyz").json() == {"status": "ready", "model_version": version}
    (tmp_path / "models" / version / shipped.localiser.file).unlink()  # gone from this instance's copy
    ready = client.get("/readyz")
    assert ready.status_code == 503 and codes(ready) == ["models_unavailable"]
    assert client.put("/v1/models/active", json={"version": "base"}).status_code == 200
    assert client.get("/readyz").json()["model_version"] == "test-models"
