"""A client that pipelines requests and hangs up before reading the answers must not kill the server: the CLI's
quiet `| head` handling (SIGPIPE restored to its default, which ends the process) is for printing commands only."""

import socket

import httpx
import pytest

from tests.api.conftest import free_port, serve, server_log

pytestmark = pytest.mark.server

SCORE_BODY = b'{"hand": {"concealed": "123m456p789s11122z", "winning_tile": "2z"}}'
SCORE_REQUEST = (b"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(SCORE_BODY), SCORE_BODY))


def pipeline_and_hang_up(port: int, requests: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(SCORE_REQUEST * requests)


def test_a_one_worker_server_survives_100_clients_that_hang_up(tmp_path):
    port = free_port()
    server = serve(tmp_path, port)
    try:
        for _ in range(100):
            pipeline_and_hang_up(port, requests=50)
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30).status_code == 200
    except httpx.ConnectError:
        raise AssertionError(f"the server died (exit {server.wait()}): {server_log(server)[-2000:]}") from None
    finally:
        server.kill()
        server.wait()
