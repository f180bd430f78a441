"""Model versions of the app (docs/API.md "Adapting to a user's tile set"): the shipped models (`base`) and the
versions `fanshot adapt` makes from the confirmed photos, each a models folder kept in the image store and fetched
into DATA_DIR/models/<id> by an instance that recognises with it (api/storage/model_files.py), listed with the figures
measured on held-out confirmed photos, and each with its per-class figures (`figures`). The active version and the
adaptation jobs live in the database (database.py), so every instance and worker process reads the same active
version on each request and sees every job's progress.

An adaptation runs as a background thread of the process that was asked; its progress is written to the job's row. It
starts from the active version (learning as you play: each version builds on the one in use) and is judged against it
on the same confirmed photos (the adapter's k-fold, read as serving reads them); the adapter keeps it only if it reads
them better, and then it is made active by itself, unless the active version was switched meanwhile: then it is
listed, not switched to, and `PUT /v1/models/active` switches by hand. The page offers teaching again, and
`--adapt auto` (`start_if_due`) starts it by itself, once SUGGESTED_EXAMPLES confirmed photos are new to the active
version and to the last adaptation."""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, select, update

from fanshot.api.storage.database import adapt_jobs, model_settings, model_versions, reading, writing
from fanshot.api.storage.export import labelled_files, stored_photo
from fanshot.api.storage.images import ImageStore
from fanshot.api.storage.model_files import ModelFiles, ModelFilesMissing, missing_files
from fanshot.api.storage.run_lock import Held, try_run_lock
from fanshot.api.storage.store import Example, now
from fanshot.datasets.classes import CLASSES
from fanshot.datasets.yolo import format_data_yaml

BASE = "base"
MIN_EXAMPLES = 2
SCRATCH_PREFIX = "fanshot-adapt-"
SUGGESTED_EXAMPLES = 10  # new confirmed photos from which teaching is offered (and, with --adapt auto, started)
TAUGHT_ON = "taught_on"  # model_settings: the confirmed photos the last adaptation started on
Adapter = Callable[..., dict[str, Any]]  # vision.training.adapt.adapt's signature


class Busy(Exception):
    """An adaptation is already running."""


class NotEnough(Exception):
    """Too few confirmed photos to adapt on."""


@dataclass(frozen=True)
class Version:
    id: str
    folder: Path | None  # the local copy of its files; None: the shipped models


def held_out_figures(adaptation: dict[str, Any]) -> dict[str, Any]:
    """What a version's listing shows of its adaptation record: its and the base's reading of the held-out photos."""
    held = adaptation["held_out"]
    return {"photos": held["adapted"]["photos"], "f1": held["adapted"]["f1"],
            "exact_photos": held["adapted"]["exact_photos"], "base_f1": held["base"]["f1"],
            "base_exact_photos": held["base"]["exact_photos"],
            # versions made before the deep kind existed were all head refits
            "kind": adaptation.get("kind", "head")}


FIGURES = "figures.json"  # in a models folder: `fanshot eval --figures`'s output, the shipped models' in models/


def adaptation_figures(version_id: str, adaptation: dict[str, Any]) -> dict[str, Any]:
    """A version's per-class figures from its adaptation record: its and the shipped models' reading of the photos
    held out of the adaptation (`classes` is None in a record made before they were kept)."""
    held = adaptation["held_out"]
    sets = {name: {"photos": figures["photos"], "precision": figures["precision"], "recall": figures["recall"],
                   "f1": figures["f1"], "exact_photos": figures["exact_photos"], "classes": figures.get("classes"),
                   "confusion": None}
            for name, figures in (("held out", held["adapted"]), ("held out, shipped models", held["base"]))}
    return {"version": version_id, "of": "the confirmed photos held out of its adaptation, read by this version and "
            "by the shipped models; tiles are counted by code, as the F1 is (no confusion matrix: the adaptation "
            "keeps no boxes)", "command": None, "sets": sets}


def report_figures(version_id: str, report: dict[str, Any]) -> dict[str, Any]:
    """A version's per-class figures from a models folder's figures.json (`fanshot eval --figures`)."""
    sets = {name: {"photos": figures["row"]["images"], "precision": figures["row"]["precision"],
                   "recall": figures["row"]["recall"], "f1": figures["row"]["f1"],
                   "exact_photos": round(figures["row"]["exact_match"] * figures["row"]["images"]),
                   "classes": figures["classes"], "confusion": figures["confusion"]}
            for name, figures in report["sets"].items()}
    return {"version": version_id, "of": f"the sets named, read by models version {report['version']}",
            "command": report["command"], "sets": sets}


class ModelVersions:
    def __init__(self, engine: Engine, images: ImageStore, cache: Path, base: Path | None = None) -> None:
        """Versions recorded in `engine`'s database, their files in `images` (and, fetched, under `cache`);
        `base`: the shipped models' folder (None: vision.recogniser.MODELS_DIR)."""
        self.engine, self.images, self.base = engine, images, base
        self.files = ModelFiles(images, cache)

    def active_id(self) -> str:
        """The id of the version recognitions use now (read per request: another process may have switched it)."""
        with reading(self.engine) as db:
            value = db.execute(select(model_settings.c.value).where(model_settings.c.key == "active")).scalar()
        return value or BASE

    def active(self) -> Version:
        """The version recognitions use now, its files fetched here first if this instance lacks them (raises
        ModelFilesMissing, or ImagesUnavailable when the image store does not answer)."""
        version_id = self.active_id()
        return Version(BASE, self.base) if version_id == BASE else Version(version_id, self.files.folder(version_id))

    def check_active(self) -> str:
        """The active version's id once its files are here (fetched first if this instance lacks them); raises
        ModelFilesMissing if any is missing (issue 53: /readyz said ready while every upload was 503). The shipped
        models are checked by loading them (api/dependencies.py load_shipped_models)."""
        version = self.active()
        if version.id != BASE and version.folder is not None and (missing := missing_files(version.folder)):
            raise ModelFilesMissing(version.id, f"model version {version.id}'s files {', '.join(missing)} are "
                                    f"missing from {version.folder}")
        return version.id

    def folder_of(self, version_id: str) -> Path | None:
        """The local folder of a version's files (fetched here first if this instance lacks them); None for an
        unknown version."""
        if version_id == BASE:
            from fanshot.vision.recogniser import MODELS_DIR

            return self.base or MODELS_DIR
        return self.files.folder(version_id) if self.exists(version_id) else None

    def exists(self, version_id: str) -> bool:
        if version_id == BASE:
            return True
        with reading(self.engine) as db:
            row = db.execute(select(model_versions.c.id).where(model_versions.c.id == version_id)).first()
        return row is not None

    def activate(self, version_id: str) -> None:
        self._set("active", version_id)

    def _set(self, key: str, value: str) -> None:
        with writing(self.engine) as db:
            if db.execute(select(model_settings.c.key).where(model_settings.c.key == key)
                          .with_for_update()).first() is None:
                db.execute(insert(model_settings).values(key=key, value=value))
            else:
                db.execute(update(model_settings).where(model_settings.c.key == key).values(value=value))

    def _setting(self, key: str) -> str | None:
        with reading(self.engine) as db:
            return db.execute(select(model_settings.c.value).where(model_settings.c.key == key)).scalar()

    def learned_from(self, version_id: str) -> int:
        """The confirmed photos a version was adapted on (0: the shipped models)."""
        adaptation = self._adaptation(version_id)
        return adaptation.get("confirmed", adaptation["photos"]) if adaptation else 0

    def new_photos(self, confirmed: int) -> int:
        """Of `confirmed` photos, those beyond what the active version learned from and the last adaptation
        started on (one that kept nothing, or a version rolled back from, is not offered again at once)."""
        return max(0, confirmed - max(self.learned_from(self.active_id()), int(self._setting(TAUGHT_ON) or 0)))

    def start_if_due(self, confirmed: int, examples: Callable[[], list[Example]], adapter: Adapter) -> dict | None:
        """`--adapt auto`: start adapting (`start_job`) once SUGGESTED_EXAMPLES of the `confirmed` photos are new
        (`new_photos`); the job, or None when not due or one is running."""
        if self.new_photos(confirmed) < SUGGESTED_EXAMPLES:
            return None
        try:
            return self.start_job(examples(), adapter, "queued by itself (--adapt auto)")
        except (Busy, NotEnough):
            return None

    def listing(self) -> dict[str, Any]:
        """Every version, oldest first (the base first), with its held-out figures, and which is active."""
        active = self.active_id()
        with reading(self.engine) as db:
            rows = db.execute(select(model_versions.c.id, model_versions.c.created_at, model_versions.c.adaptation)
                              .order_by(model_versions.c.created_at)).all()
        versions = [{"id": BASE, "created_at": None, "active": active == BASE, "photos": 0, "started_from": None,
                     "held_out": None, "figures": f"/v1/models/{BASE}/figures"}]
        for version_id, created_at, adaptation in rows:
            record = json.loads(adaptation)
            versions.append({"id": version_id, "created_at": created_at, "active": active == version_id,
                             "photos": record.get("confirmed", record["photos"]),
                             "started_from": record.get("started_from"), "held_out": held_out_figures(record),
                             "figures": f"/v1/models/{version_id}/figures"})
        return {"active": active, "versions": versions}

    def figures(self, version_id: str) -> dict[str, Any] | None:
        """A version's per-class figures (`GET /v1/models/{id}/figures`): the shipped models' from their
        figures.json, an adapted version's from its held-out photos; None for an unknown version or a base folder
        without figures.json."""
        if version_id == BASE:
            source = self.folder_of(BASE) / FIGURES
            return report_figures(BASE, json.loads(source.read_text(encoding="utf-8"))) if source.is_file() else None
        with reading(self.engine) as db:
            adaptation = db.execute(select(model_versions.c.adaptation)
                                    .where(model_versions.c.id == version_id)).scalar()
        return adaptation_figures(version_id, json.loads(adaptation)) if adaptation else None

    def _adaptation(self, version_id: str) -> dict[str, Any] | None:
        """A version's adaptation record; None for the shipped models or an unknown version."""
        if version_id == BASE:
            return None
        with reading(self.engine) as db:
            adaptation = db.execute(select(model_versions.c.adaptation)
                                    .where(model_versions.c.id == version_id)).scalar()
        return json.loads(adaptation) if adaptation else None

    # Jobs

    def start_job(self, examples: list[Example], adapter: Adapter, message: str = "queued") -> dict[str, Any]:
        """Start adapting the active version to `examples` in a background thread; the new job."""
        if len(examples) < MIN_EXAMPLES:
            raise NotEnough(f"{len(examples)} confirmed photo(s); adapting needs at least {MIN_EXAMPLES}")
        # taken here, before the job is recorded: no sweep may fail it before it runs
        lock = try_run_lock(self.engine, self.files.cache.parent)
        if lock is None:
            raise Busy("an adaptation is already running")
        try:
            self._fail_orphans()
            job_id, stamp = uuid.uuid4().hex, now()
            with writing(self.engine) as db:
                db.execute(insert(adapt_jobs).values(id=job_id, created_at=stamp, updated_at=stamp, state="queued",
                                                     progress=0.0, message=message))
            self._set(TAUGHT_ON, str(len(examples)))
            threading.Thread(target=self._run, args=(job_id, examples, adapter, lock, self.active_id()), daemon=True,
                             name=f"adapt-{job_id}").start()
        except BaseException:
            lock.release()
            raise
        return self.job(job_id)  # type: ignore[return-value]

    def recover(self) -> None:
        """At start-up: fail the jobs whose process is gone, and remove their scratch folders, unless a running
        adaptation (another instance's, or another worker's) holds the lock."""
        lock = try_run_lock(self.engine, self.files.cache.parent)
        if lock is not None:
            try:
                self._fail_orphans()
            finally:
                lock.release()

    def _fail_orphans(self) -> None:
        """With the adaptation lock held: no unfinished job has a process left. Mark them failed; remove what they
        left here (scratch folders, a new version's unpublished files)."""
        unfinished = adapt_jobs.c.state.in_(("queued", "running"))
        with reading(self.engine) as db:
            orphans = db.execute(select(adapt_jobs.c.id).where(unfinished)).first() is not None
        if orphans:  # written only then: a read-only database still opens (its check then says why)
            with writing(self.engine) as db:
                db.execute(update(adapt_jobs).where(unfinished).values(
                    state="failed", updated_at=now(), message="interrupted: its server process ended"))
        for left in [*self.files.cache.glob(f".{SCRATCH_PREFIX}*"), *self.files.cache.glob(".*.new")]:
            shutil.rmtree(left, ignore_errors=True)

    def running_job(self) -> dict[str, Any] | None:
        """The adaptation queued or running now, if any (the page follows one it did not start: `--adapt auto`)."""
        with reading(self.engine) as db:
            job_id = db.execute(select(adapt_jobs.c.id).where(adapt_jobs.c.state.in_(("queued", "running")))
                                .order_by(adapt_jobs.c.created_at.desc())).scalar()
        return self.job(job_id) if job_id else None

    def job(self, job_id: str) -> dict[str, Any] | None:
        with reading(self.engine) as db:
            row = db.execute(select(adapt_jobs).where(adapt_jobs.c.id == job_id)).first()
        if row is None:
            return None
        job = dict(row._mapping)
        job["outcome"] = json.loads(job["outcome"]) if job["outcome"] else None
        return job

    def _update(self, job_id: str, **fields: Any) -> None:
        fields["updated_at"] = now()
        if "outcome" in fields:
            fields["outcome"] = json.dumps(fields["outcome"])
        with writing(self.engine) as db:
            db.execute(update(adapt_jobs).where(adapt_jobs.c.id == job_id).values(**fields))

    def _run(self, job_id: str, examples: list[Example], adapter: Adapter, lock: Held, start: str) -> None:
        try:
            self._adapt(job_id, examples, adapter, start)
        finally:
            lock.release()

    def _adapt(self, job_id: str, examples: list[Example], adapter: Adapter, start: str) -> None:
        """Adapt version `start` (the active one when the job was asked for) to `examples`."""
        self._update(job_id, state="running", message="exporting the confirmed photos")
        version_id = uuid.uuid4().hex[:12]
        out = self.files.staging(version_id)
        try:
            base = self.folder_of(start)
            # beside the model folders, hidden: what a process ended mid-way leaves is found and removed (recover)
            with tempfile.TemporaryDirectory(prefix=f".{SCRATCH_PREFIX}", dir=self.files.cache) as scratch:
                data = Path(scratch) / "data"
                for example in examples:
                    for name, content in labelled_files(example, stored_photo(example, self.images)):
                        (data / name).parent.mkdir(parents=True, exist_ok=True)
                        (data / name).write_bytes(content)
                (data / "data.yaml").write_text(format_data_yaml(CLASSES, [""]), encoding="ascii")
                record = adapter(data, out, base, progress=lambda fraction, message:
                                 self._update(job_id, progress=round(fraction, 3), message=message))
            self._finish(job_id, version_id, out, {**record, "started_from": start, "confirmed": len(examples)})
        except Exception as error:  # the job reports it; the server keeps serving
            self._update(job_id, state="failed", message=f"adaptation failed: {error}")
        finally:
            shutil.rmtree(out, ignore_errors=True)  # published versions were moved out of it

    def _finish(self, job_id: str, version_id: str, out: Path, record: dict[str, Any]) -> None:
        figures = held_out_figures(record)
        start = record["started_from"]
        if record["kept"] != "adapted":
            self._update(job_id, state="done", progress=1.0, outcome={"figures": figures, "activated": False,
                                                                     "started_from": start},
                         message=f"no new version: on {figures['photos']} held-out photos the adapted models read "
                         f"F1 {figures['f1']:.3f}, not better than {start}'s {figures['base_f1']:.3f}")
            return
        self._update(job_id, message="storing the new version's files")
        self.files.publish(version_id, out)  # before it is recorded: no instance may find a version without files
        with writing(self.engine) as db:
            db.execute(insert(model_versions).values(id=version_id, created_at=now(), adaptation=json.dumps(record)))
        active = self.active_id()
        activated = active == start  # it reads the photos better than `start` did; a switch meanwhile stands
        if activated:
            self.activate(version_id)
        self._update(job_id, state="done", progress=1.0, version=version_id,
                     outcome={"figures": figures, "activated": activated, "started_from": start},
                     message=f"version {version_id}: held-out F1 {figures['f1']:.3f} ({start} "
                     f"{figures['base_f1']:.3f}); " + ("now active" if activated else
                                                       f"not switched to: {active} was switched to meanwhile"))
