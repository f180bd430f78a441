"""Recognitions and their confirmations: records in the database (api/storage/database.py), photos in the image store
(images.py). The embedded default keeps both under one data directory: `fanshot.sqlite3` (WAL) and `images/`.
A write the API has acknowledged is durable: the photo is stored (fsynced, or acknowledged by the object store)
before its record is committed, and the commit is durable on both databases."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select, update

from fanshot.api.storage.database import (
    confirmations,
    is_sqlite,
    model_settings,
    open_database,
    reading,
    recognitions,
    require_current,
    sqlite_url,
    upgrade,
    writing,
)
from fanshot.api.storage.images import READY_PROBE, ImageStore, PhotoReads, open_images

DATABASE_FILE = "fanshot.sqlite3"


@dataclass(frozen=True)
class Example:
    """A confirmed photo: its name in the image store, the recognition it answers, and the confirmation."""

    image_file: str
    photo_sha256: str | None  # None for a photo stored before revision 0003
    recognition: dict[str, Any]
    confirmation: dict[str, Any]


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
    def __init__(self, root: Path, *, database_url: str | None = None, images_url: str | None = None,
                 s3_endpoint_url: str | None = None) -> None:
        """Storage under the data directory `root`, unless a database or images URL points elsewhere."""
        self.engine: Engine = open_database(database_url or sqlite_url(root / DATABASE_FILE))
        if is_sqlite(self.engine):
            if database_url is None:
                root.mkdir(parents=True, exist_ok=True)
            upgrade(self.engine)  # the embedded database migrates itself
        else:
            require_current(self.engine)  # a shared one is upgraded by `fanshot db upgrade`
        self.images: ImageStore = PhotoReads(open_images(images_url or str(root / "images"), s3_endpoint_url))

    def check_database(self) -> None:
        """Raise unless the database takes writes now: a row written and removed in one committed transaction. A
        real write: an update that changed no row passed on database files made immutable under an open
        connection, while every upload failed (issue 53)."""
        probe = f"{READY_PROBE}-{uuid.uuid4().hex}"
        with writing(self.engine) as db:
            db.execute(insert(model_settings).values(key=probe, value=""))
            db.execute(delete(model_settings).where(model_settings.c.key == probe))

    def check_images(self) -> None:
        self.images.check()

    def add_recognition(self, result: dict[str, Any], photo: bytes, media_type: str,
                        suffix: str) -> dict[str, Any]:
        """Store a photo and its recognition result; returns the result with its new `id`."""
        recognition_id = uuid.uuid4().hex
        image_file = f"{recognition_id}{suffix}"
        self.images.put(image_file, photo)
        stored = {"id": recognition_id, **result}
        with writing(self.engine) as db:
            db.execute(insert(recognitions).values(id=recognition_id, created_at=now(), image_file=image_file,
                                                   media_type=media_type, result=json.dumps(stored),
                                                   photo_sha256=hashlib.sha256(photo).hexdigest()))
        return stored

    def recognition(self, recognition_id: str) -> dict[str, Any] | None:
        """The recognition result with its `confirmation` (None until confirmed); see entity_tag."""
        with reading(self.engine) as db:
            row = db.execute(select(recognitions.c.result, confirmations.c.confirmed_at, confirmations.c.body)
                             .select_from(recognitions.outerjoin(confirmations))
                             .where(recognitions.c.id == recognition_id)).first()
        if row is None:
            return None
        result, confirmed_at, body = row
        return {**json.loads(result), "confirmation": stored_confirmation(confirmed_at, body)}

    def image(self, recognition_id: str) -> tuple[bytes, str] | None:
        """The photo's bytes and media type."""
        with reading(self.engine) as db:
            row = db.execute(select(recognitions.c.image_file, recognitions.c.media_type)
                             .where(recognitions.c.id == recognition_id)).first()
        if row is None:
            return None
        data = self.images.get(row.image_file)
        return None if data is None else (data, row.media_type)

    def confirm(self, recognition_id: str, confirmation: dict[str, Any],
                if_match: str | None = None) -> dict[str, Any] | None:
        """Store (or replace) the confirmation of a recognition: the stored confirmation (see entity_tag), or None
        if there is no such recognition. With `if_match` (an ETag, or `*`), raises PreconditionFailed unless the
        recognition's current ETag matches, checked in the transaction that writes."""
        body = json.dumps(confirmation)
        with writing(self.engine) as db:
            # Lock the recognition first, then read its confirmation in a statement of its own: on PostgreSQL a
            # statement that waited for a lock still sees the rows of other tables as they were when it began.
            if db.execute(select(recognitions.c.id).where(recognitions.c.id == recognition_id)
                          .with_for_update()).first() is None:
                return None
            confirmed = db.execute(select(confirmations.c.confirmed_at, confirmations.c.body)
                                   .where(confirmations.c.recognition_id == recognition_id)).first()
            current = entity_tag(recognition_id, None if confirmed is None else stored_confirmation(*confirmed))
            if if_match is not None and if_match != "*" and current not in tags(if_match):
                raise PreconditionFailed(current)
            confirmed_at = now()  # under the lock: confirmations are stamped in the order they are stored
            values = {"confirmed_at": confirmed_at, "body": body}
            if confirmed is None:
                db.execute(insert(confirmations).values(recognition_id=recognition_id, **values))
            else:
                db.execute(update(confirmations).where(confirmations.c.recognition_id == recognition_id)
                           .values(**values))
        return stored_confirmation(confirmed_at, body)

    def confirmed_count(self) -> int:
        """How many photos are confirmed: the examples an adaptation would learn from."""
        with reading(self.engine) as db:
            return db.execute(select(func.count()).select_from(confirmations)).scalar_one()

    def examples(self) -> list[Example]:
        """Every confirmed photo, oldest confirmation first."""
        with reading(self.engine) as db:
            rows = db.execute(select(recognitions.c.image_file, recognitions.c.photo_sha256, recognitions.c.result,
                                     confirmations.c.body)
                              .select_from(recognitions.join(confirmations))
                              .order_by(confirmations.c.confirmed_at, recognitions.c.id)).all()
        return [Example(image_file, digest, json.loads(result), json.loads(body))
                for image_file, digest, result, body in rows]
