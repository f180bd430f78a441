"""Graceful shutdown. On SIGTERM or SIGINT the server (uvicorn) stops accepting connections and waits for the
requests in flight to finish. Event streams never finish by themselves, so the app learns of the signal too
(`app.state.stopping`, a threading.Event the streams look at) and ends them; their clients reconnect, to
another instance behind the load balancer."""

from __future__ import annotations

import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import FrameType
from typing import Any

from fastapi import FastAPI

SIGNALS = (signal.SIGTERM, signal.SIGINT)


def chained(stopping: threading.Event, previous: Any) -> Callable[[int, FrameType | None], None]:
    def handler(sig: int, frame: FrameType | None) -> None:
        stopping.set()
        if callable(previous):
            previous(sig, frame)

    return handler


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    stopping: threading.Event = app.state.stopping
    # uvicorn installs its handlers with signal.signal before the app starts; ours runs first, then theirs.
    # Handlers can only be set on the main thread (TestClient runs the app on another one).
    replaced: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for number in SIGNALS:
            replaced[number] = signal.signal(number, chained(stopping, signal.getsignal(number)))
    try:
        yield
    finally:
        stopping.set()
        for number, previous in replaced.items():
            signal.signal(number, previous)
