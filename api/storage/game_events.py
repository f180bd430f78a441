"""Live updates of games: whoever changes a game publishes it, every open event stream of that game gets it.

`GameEvents` is the interface the routes use. `LocalGameEvents` reaches the streams of this process only;
`PostgresGameEvents` those of every app instance on one PostgreSQL database (LISTEN/NOTIFY). Each event is the
whole game, or a notice of its new version (`notice`: read the game), so a slow reader only ever needs the
newest one: a subscription keeps just that."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager, suppress
from typing import Any, Protocol

from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger(__name__)


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


CHANNEL = "fanshot_games"
LISTEN_WAKE_SECONDS = 1.0  # how often the listener looks whether it is still wanted
RECONNECT_SECONDS = 1.0


class PostgresGameEvents:
    """Events that reach the followers of every app instance on one PostgreSQL database: `publish` hands the game
    to this instance's followers at once and sends NOTIFY `game_id version` to the others. NOTIFY carries at most
    8 kB, so another instance gets a notice ({"id", "version", "notice": True}) and its followers read that game
    from the database. One LISTEN connection per instance, open while anyone here follows a game."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        # the listener's own connection, outside the pool: a libpq URL, postgresql://…
        self._url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._local = LocalGameEvents()
        self._lock = threading.Lock()
        self._followers = 0
        self._listener: threading.Thread | None = None
        self._listening = threading.Event()  # set once LISTEN is in force (tests wait for it)

    def publish(self, game_id: str, game: dict[str, Any]) -> None:
        self._local.publish(game_id, game)
        try:
            with self._engine.begin() as connection:
                connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                                   {"channel": CHANNEL, "payload": f"{game_id} {game['version']}"})
        except SQLAlchemyError:  # the change is stored; other instances' followers will see it when they poll
            log.exception("could not notify other instances of game %s", game_id)

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        with self._lock:
            self._followers += 1
            if self._listener is None or not self._listener.is_alive():
                self._listening.clear()
                self._listener = threading.Thread(target=self._listen, name="game-events-listener", daemon=True)
                self._listener.start()
        try:
            async with self._local.subscribe(game_id) as subscription:
                yield subscription
        finally:
            with self._lock:
                self._followers -= 1

    def wanted(self) -> bool:
        with self._lock:
            if self._followers == 0:
                self._listener = None  # the next follower starts a new listener
                return False
            return True

    def _listen(self) -> None:
        import psycopg

        while self.wanted():
            try:
                with psycopg.connect(self._url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    while self.wanted():
                        for notice in connection.notifies(timeout=LISTEN_WAKE_SECONDS):
                            game_id, version = notice.payload.split(" ")
                            self._local.publish(game_id, {"id": game_id, "version": int(version), "notice": True})
            except psycopg.OperationalError:  # the database restarted or is unreachable: followers still poll
                self._listening.clear()
                time.sleep(RECONNECT_SECONDS)


# A client following more games than this at once is refused: 2,000 idle streams from one client had slowed every
# read to 2.9 s (issue 36). A table's phones follow one game each; a club's screen a few. Behind a reverse proxy
# every user has the proxy's address, unless the server is told to trust its X-Forwarded-For (README).
MAX_STREAMS_PER_CLIENT = 16
# And all clients together (issue 53): each open stream is a connection and a task.
MAX_STREAMS = 1000


class Followers:
    """The event streams open now, by client address (one process's count: each worker caps its own), at most
    `per_client` for one address and `most` in all."""

    def __init__(self, most: int = MAX_STREAMS, per_client: int = MAX_STREAMS_PER_CLIENT) -> None:
        self.most, self.per_client, self.open, self.lock = most, per_client, Counter(), threading.Lock()

    def full(self, client: str) -> str | None:
        """Why `client` may open no more streams now ("client": its own share, "server": every place), or None."""
        if self.open[client] >= self.per_client:
            return "client"
        return "server" if self.open.total() >= self.most else None

    @contextmanager
    def following(self, client: str) -> Iterator[None]:
        with self.lock:
            self.open[client] += 1
        try:
            yield
        finally:
            with self.lock:
                self.open[client] -= 1
                if not self.open[client]:
                    del self.open[client]
