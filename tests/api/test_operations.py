"""For operators: /metrics (Prometheus), /readyz, request ids in answers and logs."""

from __future__ import annotations

import http.client
import threading
import time

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from fanshot.api.app import create_app
from fanshot.api.work import RecognitionPool
from tests.api.conftest import fake_load_models, fake_name_tile, fake_recognise, jpeg, local_client
from tests.api.test_recognitions import confirmation_of
from tests.services import free_port

SCORE = {"hand": {"concealed": "123m456p789s11122z", "winning_tile": "2z"}}


def samples(client: TestClient) -> dict[tuple[str, frozenset], float]:
    """Every sample of GET /metrics: (name, labels) → value."""
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(found: dict, name: str, **labels: str) -> float | None:
    return found.get((name, frozenset(labels.items())))


def test_requests_are_counted_by_route_template_and_status(client, recognition):
    client.post("/v1/score", json=SCORE)
    client.post("/v1/score", json={"hand": "nonsense"})
    client.get(f"/v1/recognitions/{recognition['id']}")
    client.get("/v1/recognitions/nosuch")
    client.get("/no/such/path/12345")
    found = samples(client)
    assert value(found, "fanshot_http_requests_total", method="POST", route="/v1/score", status="200") == 1
    assert value(found, "fanshot_http_requests_total", method="POST", route="/v1/score", status="422") == 1
    for status in ("200", "404"):
        assert value(found, "fanshot_http_requests_total", method="GET", route="/v1/recognitions/{recognition_id}",
                     status=status) == 1
    assert value(found, "fanshot_http_requests_total", method="GET", route="unmatched", status="404") == 1
    assert not any("12345" in str(labels) for _, labels in found)  # raw paths never become labels
    assert value(found, "fanshot_http_request_duration_seconds_count", method="POST", route="/v1/score") == 2


def test_recognitions_are_counted_with_their_model_version_and_stage_times(client, recognition):
    found = samples(client)
    assert value(found, "fanshot_recognitions_total", model_version="test-models") == 1
    for stage in ("queue", "decode", "recognise", "store"):
        assert value(found, "fanshot_recognition_stage_seconds_count", stage=stage) == 1
    assert value(found, "fanshot_recognitions_waiting") == 0 and value(found, "fanshot_recognitions_running") == 0
    assert client.get("/readyz").status_code == 200
    assert value(samples(client), "fanshot_model_info", version="test-models") == 1


def test_queue_depth_counts_recognitions_waiting_for_a_slot(tmp_path):
    release = threading.Event()

    def slow_recognise(image, models_dir, original=None):
        release.wait(30)
        return fake_recognise(image, models_dir)

    app = create_app(tmp_path, recognise=slow_recognise, name_tile=fake_name_tile, load_models=fake_load_models)
    app.state.recognition_pool = RecognitionPool(workers=1, metrics=app.state.metrics)
    with local_client(app) as client:
        uploads = [threading.Thread(target=client.post, args=("/v1/recognitions",),
                                    kwargs={"files": {"photo": ("hand.jpg", jpeg(), "image/jpeg")}})
                   for _ in range(3)]
        for upload in uploads:
            upload.start()
        deadline = time.monotonic() + 30
        while (value(samples(client), "fanshot_recognitions_waiting") != 2 and time.monotonic() < deadline):
            time.sleep(0.05)
        found = samples(client)
        release.set()
        for upload in uploads:
            upload.join()
        assert value(found, "fanshot_recognitions_waiting") == 2
        assert value(found, "fanshot_recognitions_running") == 1
        assert value(samples(client), "fanshot_recognitions_total", model_version="test-models") == 3


@pytest.mark.storage
def test_ready_names_the_model_version(client):
    assert client.get("/readyz").json() == {"status": "ready", "model_version": "test-models"}


def test_not_ready_names_each_part_that_fails(tmp_path):
    def no_models() -> str:
        raise FileNotFoundError("models/vision.json")

    app = create_app(tmp_path, recognise=fake_recognise, load_models=no_models)
    (tmp_path / "images").rmdir()
    (tmp_path / "fanshot.sqlite3").unlink()
    (tmp_path / "fanshot.sqlite3").mkdir()  # a database that cannot be opened
    app.state.store.engine.dispose()  # by new connections
    answer = local_client(app).get("/readyz")
    assert answer.status_code == 503
    assert [error["code"] for error in answer.json()["errors"]] == [
        "models_unavailable", "database_unavailable", "images_unavailable"]
    assert str(tmp_path) not in answer.text and "vision.json" not in answer.text  # no internals (issue 36)


@pytest.mark.parametrize(("sent", "kept"), [("lb-7f3a.2", True), ("", False), ("two words", False),
                                             ("x" * 129, False), ("a\tb", False)])
def test_a_sane_request_id_is_kept_else_one_is_made(client, sent, kept):
    answered = client.post("/v1/score", json=SCORE, headers=[("X-Request-ID", sent.encode())]).headers["X-Request-ID"]
    if kept:
        assert answered == sent
    else:
        assert answered != sent and len(answered) == 32 and int(answered, 16) >= 0


def test_every_answer_has_a_request_id_even_an_internal_error(tmp_path):
    def broken(image, models_dir, original=None):
        raise RuntimeError("boom")

    client = local_client(create_app(tmp_path, recognise=broken, load_models=fake_load_models),
                        raise_server_exceptions=False)
    answer = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")},
                         headers={"X-Request-ID": "req-42"})
    assert answer.status_code == 500 and answer.headers["X-Request-ID"] == "req-42"
    assert "req-42" in answer.json()["errors"][0]["message"]
    assert client.get("/healthz").headers["X-Request-ID"] != "req-42"


def test_a_confirmation_is_counted_under_its_route(client, recognition):
    url = f"/v1/recognitions/{recognition['id']}/confirmation"
    assert client.put(url, json=confirmation_of(recognition)).status_code == 200
    assert value(samples(client), "fanshot_http_requests_total", method="PUT",
                 route="/v1/recognitions/{recognition_id}/confirmation", status="200") == 1


def test_an_internal_error_keeps_the_security_headers_and_never_reaches_the_server(tmp_path):
    # issue 36: a 500 used to be answered outside every middleware, without the headers the README promises, and
    # its exception reached uvicorn, which then closed the keep-alive connection (the next request failed too)
    def broken(image, models_dir, original=None):
        raise RuntimeError("boom")

    client = local_client(create_app(tmp_path, recognise=broken, load_models=fake_load_models))  # raises if it escapes
    answer = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")})
    assert answer.status_code == 500 and answer.json()["errors"][0]["code"] == "internal"
    assert answer.headers["X-Content-Type-Options"] == "nosniff" and "frame-ancestors 'none'" in \
        answer.headers["Content-Security-Policy"] and answer.headers["X-Frame-Options"] == "DENY"
    assert client.post("/v1/score", json=SCORE).status_code == 200


@pytest.mark.server
def test_after_an_internal_error_the_keep_alive_connection_serves_the_next_request(tmp_path):
    import uvicorn

    def broken(image, models_dir, original=None):
        raise RuntimeError("boom")

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(tmp_path, recognise=broken, load_models=fake_load_models),
                                           port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    connection = http.client.HTTPConnection("localhost", port, timeout=10)
    boundary = "fanshot-test"
    upload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"h.jpg\"\r\n"
              "Content-Type: image/jpeg\r\n\r\n").encode() + jpeg() + f"\r\n--{boundary}--\r\n".encode()
    try:
        connection.request("POST", "/v1/recognitions", body=upload,
                           headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        answer = connection.getresponse()
        assert answer.status == 500 and answer.getheader("X-Content-Type-Options") == "nosniff"
        answer.read()
        connection.request("GET", "/healthz")  # the same connection: it used to be closed after the 500
        assert connection.getresponse().status == 200
    finally:
        connection.close()
        server.should_exit = True
        thread.join(10)
