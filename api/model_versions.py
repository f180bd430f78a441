"""Model versions of the app (DESIGN.md "Adapting to a user's tile set"): the shipped models (`base`) and the
versions `fanshot adapt` makes from the confirmed photos, each a models folder under DATA_DIR/models/<id>, listed
with the figures measured on held-out confirmed photos. The active version and the adaptation jobs live in the
database, so every worker process reads the same active version on each request and sees every job's progress.

An adaptation runs as a background thread of the process that was asked; its progress is written to the job's
row. A new version is made active by itself only when it reads its held-out photos at least as well as the active
version read its own; a worse one is listed, never switched to, and `PUT /v1/models/active` switches by hand."""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from api.export import labelled
from api.store import Example, now
from datasets.classes import CLASSES
from datasets.yolo import format_data_yaml, write_example

BASE = "base"
SCHEMA = """
CREATE TABLE IF NOT EXISTS model_versions (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    adaptation TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS model_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS adapt_jobs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    state TEXT NOT NULL,
    progress REAL NOT NULL,
    message TEXT NOT NULL,
    version TEXT,
    outcome TEXT
);
"""
MIN_EXAMPLES = 2
STALE = timedelta(minutes=15)  # far longer than any step of an adaptation goes without reporting progress
Adapter = Callable[..., dict[str, Any]]  # vision.adapt.adapt's signature


class Busy(Exception):
    """An adaptation is already running."""


class NotEnough(Exception):
    """Too few confirmed photos to adapt on."""


@dataclass(frozen=True)
class Version:
    id: str
    folder: Path | None  # None: the shipped models


def held_out_figures(adaptation: dict[str, Any]) -> dict[str, Any]:
    """What a version's listing shows of its adaptation record: its and the base's reading of the held-out photos."""
    held = adaptation["held_out"]
    return {"photos": held["adapted"]["photos"], "f1": held["adapted"]["f1"],
            "exact_photos": held["adapted"]["exact_photos"], "base_f1": held["base"]["f1"],
            "base_exact_photos": held["base"]["exact_photos"]}


class ModelVersions:
    def __init__(self, database: Path, root: Path, base: Path | None = None) -> None:
        self.database, self.root, self.base = database, root, base
        root.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.database, timeout=30)
        try:
            with db:
                yield db
        finally:
            db.close()

    def active(self) -> Version:
        """The version recognitions use now (read per request: another process may have switched it)."""
        with self._connect() as db:
            row = db.execute("SELECT value FROM model_settings WHERE key = 'active'").fetchone()
        return self.version(row[0]) if row else Version(BASE, self.base)

    def version(self, version_id: str) -> Version:
        return Version(BASE, self.base) if version_id == BASE else Version(version_id, self.root / version_id)

    def exists(self, version_id: str) -> bool:
        with self._connect() as db:
            return version_id == BASE or db.execute("SELECT 1 FROM model_versions WHERE id = ?",
                                                    (version_id,)).fetchone() is not None

    def activate(self, version_id: str) -> None:
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO model_settings VALUES ('active', ?)", (version_id,))

    def listing(self) -> dict[str, Any]:
        """Every version, oldest first (the base first), with its held-out figures, and which is active."""
        active = self.active().id
        with self._connect() as db:
            rows = db.execute("SELECT id, created_at, adaptation FROM model_versions ORDER BY created_at").fetchall()
        versions = [{"id": BASE, "created_at": None, "active": active == BASE, "photos": 0, "held_out": None}]
        for version_id, created_at, adaptation in rows:
            record = json.loads(adaptation)
            versions.append({"id": version_id, "created_at": created_at, "active": active == version_id,
                             "photos": record["photos"], "held_out": held_out_figures(record)})
        return {"active": active, "versions": versions}

    def _held_out_f1(self, version_id: str) -> float:
        if version_id == BASE:
            return 0.0  # an adapted version is kept only when it beats the base on its held-out photos
        with self._connect() as db:
            row = db.execute("SELECT adaptation FROM model_versions WHERE id = ?", (version_id,)).fetchone()
        return held_out_figures(json.loads(row[0]))["f1"] if row else 0.0

    # Jobs

    def start_job(self, examples: list[Example], adapter: Adapter) -> dict[str, Any]:
        """Start adapting the base models to `examples` in a background thread; the new job."""
        if len(examples) < MIN_EXAMPLES:
            raise NotEnough(f"{len(examples)} confirmed photo(s); adapting needs at least {MIN_EXAMPLES}")
        job_id, stamp = uuid.uuid4().hex, now()
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")  # one running job across every process
            # A job whose process ended (a restart) stops updating its row: after STALE it no longer blocks.
            db.execute("UPDATE adapt_jobs SET state = 'failed', message = 'interrupted: its server process ended' "
                       "WHERE state IN ('queued', 'running') AND updated_at < ?",
                       ((datetime.now(UTC) - STALE).isoformat(timespec="milliseconds"),))
            if db.execute("SELECT 1 FROM adapt_jobs WHERE state IN ('queued', 'running')").fetchone():
                raise Busy("an adaptation is already running")
            db.execute("INSERT INTO adapt_jobs VALUES (?, ?, ?, 'queued', 0, 'queued', NULL, NULL)",
                       (job_id, stamp, stamp))
        threading.Thread(target=self._run, args=(job_id, examples, adapter), daemon=True,
                         name=f"adapt-{job_id}").start()
        return self.job(job_id)  # type: ignore[return-value]

    def job(self, job_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute("SELECT id, created_at, updated_at, state, progress, message, version, outcome "
                             "FROM adapt_jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            return None
        keys = ("id", "created_at", "updated_at", "state", "progress", "message", "version", "outcome")
        job = dict(zip(keys, row, strict=True))
        job["outcome"] = json.loads(job["outcome"]) if job["outcome"] else None
        return job

    def _update(self, job_id: str, **fields: Any) -> None:
        fields["updated_at"] = now()
        if "outcome" in fields:
            fields["outcome"] = json.dumps(fields["outcome"])
        with self._connect() as db:
            db.execute(f"UPDATE adapt_jobs SET {', '.join(f'{key} = ?' for key in fields)} WHERE id = ?",
                       (*fields.values(), job_id))

    def _run(self, job_id: str, examples: list[Example], adapter: Adapter) -> None:
        self._update(job_id, state="running", message="exporting the confirmed photos")
        version_id = uuid.uuid4().hex[:12]
        try:
            with tempfile.TemporaryDirectory(prefix="fanshot-adapt-") as scratch:
                data = Path(scratch) / "data"
                for example in examples:
                    write_example(data, labelled(example, Path(scratch)))
                (data / "data.yaml").write_text(format_data_yaml(CLASSES, [""]), encoding="ascii")
                record = adapter(data, self.root / version_id, self.base, progress=lambda fraction, message:
                                 self._update(job_id, progress=round(fraction, 3), message=message))
            self._finish(job_id, version_id, record)
        except Exception as error:  # the job reports it; the server keeps serving
            shutil.rmtree(self.root / version_id, ignore_errors=True)
            self._update(job_id, state="failed", message=f"adaptation failed: {error}")

    def _finish(self, job_id: str, version_id: str, record: dict[str, Any]) -> None:
        figures = held_out_figures(record)
        if record["kept"] != "adapted":
            shutil.rmtree(self.root / version_id, ignore_errors=True)
            self._update(job_id, state="done", progress=1.0, outcome={"figures": figures, "activated": False},
                         message=f"no new version: on {figures['photos']} held-out photos the adapted models read "
                         f"F1 {figures['f1']:.3f}, not better than the base's {figures['base_f1']:.3f}")
            return
        with self._connect() as db:
            db.execute("INSERT INTO model_versions VALUES (?, ?, ?)", (version_id, now(), json.dumps(record)))
        active = self.active().id
        activated = figures["f1"] >= self._held_out_f1(active)
        if activated:
            self.activate(version_id)
        self._update(job_id, state="done", progress=1.0, version=version_id,
                     outcome={"figures": figures, "activated": activated},
                     message=f"version {version_id}: held-out F1 {figures['f1']:.3f} (base {figures['base_f1']:.3f}); "
                     + ("now active" if activated else f"not switched to: {active} read its held-out photos better"))
