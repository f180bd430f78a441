"""Live updates of games: whoever changes a game publishes it, every open event stream of that game gets it.

`GameEvents` is the interface the routes use. `LocalGameEvents` reaches the streams of this process only;
several app instances need a shared channel (e.g. PostgreSQL LISTEN/NOTIFY) behind the same interface.
Each event is the whole game, so a slow reader only ever needs the newest one: a subscription keeps just that."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import Any, Protocol


class GameEvents(Protocol):
    def publish(self, game_id: str, game: dict[str, Any]) -> None:
        """Send `game` (with its `version`) to every subscriber of `game_id`; callable from any thread."""

    def subscribe(self, game_id: str) -> AbstractAsyncContextManager[AsyncIterator[dict[str, Any]]]:
        """The game's versions published from now on, newest only, while the context is open."""


class Subscription:
    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._newest: dict[str, Any] | None = None
        self._ready = asyncio.Event()

    def offer(self, game: dict[str, Any]) -> None:
        with suppress(RuntimeError):  # the reader's event loop is closed: the server is stopping
            self._loop.call_soon_threadsafe(self._keep, game)

    def _keep(self, game: dict[str, Any]) -> None:
        if self._newest is None or game["version"] > self._newest["version"]:
            self._newest = game
            self._ready.set()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> dict[str, Any]:
        await self._ready.wait()
        self._ready.clear()
        return self._newest


class LocalGameEvents:
    def __init__(self) -> None:
        self._subscriptions: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()  # publishers run on the routes' worker threads

    def publish(self, game_id: str, game: dict[str, Any]) -> None:
        with self._lock:
            subscriptions = list(self._subscriptions.get(game_id, ()))
        for subscription in subscriptions:
            subscription.offer(game)

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        subscription = Subscription()
        with self._lock:
            self._subscriptions.setdefault(game_id, set()).add(subscription)
        try:
            yield subscription
        finally:
            with self._lock:
                subscriptions = self._subscriptions[game_id]
                subscriptions.discard(subscription)
                if not subscriptions:
                    del self._subscriptions[game_id]
