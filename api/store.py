"""Embedded storage under one data directory: `fanshot.sqlite3` (WAL) for recognitions and confirmations,
`images/` for the uploaded photos. A write the API has acknowledged is on disk: images are written to a
temporary file, fsynced and renamed into place before their row is committed with synchronous=FULL."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS recognitions (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    image_file TEXT NOT NULL,
    media_type TEXT NOT NULL,
    result TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS confirmations (
    recognition_id TEXT PRIMARY KEY REFERENCES recognitions(id),
    confirmed_at TEXT NOT NULL,
    body TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Example:
    """A confirmed photo: where its image is, the recognition it answers, and the confirmation."""

    image: Path
    recognition: dict[str, Any]
    confirmation: dict[str, Any]


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves either the old file or the whole new one."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # makes the rename itself durable
    finally:
        os.close(directory)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def entity_tag(recognition_id: str, confirmation: dict[str, Any] | None) -> str:
    """The HTTP ETag of a recognition, from its stored confirmation (with `confirmed_at`) or None: it changes
    exactly when the confirmation does."""
    state = json.dumps([recognition_id, confirmation], sort_keys=True).encode()
    return f'"{hashlib.sha256(state).hexdigest()[:32]}"'


class PreconditionFailed(Exception):
    """The confirmation changed since the client read it (its If-Match no longer matches)."""

    def __init__(self, current: str) -> None:
        super().__init__(current)
        self.current = current


def stored_confirmation(confirmed_at: str | None, body: str | None) -> dict[str, Any] | None:
    return None if body is None else {**json.loads(body), "confirmed_at": confirmed_at}


def tags(header: str) -> list[str]:
    """The entity tags of an If-Match header (`"a", W/"b"`); a weak tag never matches for a write (RFC 9110)."""
    return [tag.strip() for tag in header.split(",") if not tag.strip().startswith("W/")]


class Store:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.images = root / "images"
        self.images.mkdir(parents=True, exist_ok=True)
        self.database = root / "fanshot.sqlite3"
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction, committed on success. A `write` one holds the write lock from its first statement,
        so what it reads stays current until it commits: a check (If-Match) and the write it guards are one step.
        """
        # One short-lived connection per operation: routes run on many threads, and connecting costs ~0.1 ms.
        db = sqlite3.connect(self.database, timeout=30)
        try:
            db.execute("PRAGMA synchronous=FULL")
            with db:
                if write:
                    db.execute("BEGIN IMMEDIATE")
                yield db
        finally:
            db.close()

    def add_recognition(self, result: dict[str, Any], photo: bytes, media_type: str,
                        suffix: str) -> dict[str, Any]:
        """Store a photo and its recognition result; returns the result with its new `id`."""
        recognition_id = uuid.uuid4().hex
        image_file = f"{recognition_id}{suffix}"
        write_atomic(self.images / image_file, photo)
        stored = {"id": recognition_id, **result}
        with self._connect() as db:
            db.execute("INSERT INTO recognitions VALUES (?, ?, ?, ?, ?)",
                       (recognition_id, now(), image_file, media_type, json.dumps(stored)))
        return stored

    def recognition(self, recognition_id: str) -> dict[str, Any] | None:
        """The recognition result with its `confirmation` (None until confirmed); see entity_tag."""
        with self._connect() as db:
            row = db.execute("SELECT r.result, c.confirmed_at, c.body FROM recognitions r LEFT JOIN "
                             "confirmations c ON c.recognition_id = r.id WHERE r.id = ?",
                             (recognition_id,)).fetchone()
        if row is None:
            return None
        result, confirmed_at, body = row
        return {**json.loads(result), "confirmation": stored_confirmation(confirmed_at, body)}

    def image(self, recognition_id: str) -> tuple[Path, str] | None:
        with self._connect() as db:
            row = db.execute("SELECT image_file, media_type FROM recognitions WHERE id = ?",
                             (recognition_id,)).fetchone()
        return None if row is None else (self.images / row[0], row[1])

    def confirm(self, recognition_id: str, confirmation: dict[str, Any],
                if_match: str | None = None) -> dict[str, Any] | None:
        """Store (or replace) the confirmation of a recognition: the stored confirmation (see entity_tag), or None
        if there is no such recognition. With `if_match` (an ETag, or `*`), raises PreconditionFailed unless the
        recognition's current ETag matches. The timestamp is taken under the write lock: confirmations are
        stamped in the order they are stored."""
        body = json.dumps(confirmation)
        with self._connect(write=True) as db:
            row = db.execute("SELECT c.confirmed_at, c.body FROM recognitions r LEFT JOIN confirmations c "
                             "ON c.recognition_id = r.id WHERE r.id = ?", (recognition_id,)).fetchone()
            if row is None:
                return None
            current = entity_tag(recognition_id, stored_confirmation(*row))
            if if_match is not None and if_match != "*" and current not in tags(if_match):
                raise PreconditionFailed(current)
            confirmed_at = now()
            db.execute("INSERT OR REPLACE INTO confirmations VALUES (?, ?, ?)", (recognition_id, confirmed_at, body))
        return stored_confirmation(confirmed_at, body)

    def examples(self) -> list[Example]:
        """Every confirmed photo, oldest confirmation first."""
        with self._connect() as db:
            rows = db.execute("SELECT r.image_file, r.result, c.body FROM recognitions r "
                              "JOIN confirmations c ON c.recognition_id = r.id "
                              "ORDER BY c.confirmed_at, r.id").fetchall()
        return [Example(self.images / image_file, json.loads(result), json.loads(body))
                for image_file, result, body in rows]
