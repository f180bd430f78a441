"""Storage faults an operator must fix (issue 36): a full or read-only disk, a database that cannot answer. The
request was fine, so the answer is 503 with a code and Retry-After, never a 500; routes that need no storage keep
answering."""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy.exc import OperationalError

from fanshot.api.app import create_app
from fanshot.api.storage.images import PhotoReads
from fanshot.api.work import RecognitionPool
from tests.api.conftest import fake_load_models, fake_name_tile, fake_recognise, jpeg, local_client
from tests.api.test_recognitions import confirmation_of
from tests.api.test_score import REQUEST
from tests.services import free_port


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path, recognise=fake_recognise, name_tile=fake_name_tile, load_models=fake_load_models)


@pytest.mark.parametrize(("fault", "code"), [
    (OSError(errno.ENOSPC, "No space left on device"), "storage_unavailable"),
    (OSError(errno.EROFS, "Read-only file system"), "storage_unavailable"),
    (OperationalError("INSERT ...", {}, Exception("attempt to write a readonly database")), "database_unavailable"),
])
def test_a_storage_fault_answers_503_with_retry_after_and_scoring_goes_on(app, fault, code):
    def failing_put(name: str, data: bytes) -> None:
        raise fault

    app.state.store.images.put = failing_put
    client = local_client(app, raise_server_exceptions=False)
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 503, response.text
    assert [e["code"] for e in response.json()["errors"]] == [code] and response.headers["Retry-After"] == "30"
    assert "readonly" not in response.text and "No space" not in response.text  # details stay in the log
    assert client.post("/v1/score", json=REQUEST).status_code == 200


def test_any_other_os_error_is_still_a_500(app):
    def failing_put(name: str, data: bytes) -> None:
        raise FileNotFoundError(errno.ENOENT, "a bug of ours")

    app.state.store.images.put = failing_put
    response = local_client(app, raise_server_exceptions=False).post("/v1/recognitions",
                                                                      files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 500 and response.json()["errors"][0]["code"] == "internal"


class HungImages:
    """An image store that does not answer until told to (a hung object store)."""

    def __init__(self, images) -> None:
        self.images, self.answer = images, threading.Event()

    def put(self, name: str, data: bytes) -> None:
        self.images.put(name, data)

    def get(self, name: str) -> bytes | None:
        self.answer.wait(30)
        return self.images.get(name)

    def check(self) -> None:
        self.answer.wait(30)


def test_a_hung_image_store_holds_its_own_threads_only_and_photo_reads_answer_503(app):
    # issue 36: 45 hung photo reads took the 40 threads every route runs in; GET recognition, PUT confirmation and
    # /readyz then timed out
    client = local_client(app)
    created = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())}).json()
    hung = HungImages(app.state.store.images.store)
    app.state.store.images = PhotoReads(hung, threads=2, waiting=4, seconds=0.5)
    image = f"/v1/recognitions/{created['id']}/image"
    try:
        with ThreadPoolExecutor(8) as readers:
            started = time.monotonic()
            answers = list(readers.map(lambda _: client.get(image), range(8)))
            assert time.monotonic() - started < 5  # never the store's own time
        assert {answer.status_code for answer in answers} == {503}
        assert {answer.json()["errors"][0]["code"] for answer in answers} == {"images_unavailable"}
        assert all(answer.headers["Retry-After"] == "30" for answer in answers)
        # the bulkhead is full of hung reads now: routes that need no photo still answer at once
        assert client.get(image).status_code == 503
        assert client.get(f"/v1/recognitions/{created['id']}").status_code == 200
        assert client.put(f"/v1/recognitions/{created['id']}/confirmation",
                          json=confirmation_of(created)).status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["errors"][0]["code"] == "images_unavailable"
    finally:
        hung.answer.set()
    time.sleep(0.1)  # the store answers: the hung reads finish and free their places
    assert client.get(image).status_code == 200


def test_an_object_store_that_accepts_and_never_answers_fails_a_read_in_seconds(monkeypatch):
    pytest.importorskip("boto3", reason="the scale extra (boto3) is not installed")
    from fanshot.api.storage import images

    monkeypatch.setattr(images, "S3_READ_SECONDS", 0.5)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with socket.socket() as silent:  # listens, accepts, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        store = images.S3Images("photos", "", f"http://127.0.0.1:{silent.getsockname()[1]}")
        started = time.monotonic()
        with pytest.raises(images.ImagesUnavailable, match="ReadTimeoutError"):
            store.get("a.jpg")
        assert time.monotonic() - started < 5  # botocore's default would wait a minute an attempt


def read_only_database(data_dir) -> str:
    """A URL that opens the data directory's database read-only (as a read-only file or mount would)."""
    create_app(data_dir)  # the database, at the newest schema
    return f"sqlite:///file:{data_dir / 'fanshot.sqlite3'}?mode=ro&uri=true"


def test_readyz_is_503_when_the_database_takes_no_writes(tmp_path):
    # issue 36: /readyz read a row and said ready while every write failed
    app = create_app(tmp_path, database_url=read_only_database(tmp_path), load_models=fake_load_models)
    ready = local_client(app).get("/readyz")
    assert ready.status_code == 503 and [e["code"] for e in ready.json()["errors"]] == ["database_unavailable"]


def test_readyz_is_503_when_photos_cannot_be_written(app, monkeypatch):
    from fanshot.api import readiness
    from fanshot.api.storage import images

    monkeypatch.setattr(readiness, "FRESH_SECONDS", 0)  # each ask checks again

    def full_disk(path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    client = local_client(app)
    assert client.get("/readyz").status_code == 200
    monkeypatch.setattr(images, "write_atomic", full_disk)
    ready = client.get("/readyz")
    assert ready.status_code == 503 and [e["code"] for e in ready.json()["errors"]] == ["images_unavailable"]
    assert not list((app.state.store.images.store.root).glob(".ready-probe*"))  # probes leave nothing behind


@pytest.mark.server
def test_a_server_on_a_read_only_database_refuses_to_start(tmp_path):
    started = subprocess.run([sys.executable, "-m", "fanshot", "serve", "--port", str(free_port()), "--data-dir",
                              str(tmp_path), "--database-url", read_only_database(tmp_path)],
                             capture_output=True, text=True, timeout=60)
    assert started.returncode == 2
    assert started.stderr.strip().splitlines() == ["error: (sqlite3.OperationalError) attempt to write a readonly "
                                                   "database"]


# Issue 53 item 2: a hung object store made each upload wait 18 s in turn, holding the recogniser's slot, and
# answered 500 (botocore's ReadTimeoutError).

class HungWrites(HungImages):
    """An image store whose writes do not answer until told to."""

    def __init__(self, images) -> None:
        super().__init__(images)
        self.writing = threading.Event()

    def put(self, name: str, data: bytes) -> None:
        self.writing.set()
        self.answer.wait(30)
        self.images.put(name, data)


def upload(client, answers: list) -> threading.Thread:
    def send() -> None:
        answers.append(client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())}))

    thread = threading.Thread(target=send)
    thread.start()
    return thread


def test_a_photo_waiting_on_a_hung_store_holds_no_recogniser_slot(tmp_path):
    read = []

    def counting_recognise(image, models_dir, original=None):
        read.append(len(read))
        return fake_recognise(image, models_dir)

    app = create_app(tmp_path, recognise=counting_recognise, load_models=fake_load_models)
    app.state.recognition_pool = RecognitionPool(workers=1)
    hung = HungWrites(app.state.store.images.store)
    app.state.store.images = PhotoReads(hung, seconds=30)
    answers: list = []
    with local_client(app) as client:
        first = upload(client, answers)
        try:
            assert hung.writing.wait(10)  # the first photo is read and waits on the store
            second = upload(client, answers)
            deadline = time.monotonic() + 10
            while len(read) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert len(read) == 2 and answers == []  # the second was read while the first still waited
        finally:
            hung.answer.set()
        first.join()
        second.join()
    assert [answer.status_code for answer in answers] == [201, 201]


def test_a_write_the_store_does_not_answer_is_a_503_storage_unavailable_with_retry_after(app):
    hung = HungWrites(app.state.store.images.store)
    app.state.store.images = PhotoReads(hung, seconds=0.2)
    client = local_client(app)
    try:
        response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    finally:
        hung.answer.set()
    assert response.status_code == 503, response.text
    assert response.json()["errors"][0]["code"] == "storage_unavailable" and response.headers["Retry-After"] == "30"


@pytest.fixture
def silent_object_store(monkeypatch):
    """The endpoint URL of an 'object store' that accepts connections and never answers, botocore's read timeout
    cut to half a second."""
    pytest.importorskip("boto3", reason="the scale extra (boto3) is not installed")
    from fanshot.api.storage import images

    monkeypatch.setattr(images, "S3_READ_SECONDS", 0.5)
    for name, value in (("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test"),
                        ("AWS_DEFAULT_REGION", "us-east-1")):
        monkeypatch.setenv(name, value)
    with socket.socket() as silent:  # listens, accepts, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        yield f"http://127.0.0.1:{silent.getsockname()[1]}"


def test_an_upload_to_an_object_store_that_never_answers_is_a_503_not_a_500(tmp_path, silent_object_store):
    app = create_app(tmp_path, images_url="s3://photos", s3_endpoint_url=silent_object_store,
                     recognise=fake_recognise, load_models=fake_load_models)
    response = local_client(app, raise_server_exceptions=False).post("/v1/recognitions",
                                                                     files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 503, response.text
    assert response.json()["errors"][0]["code"] == "storage_unavailable" and response.headers["Retry-After"] == "30"
