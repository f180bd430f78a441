"""The one way in to storage: `open_storage` gives the app everything it keeps, from a data directory or the
database and image store URLs name; `upgrade_records` is `fanshot db upgrade`'s migration of the database alone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fanshot.api.storage.database import is_sqlite, open_database, sqlite_url, upgrade
from fanshot.api.storage.game_events import GameEvents, LocalGameEvents, PostgresGameEvents
from fanshot.api.storage.game_store import SqlGameStore
from fanshot.api.storage.model_versions import ModelVersions
from fanshot.api.storage.store import DATABASE_FILE, Store


@dataclass(frozen=True)
class Storage:
    """Recognitions and photos, games and their live events, model versions: all on one database and image store."""

    store: Store
    games: SqlGameStore
    game_events: GameEvents
    model_versions: ModelVersions


def open_storage(data_dir: Path, *, database_url: str | None = None, images_url: str | None = None,
                 s3_endpoint_url: str | None = None, base_models: Path | None = None) -> Storage:
    """Storage under the data directory `data_dir`, unless a database or images URL points elsewhere; adapted model
    versions are cached in DATA_DIR/models, `base_models` (default: the shipped ones) is the version `base`."""
    store = Store(data_dir, database_url=database_url, images_url=images_url, s3_endpoint_url=s3_endpoint_url)
    engine = store.engine
    events = LocalGameEvents() if is_sqlite(engine) else PostgresGameEvents(engine)
    return Storage(store, SqlGameStore(engine), events,
                   ModelVersions(engine, store.images, data_dir / "models", base_models))


def upgrade_records(data_dir: Path, database_url: str | None = None) -> tuple[str | None, str]:
    """Apply the schema migrations to the database URL names (default: DATA_DIR's embedded one, the folder made
    if need be); the revisions before and after."""
    if not database_url:
        data_dir.mkdir(parents=True, exist_ok=True)
    return upgrade(open_database(database_url or sqlite_url(data_dir.resolve() / DATABASE_FILE)))
