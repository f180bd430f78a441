"""Where games are kept: each game is its setup and the list of its hands, nothing derived (scoring.game
replays them). `GameStore` is the interface the routes use; `SqliteGameStore` keeps games in the embedded
database beside the recognitions, durably: a change the API has acknowledged is committed with
synchronous=FULL. A server database can implement the same three methods."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from api.store import now

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    setup TEXT NOT NULL,
    hands TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class StoredGame:
    id: str
    version: int  # 1 when created, one more with every change of its hands
    created_at: str
    updated_at: str
    setup: dict[str, Any]  # ruleset, options, players, stake
    hands: list[dict[str, Any]]


HandsChange = Callable[[StoredGame], list[dict[str, Any]]]


class GameStore(Protocol):
    def create(self, setup: dict[str, Any]) -> StoredGame: ...

    def get(self, game_id: str) -> StoredGame | None: ...

    def change_hands(self, game_id: str, change: HandsChange) -> StoredGame | None:
        """Atomically replace the game's hands by `change(game)`; an exception from `change` changes nothing.
        None if there is no such game."""


class SqliteGameStore:
    def __init__(self, database: Path) -> None:
        self.database = database
        with self._transaction() as db:
            db.execute(SCHEMA)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        # BEGIN IMMEDIATE takes the write lock before the read: two phones adding a hand at once queue up
        # instead of one overwriting the other (a deferred transaction would fail to upgrade under WAL).
        db = sqlite3.connect(self.database, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        finally:
            db.close()

    def create(self, setup: dict[str, Any]) -> StoredGame:
        at = now()
        game = StoredGame(uuid.uuid4().hex, 1, at, at, setup, [])
        with self._transaction() as db:
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                       (game.id, game.version, at, at, json.dumps(setup), json.dumps([])))
        return game

    def get(self, game_id: str) -> StoredGame | None:
        with self._transaction() as db:
            return _read(db, game_id)

    def change_hands(self, game_id: str, change: HandsChange) -> StoredGame | None:
        with self._transaction() as db:
            game = _read(db, game_id)
            if game is None:
                return None
            changed = replace(game, version=game.version + 1, updated_at=now(), hands=change(game))
            db.execute("UPDATE games SET version = ?, updated_at = ?, hands = ? WHERE id = ?",
                       (changed.version, changed.updated_at, json.dumps(changed.hands), game_id))
        return changed


def _read(db: sqlite3.Connection, game_id: str) -> StoredGame | None:
    row = db.execute("SELECT id, version, created_at, updated_at, setup, hands FROM games WHERE id = ?",
                     (game_id,)).fetchone()
    if row is None:
        return None
    game_id, version, created_at, updated_at, setup, hands = row
    return StoredGame(game_id, version, created_at, updated_at, json.loads(setup), json.loads(hands))
