"""The records' database, through SQLAlchemy Core: the embedded SQLite file by default, or PostgreSQL
(`postgresql://USER@HOST:PORT/DB`, through psycopg 3) shared by any number of app instances.

The tables are defined here once; their history is in api/storage/migrations (Alembic), applied by `fanshot db upgrade`.
The embedded database migrates itself when the app starts; a PostgreSQL one must be upgraded first (instances
that start at once must not race to change a shared schema), else the app refuses to start and says so.

Durability: SQLite runs in WAL mode with synchronous=FULL, so a committed transaction is on disk; PostgreSQL
commits durably by default (fsync, synchronous_commit on). A write transaction (`writing`) reads what it will
change under a lock: BEGIN IMMEDIATE on SQLite, SELECT ... FOR UPDATE of the rows on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    Table,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import make_url

from fanshot.api.storage.extras import import_scale_extra

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
IMMEDIATE = "fanshot_immediate"  # execution option: this transaction writes (SQLite: take the write lock at BEGIN)

metadata = MetaData()
recognitions = Table(
    "recognitions", metadata,
    Column("id", Text, primary_key=True),
    Column("created_at", Text, nullable=False),
    Column("image_file", Text, nullable=False),  # its name in the image store
    Column("media_type", Text, nullable=False),
    Column("result", Text, nullable=False),  # JSON
    Column("photo_sha256", Text),  # hex; the export keeps one example per photo (none before revision 0003)
)
confirmations = Table(
    "confirmations", metadata,
    Column("recognition_id", Text, ForeignKey("recognitions.id"), primary_key=True),
    Column("confirmed_at", Text, nullable=False, index=True),
    Column("body", Text, nullable=False),  # JSON
)
games = Table(
    "games", metadata,
    Column("id", Text, primary_key=True),
    Column("version", Integer, nullable=False),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
    Column("setup", Text, nullable=False),  # JSON
    Column("hands", Text, nullable=False),  # JSON
)

# The recogniser's model versions (api/storage/model_versions.py)
model_versions = Table(
    "model_versions", metadata,
    Column("id", Text, primary_key=True),
    Column("created_at", Text, nullable=False),
    Column("adaptation", Text, nullable=False),  # JSON: how it was made and its held-out figures
)
model_settings = Table(
    "model_settings", metadata,
    Column("key", Text, primary_key=True),  # "active": the version recognitions use
    Column("value", Text, nullable=False),
)
adapt_jobs = Table(
    "adapt_jobs", metadata,
    Column("id", Text, primary_key=True),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
    Column("state", Text, nullable=False),  # queued, running, done, failed
    Column("progress", Float, nullable=False),
    Column("message", Text, nullable=False),
    Column("version", Text),
    Column("outcome", Text),  # JSON
)


class UnsupportedDatabase(ValueError):
    pass


class SchemaOutOfDate(RuntimeError):
    pass


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def is_sqlite(engine: Engine | Connection) -> bool:
    return engine.dialect.name == "sqlite"


def open_database(url: str) -> Engine:
    """An engine for `url` (sqlite:///PATH or postgresql://…); nothing is created or migrated."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    # Routes run on up to 40 threads (AnyIO's pool): as many connections, so that none waits for one.
    pool = {"pool_size": 10, "max_overflow": 30}
    if backend == "sqlite":
        engine = create_engine(parsed, connect_args={"timeout": 30}, **pool)
        event.listen(engine, "connect", _sqlite_connected)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if backend in ("postgresql", "postgres"):
        import_scale_extra("psycopg", "a postgresql:// database URL (--database-url)")
        # pre-ping replaces connections a database restart has closed
        return create_engine(parsed.set(drivername="postgresql+psycopg"), pool_pre_ping=True, **pool)
    raise UnsupportedDatabase(f"unsupported database URL {parsed.render_as_string(hide_password=True)!r}: "
                              "use sqlite:///PATH or postgresql://USER@HOST:PORT/DB")


def _sqlite_connected(connection, _record) -> None:  # a DB-API sqlite3 connection
    connection.isolation_level = None  # transactions are begun by _sqlite_begin, not by the driver
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")


def _sqlite_begin(connection: Connection) -> None:
    # BEGIN IMMEDIATE takes the write lock before the first read, so a read-then-write cannot lose another
    # writer's change (a deferred transaction would fail to upgrade its lock under WAL).
    connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get(IMMEDIATE) else "BEGIN")


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    with engine.begin() as connection:
        yield connection


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """One write transaction, committed on success; select the rows it changes `with_for_update()`."""
    with engine.execution_options(**{IMMEDIATE: True}).begin() as connection:
        yield connection


def _alembic_config(connection: Connection):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Apply every migration not yet applied, in one transaction; (the revision before, the revision now).
    Concurrent upgrades of one database queue up: the embedded one on SQLite's write lock, PostgreSQL on an
    advisory lock."""
    from alembic import command

    with writing(engine) as connection:
        if not is_sqlite(connection):
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7253)")  # any fixed number: fanshot's
        from alembic.runtime.migration import MigrationContext

        before = MigrationContext.configure(connection).get_current_revision()
        command.upgrade(_alembic_config(connection), "head")
    return before, head_revision()


def require_current(engine: Engine) -> None:
    """Refuse a database whose schema is not the one this release uses."""
    current, head = current_revision(engine), head_revision()
    if current != head:
        raise SchemaOutOfDate(f"the database schema is at revision {current or 'none (empty)'}, this release needs "
                              f"{head}: run `fanshot db upgrade --database-url URL` first")
