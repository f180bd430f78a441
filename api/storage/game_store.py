"""Where games are kept: each game is its setup and the list of its hands, nothing derived (scoring.game
replays them). `GameStore` is the interface the routes use; `SqlGameStore` keeps games in the records' database
beside the recognitions (embedded SQLite or PostgreSQL), durably: a change the API has acknowledged is
committed."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, insert, select, update

from fanshot.api.storage.database import games, reading, writing
from fanshot.api.storage.store import now


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


class SqlGameStore:
    """Games in the records' database (api/storage/database.py), beside the recognitions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, setup: dict[str, Any]) -> StoredGame:
        at = now()
        game = StoredGame(uuid.uuid4().hex, 1, at, at, setup, [])
        with writing(self.engine) as db:
            db.execute(insert(games).values(id=game.id, version=game.version, created_at=at, updated_at=at,
                                            setup=json.dumps(setup), hands=json.dumps([])))
        return game

    def get(self, game_id: str) -> StoredGame | None:
        with reading(self.engine) as db:
            return _read(db, game_id)

    def change_hands(self, game_id: str, change: HandsChange) -> StoredGame | None:
        # Read under the write lock (the game's row lock on PostgreSQL): two phones adding a hand at once queue
        # up instead of one overwriting the other.
        with writing(self.engine) as db:
            game = _read(db, game_id, for_update=True)
            if game is None:
                return None
            changed = replace(game, version=game.version + 1, updated_at=now(), hands=change(game))
            db.execute(update(games).where(games.c.id == game_id).values(
                version=changed.version, updated_at=changed.updated_at, hands=json.dumps(changed.hands)))
        return changed


def _read(db: Connection, game_id: str, *, for_update: bool = False) -> StoredGame | None:
    query = select(games).where(games.c.id == game_id)
    row = db.execute(query.with_for_update() if for_update else query).first()
    if row is None:
        return None
    return StoredGame(row.id, row.version, row.created_at, row.updated_at, json.loads(row.setup),
                      json.loads(row.hands))
