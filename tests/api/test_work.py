"""Recognitions wait in a pool of their own: while uploads wait, every other request is still served; past the
queue's bound an upload is refused with 503 and Retry-After; a photo slow to decode holds up no other; decodes
share a memory budget."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from fanshot.api.app import create_app
from fanshot.api.routers import recognitions
from fanshot.api.work import COSTLY_SCAN_PIXELS, MemoryBudget, RecognitionPool
from fanshot.vision.image import load_photo, scan_work
from tests.api.conftest import fake_recognise, jpeg, local_client
from tests.api.test_recognitions import confirmation_of
from tests.vision.test_image import scan_bomb

UPLOADS = 48


@pytest.fixture
def stuck(tmp_path):
    """An app whose recogniser blocks until `release` is set, and a way to upload to it from many threads."""
    release, entered = threading.Event(), threading.Semaphore(0)

    def blocked_recognise(image, models_dir, original=None):
        entered.release()
        release.wait(60)
        return fake_recognise(image, models_dir)

    client = local_client(create_app(tmp_path, recognise=blocked_recognise))
    release.set()  # one upload goes through before the recogniser blocks
    done = client.post("/v1/recognitions", files={"photo": ("a.jpg", jpeg())})
    assert done.status_code == 201 and entered.acquire(timeout=0)
    release.clear()
    yield client, release, entered, done.json()
    release.set()


def upload(client):
    return client.post("/v1/recognitions", files={"photo": ("a.jpg", jpeg(), "image/jpeg")})


def test_other_requests_are_served_while_48_uploads_wait(stuck):
    client, release, entered, recognition = stuck
    url = f"/v1/recognitions/{recognition['id']}"
    with ThreadPoolExecutor(UPLOADS) as uploads, ThreadPoolExecutor(1) as reader:
        waiting = [uploads.submit(upload, client) for _ in range(UPLOADS)]
        assert entered.acquire(timeout=30)  # a recognition is running, the others wait
        read = reader.submit(client.get, url)
        confirm = reader.submit(client.put, f"{url}/confirmation", json=confirmation_of(recognition))
        assert read.result(timeout=10).status_code == 200
        assert confirm.result(timeout=10).status_code == 200
        assert client.get("/healthz").status_code == 200
        release.set()
        assert sorted({future.result(timeout=60).status_code for future in waiting}) == [201]


def test_uploads_past_the_queue_bound_get_503_and_retry_after(stuck):
    client, release, entered, _ = stuck
    client.app.state.recognition_pool = RecognitionPool(workers=1, queue_limit=3)
    with ThreadPoolExecutor(3) as uploads:
        waiting = [uploads.submit(upload, client) for _ in range(3)]
        assert entered.acquire(timeout=30)
        while client.app.state.recognition_pool.waiting < 3:
            threading.Event().wait(0.01)
        refused = upload(client)
        assert refused.status_code == 503 and refused.json()["errors"][0]["code"] == "busy"
        assert int(refused.headers["retry-after"]) > 0
        release.set()
        assert [future.result(timeout=60).status_code for future in waiting] == [201] * 3


def one_slot_app(tmp_path):
    client = local_client(create_app(tmp_path, recognise=fake_recognise))
    client.app.state.recognition_pool = RecognitionPool(workers=1)
    return client


def test_a_photo_slow_to_decode_holds_its_own_thread_not_the_recogniser(tmp_path, monkeypatch):
    """Issue 36: with one recogniser slot, an upload sent while another photo is still decoding is read at once."""
    slow, decoding, release = jpeg(800, 600), threading.Event(), threading.Event()

    def held_decode(data, **options):
        if data == slow:
            decoding.set()
            release.wait(60)
        return load_photo(data, **options)

    monkeypatch.setattr(recognitions, "load_photo", held_decode)
    client = one_slot_app(tmp_path)
    with ThreadPoolExecutor(2) as background:
        try:
            held = background.submit(client.post, "/v1/recognitions", files={"photo": ("slow.jpg", slow, "image/jpeg")})
            assert decoding.wait(30)
            assert background.submit(upload, client).result(timeout=10).status_code == 201  # was: waited for it
        finally:
            release.set()
        assert held.result(timeout=30).status_code == 201


@pytest.mark.slow
def test_a_normal_upload_right_after_the_slowest_scan_bomb_allowed_is_read_in_under_3_s(tmp_path):
    bomb = scan_bomb(7, (8660, 5773))  # 16 scans of 50 megapixels, the most allowed: ~0.7 s to decode here
    client = one_slot_app(tmp_path)
    with ThreadPoolExecutor(1) as background:
        sent = background.submit(client.post, "/v1/recognitions", files={"photo": ("bomb.jpg", bomb, "image/jpeg")})
        while client.app.state.recognition_pool.waiting < 1:  # the bomb is in the pool
            time.sleep(0.01)
        start = time.monotonic()
        assert upload(client).status_code == 201
        took = time.monotonic() - start
        assert sent.result(timeout=60).status_code == 201
    assert took < 3


def test_the_memory_budget_lets_only_what_fits_decode_at_once():
    budget = MemoryBudget(100)
    inside, most = [0], [0]
    lock = threading.Lock()

    def decode(amount):
        with budget.reserve(amount):
            with lock:
                inside[0] += amount
                most[0] = max(most[0], inside[0])
            threading.Event().wait(0.01)
            with lock:
                inside[0] -= amount

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(decode, [60, 30, 50, 70, 10, 40, 100, 20] * 4))
    assert most[0] <= 100 and budget.free == 100


@pytest.mark.slow
def test_a_normal_upload_after_eight_scan_bombs_under_the_limits_is_decoded_beside_them(tmp_path, monkeypatch):
    # issue 53: eight progressive JPEGs of many scans, each allowed, delayed a normal upload by 15-41 s (one worker)
    bomb, normal = scan_bomb(38, (3000, 2000)), jpeg()  # 47 scans of 6 megapixels: allowed (48), ~0.5 s each here
    assert scan_work(bomb) > COSTLY_SCAN_PIXELS >= scan_work(normal)
    decodes: list[str] = []  # the order decodes start in

    def recorded_decode(data, **options):
        decodes.append("bomb" if data == bomb else "normal")
        return load_photo(data, **options)

    monkeypatch.setattr(recognitions, "load_photo", recorded_decode)
    client = one_slot_app(tmp_path)
    with ThreadPoolExecutor(9) as background:
        bombs = [background.submit(client.post, "/v1/recognitions", files={"photo": ("b.jpg", bomb, "image/jpeg")})
                 for _ in range(8)]
        while client.app.state.recognition_pool.waiting < 8 or not decodes:  # every bomb is in, one decoding
            time.sleep(0.01)
        assert upload(client).status_code == 201
        assert [sent.result(timeout=120).status_code for sent in bombs] == [201] * 8
    # the normal photo was decoded beside the bombs, not after those the pool's threads held: at most the bomb
    # being decoded when it came, and the next, started first (was: 4 and more, one per thread of the pool)
    assert decodes.index("normal") <= 2, decodes
