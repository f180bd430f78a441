"""Connections that send nothing are closed. uvicorn times out an idle keep-alive connection, but not one that is
opened and then sends its request's headers slowly or never (slowloris): 1,020 such connections stayed open for
good (issue 36), each a socket and a buffer. `fanshot serve` runs uvicorn's HTTP protocol with a deadline for
each request's headers."""

from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADERS_SECONDS_VARIABLE = "FANSHOT_HEADERS_SECONDS"  # `fanshot serve --headers-timeout`, for its workers too
HEADERS_SECONDS = 10.0


class PromptClientsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose next request's headers have not all arrived
    within the deadline: counted from the connection's start, and again from each answer's end."""

    headers_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.headers_seconds = float(os.environ.get(HEADERS_SECONDS_VARIABLE, HEADERS_SECONDS))  # once, not per request
        self._await_headers()

    def on_headers_complete(self) -> None:
        self._headers_arrived()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # idle now: no pipelined request is under way
            self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_arrived()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        self._headers_arrived()
        self.headers_deadline = self.loop.call_later(self.headers_seconds, self._too_slow)

    def _headers_arrived(self) -> None:
        if self.headers_deadline is not None:
            self.headers_deadline.cancel()
            self.headers_deadline = None

    def _too_slow(self) -> None:
        self.headers_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
