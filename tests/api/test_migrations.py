"""`fanshot db upgrade` (Alembic): from an empty database and from the schema of the releases before migrations;
the embedded database migrates itself, a shared one must be upgraded first."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from fanshot.api.app import create_app
from fanshot.api.storage.database import (
    SchemaOutOfDate,
    current_revision,
    head_revision,
    metadata,
    open_database,
    upgrade,
)
from fanshot.cli import main
from tests.api.conftest import fake_load_models, fake_recognise, jpeg, local_client

# The schema as the releases before migrations made it (api/store.py and api/game_store.py of commit 888c420).
PREVIOUS_SCHEMA = """
CREATE TABLE IF NOT EXISTS recognitions (
    id TEXT PRIMARY KEY, created_at TEXT NOT NULL, image_file TEXT NOT NULL, media_type TEXT NOT NULL,
    result TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS confirmations (
    recognition_id TEXT PRIMARY KEY REFERENCES recognitions(id), confirmed_at TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    setup TEXT NOT NULL, hands TEXT NOT NULL);
"""
RESULT = '{"id": "r1", "image": {"width": 640, "height": 480}, "tiles": []}'
GAME_SETUP = '{"ruleset": "jipinghu", "options": {}, "players": ["A", "B", "C", "D"], "stake": {}}'


def previous_release_data(data_dir):
    """A data directory as the previous release left it: one confirmed recognition and one game."""
    (data_dir / "images").mkdir(parents=True)
    (data_dir / "images" / "r1.jpg").write_bytes(jpeg())  # 640×480 upright: the frame of its (no) boxes
    with closing(sqlite3.connect(data_dir / "fanshot.sqlite3")) as db, db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(PREVIOUS_SCHEMA)
        db.execute("INSERT INTO recognitions VALUES ('r1', '2026-11-30T10:00:00.000+00:00', 'r1.jpg', 'image/jpeg', "
                   "?)", (RESULT,))
        db.execute("INSERT INTO confirmations VALUES ('r1', '2026-11-30T10:01:00.000+00:00', "
                   "'{\"tiles\": [], \"hand\": null}')")
        db.execute("INSERT INTO games VALUES ('g1', 1, 't', 't', ?, '[]')", (GAME_SETUP,))


def app_on(data_dir, **storage):
    return local_client(create_app(data_dir, **storage, recognise=fake_recognise, load_models=fake_load_models))


def confirmations_indexes(url: str) -> list[str]:
    return [index["name"] for index in inspect(open_database(url)).get_indexes("confirmations")]


def test_upgrade_from_the_previous_release_keeps_its_data(tmp_path, capsys):
    previous_release_data(tmp_path)
    assert main(["db", "upgrade", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"database at revision {head_revision()} (was empty)"
    url = f"sqlite:///{tmp_path / 'fanshot.sqlite3'}"
    assert current_revision(open_database(url)) == head_revision()
    assert confirmations_indexes(url) == ["ix_confirmations_confirmed_at"]
    client = app_on(tmp_path)
    assert client.get("/v1/recognitions/r1").json()["confirmation"]["confirmed_at"].startswith("2026-11-30T10:01")
    assert client.get("/v1/recognitions/r1/image").content == jpeg()
    assert client.get("/v1/games/g1").json()["players"][0]["name"] == "A"
    assert main(["db", "upgrade", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"database at revision {head_revision()} (already up to date)"


def test_the_embedded_database_of_the_previous_release_migrates_itself_on_start(tmp_path):
    previous_release_data(tmp_path)
    assert app_on(tmp_path).get("/v1/recognitions/r1").status_code == 200
    assert current_revision(open_database(f"sqlite:///{tmp_path / 'fanshot.sqlite3'}")) == head_revision()


def test_upgrade_of_an_empty_postgres_database(tmp_path, postgres_url, capsys):
    with pytest.raises(SchemaOutOfDate, match="fanshot db upgrade"):  # never migrated behind the operator's back
        create_app(tmp_path, database_url=postgres_url)
    assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
    assert capsys.readouterr().out.strip() == f"database at revision {head_revision()} (was empty)"
    assert confirmations_indexes(postgres_url) == ["ix_confirmations_confirmed_at"]
    game = app_on(tmp_path, database_url=postgres_url).post("/v1/games", json={"players": list("ABCD")})
    assert game.status_code == 201
    assert main(["db", "upgrade", "--database-url", postgres_url]) == 0
    assert "already up to date" in capsys.readouterr().out


@pytest.mark.parametrize("url", ["mysql://someone@db/fanshot", "postgresql://nobody@/nodb?host=/nonexistent"])
def test_a_database_that_cannot_be_used_is_an_error_line(url, capsys):
    assert main(["db", "upgrade", "--database-url", url]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1 and "Traceback" not in error


def test_serve_refuses_a_shared_database_not_yet_upgraded(tmp_path, postgres_url, capsys, monkeypatch):
    # serve hands its settings to its workers through these variables: restored after the test
    monkeypatch.setenv("FANSHOT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("FANSHOT_DATABASE_URL", postgres_url)  # the option's default
    assert main(["serve", "--data-dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: the database schema is at revision none") and "fanshot db upgrade" in error


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_the_migrations_make_exactly_the_tables_the_code_defines(backend, tmp_path, request):
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}" if backend == "sqlite" else request.getfixturevalue("postgres_url")
    engine = open_database(url)
    upgrade(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []


def test_a_stored_game_s_hands_get_stable_ids_that_later_hands_never_reuse(tmp_path):
    # issue 50: hands were stored without ids, addressed by their position
    previous_release_data(tmp_path)
    with closing(sqlite3.connect(tmp_path / "fanshot.sqlite3")) as db, db:
        db.execute("""UPDATE games SET version = 3, hands = '[{"kind": "draw"}, {"kind": "draw"}]'""")
    client = app_on(tmp_path)
    game = client.get("/v1/games/g1")
    assert [hand["id"] for hand in game.json()["hands"]] == ["h1", "h2"]
    added = client.post("/v1/games/g1/hands", json={"kind": "draw"}, headers={"if-match": game.headers["etag"]})
    assert added.status_code == 201 and added.json()["id"] not in ("h1", "h2")
    assert client.get("/v1/games/g1").json()["hands"][1]["id"] == "h2"
