"""Throwaway servers for the tests of the scaled-out storage: a PostgreSQL cluster (initdb + pg_ctl in a temporary
folder, run as the `postgres` user when the tests run as root, reached on a unix socket) and an S3-compatible
server (moto's server mode). CI installs both (.ci/run); on a machine without them the tests that need them
skip, saying what is missing."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

POSTGRES_BIN_GLOB = "/usr/lib/postgresql/*/bin"


def unavailable(what: str, install: str) -> None:
    """Skip a test (or a whole module) whose software is not installed here, with the line that installs it; in CI,
    which installs everything (.ci/run), fail instead."""
    message = f"{what} is not installed here; to run this lane: {install}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message, allow_module_level=True)


def needs_train_extra() -> None:
    """Skip a module that trains (ultralytics, torch) where the `train` extra is not installed; fail in CI."""
    if importlib.util.find_spec("ultralytics") is None or importlib.util.find_spec("torch") is None:
        unavailable("the `train` extra (ultralytics, torch)", "pip install -e '.[train]'")
    # ultralytics binds its log handler to sys.stdout as its first import finds it. Imported now, at collection, that
    # is pytest's capture for the whole run; first imported inside a test with capsys, it is a buffer closed when that
    # test ends, and every later log line in the worker prints a "Logging error" traceback into other tests' stderr.
    from fanshot.vision.image import restore_pillow_open  # binds Pillow's own opener before ultralytics replaces it

    importlib.import_module("ultralytics")
    # The import also swaps Image.open for one that turns an unreadable photo into ModuleNotFoundError (pi_heif) in
    # every later test of the worker; the product puts Pillow's back (configure_ultralytics), and so must the tests.
    restore_pillow_open()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server's binaries: Debian's folder, else whatever initdb is on the PATH."""
    found = sorted(glob.glob(POSTGRES_BIN_GLOB), key=lambda path: int(Path(path).parent.name))
    if found and Path(found[-1], "initdb").exists():
        return Path(found[-1])
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def as_cluster_owner(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run as the `postgres` user instead."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_cluster(binaries: Path) -> Iterator[str]:
    """A new cluster, started; yields the URL of its `postgres` database (user `postgres`, trust, unix socket)."""
    folder = Path(tempfile.mkdtemp(prefix="fanshot-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", free_port()
    try:
        subprocess.run(as_cluster_owner([str(binaries / "initdb"), "-D", str(data), "-U", "postgres",
                                         "--auth=trust", "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True)
        # fsync stays on: the durability tests kill servers, not the machine, but a test must not lie either way
        settings = f"-k {folder} -p {port} -c listen_addresses='' -c max_connections=200"
        subprocess.run(as_cluster_owner([str(binaries / "pg_ctl"), "-D", str(data), "-o", settings, "-w",
                                         "-l", str(folder / "log"), "start"]), check=True, capture_output=True)
        try:
            yield f"postgresql://postgres@/postgres?host={folder}&port={port}"
        finally:
            subprocess.run(as_cluster_owner([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                             "stop"]), capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def new_database(cluster_url: str, template: str | None = None) -> str:
    """A new database in the cluster, empty or a copy of the database `template` (which nothing may be connected
    to); its URL."""
    import psycopg

    name = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(cluster_url, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return cluster_url.replace("/postgres?", f"/{name}?", 1)


def database_name(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).database


@contextmanager
def s3_server() -> Iterator[str]:
    """moto's S3-compatible server on a free local port; yields its endpoint URL."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()
