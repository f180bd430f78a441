"""Recognitions and their confirmations: records in the database (api/database.py), photos in the image store
(api/images.py). The embedded default keeps both under one data directory: `fanshot.sqlite3` (WAL) and `images/`.
A write the API has acknowledged is durable: the photo is stored (fsynced, or acknowledged by the object store)
before its record is committed, and the commit is durable on both databases."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, literal, select, update

from api.database import (
    confirmations,
    is_sqlite,
    open_database,
    reading,
    recognitions,
    require_current,
    sqlite_url,
    upgrade,
    writing,
)
from api.images import ImageStore, open_images

DATABASE_FILE = "fanshot.sqlite3"


@dataclass(frozen=True)
class Example:
    """A confirmed photo: its name in the image store, the recognition it answers, and the confirmation."""

    image_file: str
    recognition: dict[str, Any]
    confirmation: dict[str, Any]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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
        self.images: ImageStore = open_images(images_url or str(root / "images"), s3_endpoint_url)

    def check_database(self) -> None:
        with reading(self.engine) as db:
            db.execute(select(literal(1)).select_from(recognitions).limit(1))

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
                                                   media_type=media_type, result=json.dumps(stored)))
        return stored

    def recognition(self, recognition_id: str) -> dict[str, Any] | None:
        """The recognition result with its `confirmation` (None until confirmed)."""
        with reading(self.engine) as db:
            row = db.execute(select(recognitions.c.result, confirmations.c.confirmed_at, confirmations.c.body)
                             .select_from(recognitions.outerjoin(confirmations))
                             .where(recognitions.c.id == recognition_id)).first()
        if row is None:
            return None
        result, confirmed_at, body = row
        confirmation = None if body is None else {**json.loads(body), "confirmed_at": confirmed_at}
        return {**json.loads(result), "confirmation": confirmation}

    def image(self, recognition_id: str) -> tuple[bytes, str] | None:
        """The photo's bytes and media type."""
        with reading(self.engine) as db:
            row = db.execute(select(recognitions.c.image_file, recognitions.c.media_type)
                             .where(recognitions.c.id == recognition_id)).first()
        if row is None:
            return None
        data = self.images.get(row.image_file)
        return None if data is None else (data, row.media_type)

    def confirm(self, recognition_id: str, confirmation: dict[str, Any]) -> dict[str, Any] | None:
        """Store (or replace) the confirmation of a recognition; None if there is no such recognition."""
        body = json.dumps(confirmation)
        with writing(self.engine) as db:
            # Lock the recognition first, then read its confirmation in a statement of its own: on PostgreSQL a
            # statement that waited for a lock still sees the rows of other tables as they were when it began.
            if db.execute(select(recognitions.c.id).where(recognitions.c.id == recognition_id)
                          .with_for_update()).first() is None:
                return None
            confirmed = db.execute(select(confirmations.c.recognition_id)
                                   .where(confirmations.c.recognition_id == recognition_id)).first()
            confirmed_at = now()  # under the lock: confirmations are stamped in the order they are stored
            values = {"confirmed_at": confirmed_at, "body": body}
            if confirmed is None:
                db.execute(insert(confirmations).values(recognition_id=recognition_id, **values))
            else:
                db.execute(update(confirmations).where(confirmations.c.recognition_id == recognition_id)
                           .values(**values))
        return {**confirmation, "confirmed_at": confirmed_at}

    def examples(self) -> list[Example]:
        """Every confirmed photo, oldest confirmation first."""
        with reading(self.engine) as db:
            rows = db.execute(select(recognitions.c.image_file, recognitions.c.result, confirmations.c.body)
                              .select_from(recognitions.join(confirmations))
                              .order_by(confirmations.c.confirmed_at, recognitions.c.id)).all()
        return [Example(image_file, json.loads(result), json.loads(body)) for image_file, result, body in rows]
