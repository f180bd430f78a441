"""An adapted model version's files in the image store (images.py), where every instance finds them: published
under `models/<id>/` before the version is recorded, and fetched by an instance that lacks them into its local
cache, `DATA_DIR/models/<id>`, which the recogniser loads (docs/API.md "Adapting to a user's tile set").

A version's manifest, `models/<id>/files.json` (each file's name and SHA-256), is stored after its files: where it
is, every file is. A fetch writes into a hidden folder of its own beside the cache and renames it into place whole,
so a half-fetched folder is never loaded; a process fetches one version at a time, and two processes that fetch
the same one at once both end with the same complete folder.

The page fetches a version's `vision.json` and the models it names (`page_file`) to run the localiser itself
(issue 39's live viewfinder), each with a content ETag (`etag`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
from functools import lru_cache
from pathlib import Path, PurePosixPath

from fanshot.api.storage.images import ImageStore, write_atomic
from fanshot.vision.config import VISION_JSON, VisionFile

PREFIX = "models"
MANIFEST = "files.json"


class ModelFilesMissing(Exception):
    """A model version's files are not (or not all) in the image store."""

    def __init__(self, version_id: str, message: str) -> None:
        super().__init__(message)
        self.version_id = version_id


def store_name(version_id: str, name: str) -> str:
    """A version's file's name in the image store."""
    return f"{PREFIX}/{version_id}/{name}"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def folder_files(folder: Path) -> list[str]:
    """The files of a folder, its subfolders' included, as relative POSIX names."""
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())


def safe_name(name: str) -> bool:
    """Whether a manifest's file name stays inside the version's folder."""
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts


def page_file(folder: Path, name: str) -> Path | None:
    """A models folder's file that the page may fetch: vision.json and the models it names; None for any other."""
    if name == VISION_JSON:
        return folder / VISION_JSON
    if name in VisionFile.read(folder).files() and safe_name(name):
        return folder / name
    return None


def etag(path: Path) -> str:
    """A strong ETag of a file's bytes, hashed once per file version (path, size, modification time)."""
    stat = path.stat()
    return _content_tag(str(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=64)  # a few versions' few files
def _content_tag(path: str, size: int, mtime_ns: int) -> str:
    return f'"{digest(Path(path).read_bytes())[:32]}"'


class ModelFiles:
    def __init__(self, images: ImageStore, cache: Path) -> None:
        self.images, self.cache = images, cache
        cache.mkdir(parents=True, exist_ok=True)
        self._fetching = threading.Lock()

    def staging(self, version_id: str) -> Path:
        """Where to write a new version's files before they are published (hidden: never taken for a version)."""
        return self.cache / f".{version_id}.new"

    def publish(self, version_id: str, folder: Path) -> None:
        """Store every file of `folder` (a `staging` folder) as version `version_id`'s, then its manifest; then
        keep the folder as this instance's cached copy."""
        manifest = {}
        for name in folder_files(folder):
            data = (folder / name).read_bytes()
            self.images.put(store_name(version_id, name), data)
            manifest[name] = digest(data)
        self.images.put(store_name(version_id, MANIFEST), json.dumps({"files": manifest}, indent=1).encode())
        os.rename(folder, self.cache / version_id)

    def folder(self, version_id: str) -> Path:
        """The local folder of version `version_id`'s files, fetched from the image store unless cached; raises
        ModelFilesMissing, or ImagesUnavailable when the store does not answer."""
        local = self.cache / version_id
        if local.is_dir():
            return local
        with self._fetching:  # one fetch at a time: requests that want the same version wait for the first's
            if not local.is_dir():
                self._fetch(version_id, local)
        return local

    def _fetch(self, version_id: str, local: Path) -> None:
        listed = self.images.get(store_name(version_id, MANIFEST))
        if listed is None:
            raise ModelFilesMissing(version_id, f"model version {version_id}'s files are not in the image store (no "
                                    f"{store_name(version_id, MANIFEST)})")
        files = json.loads(listed)["files"]
        staging = Path(tempfile.mkdtemp(prefix=f".{version_id}-", dir=self.cache))  # hidden: never a version
        try:
            for name, expected in files.items():
                data = self.images.get(store_name(version_id, name)) if safe_name(name) else None
                if data is None or digest(data) != expected:
                    raise ModelFilesMissing(version_id, f"model version {version_id}'s file "
                                            f"{store_name(version_id, name)} is missing from the image store, or "
                                            "is not the file its manifest names")
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                write_atomic(staging / name, data)
            try:
                os.rename(staging, local)
            except OSError:
                if not local.is_dir():  # else another process renamed its own complete copy into place first
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
