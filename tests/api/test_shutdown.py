"""A real `fanshot serve` process: SIGTERM finishes the requests in flight, ends event streams at once and exits;
its access log is JSON lines with each request's id."""

from __future__ import annotations

import json
import signal
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.api.conftest import free_port, serve, server_log

pytestmark = pytest.mark.server

BODY = b'{"hand": {"concealed": "123m456p789s11122z", "winning_tile": "2z"}}'
HEADERS = (b"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           b"X-Request-ID: in-flight-1\r\nContent-Length: %d\r\n\r\n" % len(BODY))
PLAYERS = ["A", "B", "C", "D"]


def read_all(connection: socket.socket) -> bytes:
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    return answer


def follow(url: str, events: list[str], ended: threading.Event) -> None:
    with httpx.stream("GET", url, timeout=60) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:"):
                events.append(line)
    ended.set()


@pytest.fixture
def server(tmp_path):
    port = free_port()
    process = serve(tmp_path, port, "--log-format", "json", "--access-log", "--shutdown-timeout", "30")
    yield process, f"http://127.0.0.1:{port}", port
    if process.poll() is None:
        process.kill()
        process.wait()


def test_sigterm_finishes_requests_in_flight_ends_streams_and_exits(server):
    process, url, port = server
    game = httpx.post(f"{url}/v1/games", json={"players": PLAYERS}).json()
    events, ended = [], threading.Event()
    threading.Thread(target=follow, args=(f"{url}/v1/games/{game['id']}/events", events, ended), daemon=True).start()
    with socket.create_connection(("127.0.0.1", port)) as in_flight:
        in_flight.sendall(HEADERS + BODY[:20])  # a request whose body is still arriving
        deadline = time.monotonic() + 10
        while not events and time.monotonic() < deadline:
            time.sleep(0.05)
        assert events, "the stream sent the game"
        stopped_at = time.monotonic()
        process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        with pytest.raises(httpx.ConnectError):  # no new connections once stopping
            httpx.get(f"{url}/healthz", timeout=2)
        in_flight.sendall(BODY[20:])
        answer = read_all(in_flight)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["points"] is not None
    assert process.wait(timeout=25) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled
    # The open stream ended with the server (within its 2 s poll), not after the 30 s shutdown timeout.
    assert ended.wait(5) and time.monotonic() - stopped_at < 15
    lines = [json.loads(line) for line in server_log(process).splitlines() if line.startswith("{")]
    access = [line for line in lines if line["logger"] == "fanshot.access"]
    assert {"request_id": "in-flight-1", "route": "/v1/score", "status": 200, "method": "POST"}.items() \
        <= next(line for line in access if line["request_id"] == "in-flight-1").items()
    assert all(len(line["request_id"]) == 32 for line in access if line["request_id"] != "in-flight-1")


def answering_pids(process) -> set[int]:
    lines = [json.loads(line) for line in server_log(process).splitlines() if line.startswith("{")]
    return {line["pid"] for line in lines if line.get("route") == "/v1/score"}


def test_every_worker_of_an_instance_is_counted_in_each_scrape(tmp_path):
    port = free_port()
    process = serve(tmp_path, port, "--workers", "2", "--log-format", "json", "--access-log")
    url = f"http://127.0.0.1:{port}"

    def score(_: int) -> int:
        with httpx.Client() as client:  # a connection each: the workers take turns to accept them
            return client.post(f"{url}/v1/score", content=BODY, headers={"content-type": "application/json"},
                               timeout=60).status_code

    try:
        sent = 0
        with ThreadPoolExecutor(16) as pool:
            while len(answering_pids(process)) < 2 and sent < 640:  # until both workers have answered some
                assert list(pool.map(score, range(32))) == [200] * 32
                sent += 32
        assert len(answering_pids(process)) == 2
        scrapes = [httpx.get(f"{url}/metrics", timeout=30).text for _ in range(6)]
    finally:
        process.terminate()
        process.wait(30)
    counted = f'fanshot_http_requests_total{{method="POST",route="/v1/score",status="200"}} {sent}.0'
    assert all(counted in scrape for scrape in scrapes)
