"""Fixtures for every test package: the throwaway PostgreSQL cluster and S3-compatible server (tests/services.py)."""

from __future__ import annotations

import importlib.util
import os
import signal
import uuid
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.services import database_name, new_database, postgres_bin, postgres_cluster, s3_server, unavailable

# moto accepts any credentials; boto3 only needs some, and a region
S3_TEST_ENVIRONMENT = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}


STORAGE_SERVERS = {"postgres_cluster_url", "s3_endpoint"}


def pytest_terminal_summary(terminalreporter) -> None:
    """Each reason for skipping once, with how many tests it skipped: a missing PostgreSQL says so once and gives
    the line that installs it, not once per test (as -rs would)."""
    reasons = Counter(report.longrepr[2].removeprefix("Skipped: ")
                      for report in terminalreporter.stats.get("skipped", []) if isinstance(report.longrepr, tuple))
    if reasons:
        terminalreporter.section("skipped")
        for reason, count in sorted(reasons.items()):
            terminalreporter.line(f"{count:4} {reason}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test whose fixtures reach the throwaway PostgreSQL cluster or S3 server, however deep, is in the
    `postgres` lane. A fixture reached only through request.getfixturevalue is invisible here: such parameters carry
    the mark themselves (BACKENDS in tests/api/conftest.py). The `browser` lane runs last, in its order: its one
    Playwright driver and Chromium (tests/api/conftest.py) then live through browser tests alone."""
    for item in items:
        if STORAGE_SERVERS.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgres)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)  # stable: the rest keep their order


@pytest.fixture(autouse=True)
def sigpipe_as_it_was() -> Iterator[None]:
    """A command run in-process (fanshot.cli main) restores SIGPIPE's default action, for a quiet `| head`; the test
    run keeps its own, so that a later write to a closed socket is an error and not the end of the run (which
    ended with exit 141, now and then, after tests/api/test_extras.py)."""
    handler = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, handler)


@pytest.fixture(scope="session")
def postgres_cluster_url() -> Iterator[str]:
    binaries = postgres_bin()
    if binaries is None:
        unavailable("the PostgreSQL server (initdb, pg_ctl)", "apt-get install -y postgresql")
    with postgres_cluster(binaries) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_cluster_url: str) -> str:
    """A new empty database on the session's throwaway PostgreSQL cluster."""
    return new_database(postgres_cluster_url)


@pytest.fixture(scope="session")
def migrated_template(postgres_cluster_url: str) -> str:
    """The name of a database migrated once to the newest schema, which migrated_postgres_url copies."""
    from fanshot.api.storage.database import open_database, upgrade

    url = new_database(postgres_cluster_url)
    engine = open_database(url)
    upgrade(engine)
    engine.dispose()  # a template must have no connections when it is copied
    return database_name(url)


@pytest.fixture
def migrated_postgres_url(postgres_cluster_url: str, migrated_template: str) -> str:
    """A new database at the newest schema: a copy of the session's migrated template, not a migration per test."""
    return new_database(postgres_cluster_url, template=migrated_template)


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    if importlib.util.find_spec("moto") is None:
        unavailable("moto, the S3-compatible server", "pip install -e '.[dev]'")
    os.environ.update({name: os.environ.get(name, default) for name, default in S3_TEST_ENVIRONMENT.items()})
    with s3_server() as url:
        yield url


@pytest.fixture
def s3_images_url(s3_endpoint: str) -> str:
    """`s3://BUCKET/photos` on a new bucket of the session's S3-compatible server."""
    import boto3

    bucket = f"fanshot-{uuid.uuid4().hex[:12]}"
    boto3.client("s3", endpoint_url=s3_endpoint).create_bucket(Bucket=bucket)
    return f"s3://{bucket}/photos"
