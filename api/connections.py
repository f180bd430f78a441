"""Connections that send nothing are closed. uvicorn times out an idle keep-alive connection, but not one that is
opened and then sends its request's headers slowly or never (slowloris): 1,020 such connections stayed open for
good (issue 36), each a socket and a buffer; nor one that sends its headers, then trickles its body (issue 53:
2,000 held for 40 s on one worker). `fanshot serve` runs uvicorn's HTTP protocol with a deadline for each
request's headers, and then one for its body."""

from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADERS_SECONDS_VARIABLE = "FANSHOT_HEADERS_SECONDS"  # `fanshot serve --headers-timeout`, for its workers too
HEADERS_SECONDS = 10.0
BODY_SECONDS_VARIABLE = "FANSHOT_BODY_SECONDS"  # `fanshot serve --body-timeout`
# A 20 MB photo takes 55 s at 3 Mbit/s, a phone's upload speed on a weak signal.
BODY_SECONDS = 60.0


class PromptClientsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose next request's headers have not all arrived
    within the headers deadline (counted from the connection's start, and again from each answer's end), or whose
    request's body has not all arrived within the body deadline after its headers."""

    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # once, not per request
        self.headers_seconds = float(os.environ.get(HEADERS_SECONDS_VARIABLE, HEADERS_SECONDS))
        self.body_seconds = float(os.environ.get(BODY_SECONDS_VARIABLE, BODY_SECONDS))
        self._set_deadline(self.headers_seconds)

    def on_headers_complete(self) -> None:
        self._set_deadline(self.body_seconds)  # a request without a body completes at once, and cancels it
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._cancel_deadline()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # idle now: no pipelined request is under way
            self._set_deadline(self.headers_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _set_deadline(self, seconds: float) -> None:
        self._cancel_deadline()
        self.deadline = self.loop.call_later(seconds, self._too_slow)

    def _cancel_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            self.transport.close()
