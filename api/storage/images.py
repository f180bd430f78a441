"""Where the uploaded photos are kept: a folder (the embedded default, or a volume every instance mounts) or an
S3-compatible object store (`s3://BUCKET/PREFIX`; boto3 reads the usual AWS_* variables, and `--s3-endpoint-url`
points it at MinIO or any other S3-compatible server). A photo is stored durably before its record is committed:
a folder writes, fsyncs and renames; S3 acknowledges a PUT only once the object is stored."""

from __future__ import annotations

import os
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol, TypeVar
from urllib.parse import urlparse

from fanshot.api.storage.extras import import_scale_extra

# Photo reads and writes run in a few threads of their own, each waited on for at most STORE_SECONDS, with at most
# WAITING queued or running: a hung or slow store then holds those threads only, never the pool every route runs
# in (issue 36: 45 hung reads had taken all 40 threads, and no route answered), nor a recognition slot (issue 53: a
# hung store made each upload wait 18 s in turn, holding the slot).
STORE_THREADS = 8
WAITING = 16
STORE_SECONDS = 10.0
# An object store that does not answer fails a request in seconds, not never (botocore's defaults: 60 s a read):
# two attempts end within about STORE_SECONDS, so a thread is not held long past its caller's wait.
S3_CONNECT_SECONDS, S3_READ_SECONDS, S3_ATTEMPTS = 3, 4, 2
READY_PROBE = ".ready-probe"  # what a readiness check writes, to know that photos can be stored


T = TypeVar("T")


class ImagesUnavailable(Exception):
    """The image store cannot answer now: too many reads wait on it already, or it did not answer in time."""


class PhotoNotStored(ImagesUnavailable):
    """The image store did not take a photo: it refused it, did not answer in time, or too many writes wait on it
    (503 storage_unavailable)."""


class ImageStore(Protocol):
    def put(self, name: str, data: bytes) -> None: ...

    def get(self, name: str) -> bytes | None:
        """The photo's bytes; None if there is no such photo."""

    def check(self) -> None:
        """Raise unless photos can be stored now (GET /readyz, and `fanshot serve` before it starts)."""


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves either the old file or the whole new one."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)  # a failed write (a full disk) leaves no part-written file behind
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # makes the rename itself durable
    finally:
        os.close(directory)


class FolderImages:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def put(self, name: str, data: bytes) -> None:
        (self.root / name).parent.mkdir(parents=True, exist_ok=True)  # a model version's files: models/<id>/...
        write_atomic(self.root / name, data)

    def get(self, name: str) -> bytes | None:
        try:
            return (self.root / name).read_bytes()
        except FileNotFoundError:
            return None

    def check(self) -> None:
        # a real write: a full disk or a read-only mount passes an access() test, then fails every upload
        probe = self.root / f"{READY_PROBE}-{uuid.uuid4().hex}"  # its own: checks may run side by side
        write_atomic(probe, b"ready")
        probe.unlink()


class S3Images:
    def __init__(self, bucket: str, prefix: str, endpoint_url: str | None = None) -> None:
        boto3 = import_scale_extra("boto3", "an s3:// images URL (--images-url)")
        self.bucket, self.prefix = bucket, prefix.strip("/")
        from botocore.config import Config

        # boto3 clients are thread-safe; routes run on many threads
        self.client = boto3.client("s3", endpoint_url=endpoint_url, config=Config(
            connect_timeout=S3_CONNECT_SECONDS, read_timeout=S3_READ_SECONDS,
            retries={"total_max_attempts": S3_ATTEMPTS, "mode": "standard"}))

    def key(self, name: str) -> str:
        return f"{self.prefix}/{name}" if self.prefix else name

    def put(self, name: str, data: bytes) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            self.client.put_object(Bucket=self.bucket, Key=self.key(name), Body=data)
        except (BotoCoreError, ClientError) as error:  # no connection, no answer in time, or a refusal
            raise PhotoNotStored(f"the object store did not store {name}: {type(error).__name__}") from error

    def get(self, name: str) -> bytes | None:
        from botocore.exceptions import BotoCoreError

        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self.key(name))
            return answer["Body"].read()
        except self.client.exceptions.NoSuchKey:
            return None
        except BotoCoreError as error:  # no connection, or no answer in time
            raise ImagesUnavailable(f"the object store cannot be read: {type(error).__name__}") from error

    def check(self) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self.key(READY_PROBE), Body=b"ready")


class PhotoReads:
    """An image store whose reads, writes and checks run in a bulkhead: threads of their own (`threads`), at most
    `waiting` calls queued or running, each waited on for `seconds`. Beyond that, or after it, `ImagesUnavailable`
    (503 images_unavailable), `PhotoNotStored` for a write (503 storage_unavailable); routes that need no photo
    keep answering."""

    def __init__(self, store: ImageStore, threads: int = STORE_THREADS, waiting: int = WAITING,
                 seconds: float = STORE_SECONDS) -> None:
        self.store, self.seconds = store, seconds
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="photo-store")
        weakref.finalize(self, self.pool.shutdown, wait=False)  # its idle threads end with it
        self.places = threading.BoundedSemaphore(waiting)

    def put(self, name: str, data: bytes) -> None:
        # A write waits for a place, within its time: uploads finish in bursts, and a stored photo is the point
        self._bounded(PhotoNotStored, self.store.put, name, data, patient=True)

    def get(self, name: str) -> bytes | None:
        return self._bounded(ImagesUnavailable, self.store.get, name)

    def check(self) -> None:
        self._bounded(ImagesUnavailable, self.store.check)

    def _bounded(self, fault: type[ImagesUnavailable], call: Callable[..., T], *args: object,
                 patient: bool = False) -> T:
        deadline = time.monotonic() + self.seconds
        if not self.places.acquire(timeout=self.seconds if patient else 0):
            raise fault("too many photo reads and writes are waiting on the image store")
        try:
            future = self.pool.submit(call, *args)
        except BaseException:
            self.places.release()
            raise
        future.add_done_callback(lambda _: self.places.release())  # when the store answers, however late
        try:
            return future.result(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            raise fault(f"the image store did not answer within {self.seconds:g} s") from None


def open_images(url: str, s3_endpoint_url: str | None = None) -> ImageStore:
    """A folder path (or file:// URL) or s3://BUCKET/PREFIX."""
    parsed = urlparse(url)
    if parsed.scheme == "s3":
        if not parsed.netloc:
            raise ValueError(f"images URL {url!r} names no bucket: use s3://BUCKET/PREFIX")
        return S3Images(parsed.netloc, parsed.path, s3_endpoint_url)
    if parsed.scheme in ("", "file"):
        return FolderImages(Path(parsed.path if parsed.scheme else url))
    raise ValueError(f"unsupported images URL {url!r}: use a folder or s3://BUCKET/PREFIX")
