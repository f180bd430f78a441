"""Fixtures for every test package: the throwaway PostgreSQL cluster and S3-compatible server (tests/services.py)."""

from __future__ import annotations

import importlib.util
import os
import uuid
from collections.abc import Iterator

import pytest

from tests.services import new_database, postgres_bin, postgres_cluster, s3_server

# moto accepts any credentials; boto3 only needs some, and a region
S3_TEST_ENVIRONMENT = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}


def unavailable(what: str) -> None:
    """Skip a test whose server software is not installed here; in CI (which installs it) fail instead."""
    message = f"{what} is not installed here (.ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_cluster_url() -> Iterator[str]:
    binaries = postgres_bin()
    if binaries is None:
        unavailable("the PostgreSQL server (initdb, pg_ctl: Debian package postgresql)")
    with postgres_cluster(binaries) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_cluster_url: str) -> str:
    """A new empty database on the session's throwaway PostgreSQL cluster."""
    return new_database(postgres_cluster_url)


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    if importlib.util.find_spec("moto") is None:
        unavailable("moto (the dev extra: pip install -e '.[dev]')")
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
