"""A real `fanshot serve` closes connections whose request's headers do not arrive in time (issue 36: 1,020 slow
connections stayed open for good), and serves prompt ones as before, keep-alive included."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from tests.api.conftest import served

pytestmark = pytest.mark.server


def closed_within(connection: socket.socket, seconds: float) -> bool:
    connection.settimeout(seconds)
    try:
        return connection.recv(1024) == b""
    except TimeoutError:
        return False


def test_a_connection_that_sends_its_headers_too_slowly_or_never_is_closed(tmp_path):
    with served(tmp_path, "--headers-timeout", "1") as base:
        address = urlsplit(base)
        silent = socket.create_connection((address.hostname, address.port))
        slow = socket.create_connection((address.hostname, address.port))
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")  # and never the blank line
        started = time.monotonic()
        assert closed_within(silent, 5) and closed_within(slow, 5)
        assert time.monotonic() - started < 4
        with httpx.Client(base_url=base) as prompt:  # one keep-alive connection
            assert prompt.get("/healthz").status_code == 200
            time.sleep(0.5)
            assert prompt.get("/healthz").status_code == 200


def hung_up(connection: socket.socket) -> bool:
    try:
        return closed_within(connection, 1)
    except ConnectionResetError:
        return True


def test_a_connection_that_trickles_its_body_is_closed(tmp_path):
    # issue 53: clients that sent their headers and then trickled their body were never closed
    with served(tmp_path, "--body-timeout", "1") as base:
        address = urlsplit(base)
        trickle = socket.create_connection((address.hostname, address.port))
        trickle.sendall(b"POST /v1/score HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 1000\r\n\r\n{")
        closed = False
        for _ in range(20):  # a byte every 0.25 s: never idle, never done
            time.sleep(0.25)
            try:
                trickle.send(b" ", socket.MSG_NOSIGNAL)  # EPIPE, not SIGPIPE, once closed: whatever the handler
            except OSError:
                closed = True
                break
        assert closed or hung_up(trickle)
        with httpx.Client(base_url=base) as prompt:  # a prompt body is read as ever, keep-alive included
            for _ in range(2):
                answer = prompt.post("/v1/score", json={"hand": {"concealed": "123m456p789s11122z",
                                                                 "winning_tile": "2z"}})
                assert answer.status_code == 200
