"""Who is adapting now: a lock an adaptation holds for as long as it runs, that the operating system or the database
gives back when its process ends, however it ends (kill -9 included). So a job recorded as running whose lock is
free was left by a process that is gone (issue 53: such a job blocked adapting for 15 minutes after a restart).

On SQLite (one machine): an exclusive flock on a file in the data directory. On PostgreSQL (any number of
instances): a session advisory lock, held by a connection of its own."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Protocol

from sqlalchemy import Connection, Engine

from fanshot.api.storage.database import is_sqlite

RUN_LOCK = 7255  # PostgreSQL advisory lock key: held by the process whose adaptation runs
LOCK_FILE = ".adapting.lock"


class Held(Protocol):
    def release(self) -> None: ...


class FileLock:
    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    def release(self) -> None:
        os.close(self.descriptor)  # closing it gives the flock back


class SessionLock:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def release(self) -> None:
        try:
            self.connection.exec_driver_sql(f"SELECT pg_advisory_unlock({RUN_LOCK})")
        finally:
            self.connection.close()


def try_run_lock(engine: Engine, folder: Path) -> Held | None:
    """The adaptation lock, held until released; None if a running adaptation (of any process) holds it."""
    if is_sqlite(engine):
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            return None
        return FileLock(descriptor)
    connection = engine.connect()
    try:
        taken = connection.exec_driver_sql(f"SELECT pg_try_advisory_lock({RUN_LOCK})").scalar()
        connection.commit()  # the session lock outlives the transaction; no transaction is left open
    except BaseException:
        connection.close()
        raise
    if not taken:
        connection.close()
        return None
    return SessionLock(connection)
