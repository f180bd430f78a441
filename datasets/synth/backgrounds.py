"""Photographs as table backgrounds for `fanshot synth --randomise`, fetched the way art.py fetches tile art.

The photos come from the Debian package lomiri-wallpapers-16.04: fifteen photographs (landscapes, plants,
a tree trunk, a concrete floor, brushes, a room), each CC-BY-4.0, CC-BY-SA-4.0 or CC0-1.0 by its author as the
package's machine-readable copyright file says. `fanshot art` unpacks the package into the art cache and writes

    backgrounds/<name>.jpg     each photo, its longer side at most MAX_SIDE px
    backgrounds/source.json    package, and per photo its file, licence and copyright line
    backgrounds/copyright      the package's copyright file

A rendered photo lays a random crop of one of them on the table, as if the tiles lay on a printed mat.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.synth.art import unpack

PACKAGE = "lomiri-wallpapers-16.04"
PHOTOS_DIR = "usr/share/backgrounds"
MAX_SIDE = 1600


def photo_licences(copyright_text: str) -> dict[str, dict[str, str]]:
    """Per file name, its licence and copyright line, from a machine-readable (DEP-5) copyright file."""
    licences = {}
    for stanza in re.split(r"\n\s*\n", copyright_text):
        fields = dict(re.findall(r"^(Files|Copyright|License):[ \t]*(.*)$", stanza, re.MULTILINE))
        if "Files" in fields and "License" in fields:
            for pattern in fields["Files"].split():
                licences[Path(pattern).name] = {"licence": fields["License"], "copyright": fields.get("Copyright", "")}
    return licences


def build_backgrounds(cache: Path) -> Path:
    """Fetch and unpack the photo package into the cache, write its photos (reduced) and their licences to
    cache/backgrounds; that folder. A photo whose licence the copyright file does not state is left out."""
    root = unpack(PACKAGE, cache)
    copyright_file = root / "usr/share/doc" / PACKAGE / "copyright"
    if not copyright_file.is_file():
        raise DatasetError(f"{PACKAGE}: no copyright file, so no licence for its photos")
    licences = photo_licences(copyright_file.read_text(encoding="utf-8"))
    folder = cache / "backgrounds"
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for path in sorted((root / PHOTOS_DIR).glob("*.jpg")):
        if path.name not in licences:
            continue
        image = Image.open(path).convert("RGB")
        image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
        image.save(folder / path.name, quality=92)
        photos.append({"file": path.name, **licences[path.name]})
    if not photos:
        raise DatasetError(f"{PACKAGE}: no licensed photographs in {root / PHOTOS_DIR}")
    shutil.copyfile(copyright_file, folder / "copyright")
    meta = {"package": PACKAGE, "photos": photos}
    (folder / "source.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return folder


def load_backgrounds(cache: Path | None) -> dict[str, np.ndarray]:
    """The cached background photos (RGB uint8) listed in cache/backgrounds/source.json, by file name; none
    without it."""
    meta = cache / "backgrounds" / "source.json" if cache else None
    if meta is None or not meta.is_file():
        return {}
    files = [photo["file"] for photo in json.loads(meta.read_text(encoding="utf-8"))["photos"]]
    return {name: np.array(Image.open(meta.parent / name).convert("RGB")) for name in files}


def photo_texture(photo: np.ndarray, rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A random crop of `photo` (a third of it to all of it, either way round), stretched to `shape` (height,
    width): an RGB float32 table surface."""
    h, w = photo.shape[:2]
    if rng.random() < 0.5:
        photo = photo[:, ::-1]
    aspect = shape[1] / shape[0]
    side = rng.uniform(0.35, 1.0)
    cw = min(w, round(side * min(w, h * aspect)))
    ch = min(h, max(1, round(cw / aspect)))
    x, y = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
    crop = photo[y:y + ch, x:x + cw]
    return cv2.resize(crop, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR).astype(np.float32)
