"""The test harness (tests/services.py): the throwaway servers the storage tests run against work and keep tests apart,
and importing the train extra leaves the process as the product leaves it."""

import boto3
import psycopg
from PIL import Image

from fanshot.api.storage.database import current_revision, head_revision, open_database
from tests.services import needs_train_extra, new_database


def test_each_test_gets_its_own_empty_postgres_database(postgres_url, postgres_cluster_url):
    other = new_database(postgres_cluster_url)
    assert other != postgres_url
    with psycopg.connect(postgres_url) as db:
        db.execute("CREATE TABLE marker (id int)")
    with psycopg.connect(other) as db:
        assert db.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'marker'").fetchone() == (0,)
        assert db.execute("SHOW fsync").fetchone() == ("on",)


def test_each_migrated_database_is_a_separate_copy_at_the_newest_schema(migrated_postgres_url, postgres_cluster_url,
                                                                      migrated_template):
    other = new_database(postgres_cluster_url, template=migrated_template)
    for url in (migrated_postgres_url, other):
        engine = open_database(url)
        assert current_revision(engine) == head_revision()
        engine.dispose()
    with psycopg.connect(migrated_postgres_url) as db:
        db.execute("CREATE TABLE marker (id int)")
    with psycopg.connect(other) as db:
        assert db.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'marker'").fetchone() == (0,)


def test_the_s3_server_keeps_objects(s3_images_url, s3_endpoint):
    bucket = s3_images_url.removeprefix("s3://").split("/")[0]
    s3 = boto3.client("s3", endpoint_url=s3_endpoint)
    s3.put_object(Bucket=bucket, Key="photos/a.jpg", Body=b"jpeg")
    assert s3.get_object(Bucket=bucket, Key="photos/a.jpg")["Body"].read() == b"jpeg"


def test_the_train_extra_leaves_pillows_own_opener_to_the_tests_after_it():
    needs_train_extra()
    assert Image.open.__module__ == "PIL.Image"  # not ultralytics' patch, which raises ModuleNotFoundError (pi_heif)
