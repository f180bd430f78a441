"""Adapted model versions live in the image store (issue 34 item 3): the instance that adapts publishes a version's
files there before recording it; any other instance fetches them into its own cache, whole or not at all, and
serves the version; a store that does not answer, or has lost the files, is a clear 503."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest

from fanshot.api.storage.images import FolderImages, ImagesUnavailable
from fanshot.api.storage.model_files import MANIFEST, ModelFiles, ModelFilesMissing, store_name
from fanshot.api.storage.model_versions import ModelVersions
from tests.api.conftest import fake_recognise, jpeg
from tests.api.test_models import (
    adapt,
    app_client,
    close_databases,  # noqa: F401  (autouse: closes the databases of the apps made)
    confirm_photos,
    fake_adapter,
)

# An adapted version's folder as the adapter writes it: its settings and two models (here, made-up bytes).
VERSION_FILES = {"vision.json": b'{"adapted": true}', "localiser.onnx": b"L" * 5000, "classifier.onnx": b"C" * 3000}


def folder_contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def recording(loaded: list[tuple[Path, dict[str, bytes]]]):
    """A recogniser that notes the models folder it is handed and what that folder holds."""
    def recognise(image, models_dir, original=None):
        loaded.append((models_dir, folder_contents(models_dir)))
        return fake_recognise(image)
    return recognise


def run_together(calls) -> None:
    """Each call on a thread of its own, all started before any is waited for."""
    threads = [threading.Thread(target=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)


def published(tmp_path: Path, version_id: str = "v1") -> FolderImages:
    """A folder image store holding version `version_id` of VERSION_FILES."""
    images = FolderImages(tmp_path / "store")
    staging = ModelFiles(images, tmp_path / "adapting").staging(version_id)
    staging.mkdir()
    for name, data in VERSION_FILES.items():
        (staging / name).write_bytes(data)
    ModelFiles(images, tmp_path / "adapting").publish(version_id, staging)
    return images


class CountingImages:
    """An image store that counts and slows its reads, and can be made to fail the read of one name."""

    def __init__(self, images: FolderImages, *, failing: str | None = None, barrier: threading.Barrier | None = None):
        self.images, self.failing, self.barrier, self.reads = images, failing, barrier, []

    def put(self, name: str, data: bytes) -> None:
        self.images.put(name, data)

    def get(self, name: str) -> bytes | None:
        self.reads.append(name)
        if self.barrier is not None and name.endswith(MANIFEST):
            self.barrier.wait(5)  # both fetchers are past their cache check before either writes
        time.sleep(0.02)
        if name == self.failing:
            raise ImagesUnavailable("the object store cannot be read: EndpointConnectionError")
        return self.images.get(name)

    def check(self) -> None:
        self.images.check()


def test_a_published_version_is_stored_under_its_own_prefix_with_its_manifest_last(tmp_path):
    images = published(tmp_path)
    stored = sorted(p.relative_to(images.root).as_posix() for p in images.root.rglob("*") if p.is_file())
    assert stored == [f"models/v1/{name}" for name in ("classifier.onnx", MANIFEST, "localiser.onnx", "vision.json")]
    assert folder_contents(tmp_path / "adapting" / "v1") == VERSION_FILES  # the adapting instance keeps its copy
    assert not list((tmp_path / "adapting").glob(".*"))


def test_requests_that_want_a_missing_version_at_once_fetch_it_once_and_all_get_the_whole_folder(tmp_path):
    images = CountingImages(published(tmp_path))
    files = ModelFiles(images, tmp_path / "cache")
    with_threads = []
    barrier = threading.Barrier(8)

    def want() -> None:
        barrier.wait(5)
        with_threads.append(files.folder("v1"))
    run_together([want] * 8)
    assert with_threads == [tmp_path / "cache" / "v1"] * 8
    assert folder_contents(tmp_path / "cache" / "v1") == VERSION_FILES
    assert images.reads.count(store_name("v1", MANIFEST)) == 1


def test_two_processes_fetching_one_version_at_once_both_end_with_the_whole_folder(tmp_path):
    # two ModelFiles on one cache folder: two worker processes of one instance, each with its own lock
    images = published(tmp_path)
    barrier = threading.Barrier(2)
    fetchers = [ModelFiles(CountingImages(images, barrier=barrier), tmp_path / "cache") for _ in range(2)]
    results: list[Path] = []
    run_together([lambda f=f: results.append(f.folder("v1")) for f in fetchers])
    assert results == [tmp_path / "cache" / "v1"] * 2
    assert folder_contents(tmp_path / "cache" / "v1") == VERSION_FILES
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["v1"]  # the loser's copy is gone


def test_a_fetch_that_fails_half_way_leaves_nothing_to_load_and_the_next_one_completes(tmp_path):
    images = CountingImages(published(tmp_path), failing=store_name("v1", "localiser.onnx"))
    files = ModelFiles(images, tmp_path / "cache")
    with pytest.raises(ImagesUnavailable):
        files.folder("v1")
    assert list((tmp_path / "cache").iterdir()) == []  # neither the version's folder nor a half-written one
    images.failing = None
    assert folder_contents(files.folder("v1")) == VERSION_FILES


@pytest.mark.parametrize("damage", ["manifest", "file", "changed"])
def test_a_version_whose_files_are_not_all_in_the_store_is_named_and_not_fetched(tmp_path, damage):
    images = published(tmp_path)
    target = images.root / store_name("v1", MANIFEST if damage == "manifest" else "localiser.onnx")
    if damage == "changed":
        target.write_bytes(b"another model")
    else:
        target.unlink()
    with pytest.raises(ModelFilesMissing, match="v1") as missing:
        ModelFiles(images, tmp_path / "cache").folder("v1")
    assert missing.value.version_id == "v1" and list((tmp_path / "cache").iterdir()) == []


def forget(storage: dict[str, str], data: Path, name: str) -> None:
    """Delete `name` from the image store of `storage` (the embedded one: DATA/images)."""
    if not storage:
        (data / "images" / name).unlink()
        return
    import boto3

    bucket, prefix = storage["images_url"].removeprefix("s3://").split("/", 1)
    boto3.client("s3", endpoint_url=storage["s3_endpoint_url"]).delete_object(Bucket=bucket, Key=f"{prefix}/{name}")


def test_a_version_adapted_by_one_instance_is_served_by_another_from_the_object_store(
        tmp_path, migrated_postgres_url, s3_images_url, s3_endpoint):
    import boto3

    storage = {"database_url": migrated_postgres_url, "images_url": s3_images_url, "s3_endpoint_url": s3_endpoint}
    loaded: list[tuple[Path, dict[str, bytes]]] = []
    one = app_client(tmp_path / "one", fake_adapter(0.95, files=VERSION_FILES), storage=storage)
    two = app_client(tmp_path / "two", recognise=recording(loaded), storage=storage)
    assert list((tmp_path / "two" / "models").iterdir()) == []  # the second instance holds no model files
    confirm_photos(one, 2)
    version = adapt(one)["version"]

    bucket, prefix = s3_images_url.removeprefix("s3://").split("/", 1)
    listed = boto3.client("s3", endpoint_url=s3_endpoint).list_objects_v2(Bucket=bucket,
                                                                          Prefix=f"{prefix}/models/")
    assert sorted(item["Key"] for item in listed["Contents"]) == [
        f"{prefix}/models/{version}/{name}" for name in ("classifier.onnx", MANIFEST, "localiser.onnx", "vision.json")]
    recognition = two.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg(), "image/jpeg")})
    assert recognition.status_code == 201 and recognition.json()["model_version"] == version
    assert loaded == [(tmp_path / "two" / "models" / version, VERSION_FILES)]  # fetched from S3 into its cache

    assert two.put("/v1/models/active", json={"version": "base"}).json()["active"] == "base"  # rollback, either
    assert one.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())}).json()["model_version"] == "base"
    assert two.get("/v1/models").json() == one.get("/v1/models").json()


@pytest.mark.model
def test_the_real_recogniser_of_another_instance_loads_an_adapted_version_fetched_from_the_object_store(
        tmp_path, migrated_postgres_url, s3_images_url, s3_endpoint):
    from fanshot.api.dependencies import model_recogniser
    from fanshot.vision.config import VisionFile
    from fanshot.vision.recogniser import MODELS_DIR

    storage = {"database_url": migrated_postgres_url, "images_url": s3_images_url, "s3_endpoint_url": s3_endpoint}
    shipped = {name: (MODELS_DIR / name).read_bytes() for name in ("vision.json", *VisionFile.read(MODELS_DIR).files())}
    loaded: list[Path] = []

    def recognise(image, models_dir, original=None):
        loaded.append(models_dir)
        return model_recogniser(image, models_dir)
    one = app_client(tmp_path / "one", fake_adapter(0.95, files=shipped), storage=storage)
    two = app_client(tmp_path / "two", recognise=recognise, storage=storage)
    confirm_photos(one, 2)
    version = adapt(one)["version"]
    recognition = two.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg(), "image/jpeg")})
    assert recognition.status_code == 201, recognition.text
    assert recognition.json()["model_version"] == version and loaded == [tmp_path / "two" / "models" / version]
    assert folder_contents(loaded[0]) == shipped


def test_a_fresh_instance_on_the_same_data_dir_with_an_empty_cache_loads_the_version_from_the_folder_store(tmp_path):
    one = app_client(tmp_path, fake_adapter(0.95, files=VERSION_FILES))
    confirm_photos(one, 2)
    version = adapt(one)["version"]
    shutil.rmtree(tmp_path / "models")
    assert set(folder_contents(tmp_path / "images" / "models" / version)) == {*VERSION_FILES, MANIFEST}
    loaded: list[tuple[Path, dict[str, bytes]]] = []
    fresh = app_client(tmp_path, recognise=recording(loaded))
    recognition = fresh.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg(), "image/jpeg")}).json()
    assert recognition["model_version"] == version
    assert loaded == [(tmp_path / "models" / version, VERSION_FILES)]


@pytest.mark.storage
def test_an_active_version_whose_files_left_the_store_answers_503_model_files_missing_and_rolls_back(tmp_path,
                                                                                                      storage):
    client = app_client(tmp_path, fake_adapter(0.95, files=VERSION_FILES), storage=storage)
    confirm_photos(client, 2)
    version = adapt(client)["version"]
    read = client.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())}).json()
    shutil.rmtree(tmp_path / "models" / version)  # as on an instance that never fetched it
    forget(storage, tmp_path, store_name(version, "localiser.onnx"))
    for path, body in (("/v1/recognitions", {"files": {"photo": ("h.jpg", jpeg())}}),
                       (f"/v1/recognitions/{read['id']}/classify", {"json": {"box": [1, 1, 20, 20]}})):
        answer = client.post(path, **body)
        assert answer.status_code == 503, answer.text
        error, = answer.json()["errors"]
        assert error["code"] == "model_files_missing" and version in error["message"]
        assert "PUT /v1/models/active" in error["message"]
    assert client.put("/v1/models/active", json={"version": "base"}).status_code == 200
    assert client.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())}).json()["model_version"] == "base"


def test_an_image_store_that_does_not_answer_a_model_fetch_is_503_images_unavailable(tmp_path):
    client = app_client(tmp_path, fake_adapter(0.95, files=VERSION_FILES))
    confirm_photos(client, 2)
    version = adapt(client)["version"]
    shutil.rmtree(tmp_path / "models" / version)
    folder = client.app.state.store.images.store

    def down(name: str) -> bytes | None:
        raise ImagesUnavailable("the object store cannot be read: EndpointConnectionError")
    folder.get = down
    answer = client.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())})
    assert answer.status_code == 503 and answer.json()["errors"][0]["code"] == "images_unavailable"
    assert answer.headers["Retry-After"] == "30" and list((tmp_path / "models").iterdir()) == []
    del folder.get  # the store answers again
    assert client.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())}).json()["model_version"] == version


@pytest.mark.storage
def test_a_version_whose_files_cannot_be_stored_is_never_recorded(tmp_path, storage):
    client = app_client(tmp_path, fake_adapter(0.95, files=VERSION_FILES), storage=storage)
    confirm_photos(client, 2)
    store = client.app.state.store.images.store
    storing = store.put

    def full(name: str, data: bytes) -> None:
        if name.startswith("models/"):
            raise ImagesUnavailable("the object store cannot be written")
        storing(name, data)
    store.put = full
    job = adapt(client)
    assert job["state"] == "failed" and "cannot be written" in job["message"]
    assert client.get("/v1/models").json()["versions"] == [client.get("/v1/models").json()["versions"][0]]
    assert list((tmp_path / "models").iterdir()) == []


def test_model_versions_fetch_nothing_to_list_or_to_tell_the_active_id(tmp_path):
    client = app_client(tmp_path, fake_adapter(0.95, files=VERSION_FILES))
    confirm_photos(client, 2)
    version = adapt(client)["version"]
    shutil.rmtree(tmp_path / "models" / version)
    versions: ModelVersions = client.app.state.model_versions
    assert versions.active_id() == version and client.get("/v1/models").json()["active"] == version
    assert list((tmp_path / "models").iterdir()) == []


# The page's own copy of the localiser (issue 39): GET /v1/models/{version}/files/{name}.

PAGE_VERSION_FILES = {"vision.json": json.dumps({"localiser": {"file": "localiser.onnx", "imgsz": 416,
                                                               "classes": ["face"]},
                                                 "classifier": {"file": "classifier.onnx", "imgsz": 64,
                                                                "classes": ["1m"]}}).encode(),
                      "localiser.onnx": b"L" * 5000, "classifier.onnx": b"C" * 3000, "notes.txt": b"not for the page"}


def adapted_client(tmp_path: Path):
    client = app_client(tmp_path, fake_adapter(0.95, files=PAGE_VERSION_FILES))
    confirm_photos(client, 2)
    return client, adapt(client)["version"]


def test_an_adapted_versions_page_files_are_served_once_and_then_revalidated_by_etag(tmp_path):
    client, version = adapted_client(tmp_path)
    shutil.rmtree(tmp_path / "models" / version)  # fetched from the image store for the page as for a reading
    for name in ("vision.json", "localiser.onnx"):
        answer = client.get(f"/v1/models/{version}/files/{name}")
        assert answer.status_code == 200 and answer.content == PAGE_VERSION_FILES[name]
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
        tag = answer.headers["etag"]
        again = client.get(f"/v1/models/{version}/files/{name}", headers={"If-None-Match": f'"other", {tag}'})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
        assert client.get(f"/v1/models/{version}/files/{name}", headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.get(f"/v1/models/{version}/files/vision.json").headers["etag"] != tag  # per file's bytes


def test_the_shipped_models_are_served_under_base_revalidated_on_each_load(tmp_path):
    from fanshot.vision.recogniser import MODELS_DIR

    client = app_client(tmp_path)
    answer = client.get("/v1/models/base/files/localiser.onnx")
    assert answer.status_code == 200 and answer.content == (MODELS_DIR / "localiser.onnx").read_bytes()
    assert answer.headers["cache-control"] == "no-cache"  # a release of the app changes them at this address
    again = client.get("/v1/models/base/files/localiser.onnx", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304
    assert client.get("/v1/models/base/files/vision.json").json()["localiser"]["file"] == "localiser.onnx"


def test_active_redirects_to_the_active_versions_files_without_being_cached(tmp_path):
    client, version = adapted_client(tmp_path)
    answer = client.get("/v1/models/active/files/localiser.onnx", follow_redirects=False)
    assert answer.status_code == 307 and answer.headers["location"] == f"/v1/models/{version}/files/localiser.onnx"
    assert answer.headers["cache-control"] == "no-store"
    assert client.get("/v1/models/active/files/localiser.onnx").content == PAGE_VERSION_FILES["localiser.onnx"]
    client.put("/v1/models/active", json={"version": "base"})
    assert client.get("/v1/models/active/files/vision.json",
                      follow_redirects=False).headers["location"] == "/v1/models/base/files/vision.json"


@pytest.mark.parametrize(("path", "named"), [("/v1/models/nope/files/vision.json", "'nope'"),
                                             ("/v1/models/base/files/figures.json", "'figures.json'"),
                                             ("/v1/models/base/files/MODEL_CARD.md", "'MODEL_CARD.md'"),
                                             ("/v1/models/base/files/..%2Fpyproject.toml", ""),  # no such route
                                             ("/v1/models/ADAPTED/files/notes.txt", "'notes.txt'")])
def test_a_file_the_page_may_not_fetch_is_a_404_naming_it(tmp_path, path, named):
    client, version = adapted_client(tmp_path)
    answer = client.get(path.replace("ADAPTED", version))
    assert answer.status_code == 404, answer.text
    error, = answer.json()["errors"]
    assert error["code"] == "not_found" and named in error["message"]


def test_a_version_whose_files_left_the_store_is_a_503_naming_it(tmp_path):
    client, version = adapted_client(tmp_path)
    shutil.rmtree(tmp_path / "models" / version)
    (tmp_path / "images" / store_name(version, "localiser.onnx")).unlink()
    answer = client.get(f"/v1/models/{version}/files/localiser.onnx")
    assert answer.status_code == 503 and answer.json()["errors"][0]["code"] == "model_files_missing"
    assert version in answer.json()["errors"][0]["message"]
