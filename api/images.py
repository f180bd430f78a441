"""Where the uploaded photos are kept: a folder (the embedded default, or a volume every instance mounts) or an
S3-compatible object store (`s3://BUCKET/PREFIX`; boto3 reads the usual AWS_* variables, and `--s3-endpoint-url`
points it at MinIO or any other S3-compatible server). A photo is stored durably before its record is committed:
a folder writes, fsyncs and renames; S3 acknowledges a PUT only once the object is stored."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse

from fanshot.api.extras import import_scale_extra


class ImageStore(Protocol):
    def put(self, name: str, data: bytes) -> None: ...

    def get(self, name: str) -> bytes | None:
        """The photo's bytes; None if there is no such photo."""

    def check(self) -> None:
        """Raise unless photos can be stored and read now (GET /readyz)."""


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
        write_atomic(self.root / name, data)

    def get(self, name: str) -> bytes | None:
        try:
            return (self.root / name).read_bytes()
        except FileNotFoundError:
            return None

    def check(self) -> None:
        if not (self.root.is_dir() and os.access(self.root, os.W_OK | os.X_OK)):
            raise OSError(f"{self.root} is not a writable folder")


class S3Images:
    def __init__(self, bucket: str, prefix: str, endpoint_url: str | None = None) -> None:
        boto3 = import_scale_extra("boto3", "an s3:// images URL (--images-url)")
        self.bucket, self.prefix = bucket, prefix.strip("/")
        # boto3 clients are thread-safe; routes run on many threads
        self.client = boto3.client("s3", endpoint_url=endpoint_url)

    def key(self, name: str) -> str:
        return f"{self.prefix}/{name}" if self.prefix else name

    def put(self, name: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self.key(name), Body=data)

    def get(self, name: str) -> bytes | None:
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self.key(name))
        except self.client.exceptions.NoSuchKey:
            return None
        return answer["Body"].read()

    def check(self) -> None:
        self.client.head_bucket(Bucket=self.bucket)


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
