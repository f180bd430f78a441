"""`fanshot synth`: rendered photos of legal winning hands as a YOLO folder, plus optional classifier crops.

    OUT/data.yaml
    OUT/images/synth_000000.jpg     the photo (JPEG quality varies: its artefacts are part of the photo)
    OUT/images/synth_000000.json    sidecar: the score request, the art source, the face-up tiles, the backs
    OUT/labels/synth_000000.txt     YOLO boxes in the 43 detector classes
    CROPS/<code>/synth_000000_00.png   each tile cut out with a detector-like jittered box (ImageFolder)

Image i depends only on (seed, i): its request (datasets.synth.hands's i-th of the corpus, or for a share of
images a later draw that has a concealed kong, so that face-down backs are common enough to learn) and its
randomness np.random.default_rng([seed, i]); so images render in parallel and any one can be re-rendered alone.
"""

from __future__ import annotations

import json
import multiprocessing
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.progress import progress
from fanshot.datasets.synth.art import SOURCE_NAMES, SOURCES
from fanshot.datasets.synth.backgrounds import load_backgrounds
from fanshot.datasets.synth.drawn import drawn_faces
from fanshot.datasets.synth.faces import FaceSet, load_face_sets
from fanshot.datasets.synth.hands import RULESETS, corpus, random_request
from fanshot.datasets.synth.layout import Placed, place_hand
from fanshot.datasets.synth.looks import draw_look, draw_scatter_look
from fanshot.datasets.synth.scene import Look, Scene, render
from fanshot.datasets.synth.variants import ink_variants, randomise_faces
from fanshot.datasets.yolo import Box, box_from_corners, format_data_yaml, format_labels
from fanshot.scoring.tiles import BACK, to_string

SYSTEM_CJK_FONTS = ("/usr/share/fonts/truetype/wqy", "/usr/share/fonts/opentype/noto",
                    "/usr/share/fonts/truetype/arphic")


@dataclass(frozen=True)
class Example:
    """One rendered photo and everything written about it."""

    index: int
    seed: int
    scene: Scene
    source: str
    request: dict[str, Any]
    boxes: tuple[Box, ...]
    variants: dict[str, str]  # what domain randomisation varied (empty without it)


def has_concealed_kong(request: dict[str, Any]) -> bool:
    return any(meld.get("concealed") for meld in request["hand"].get("melds", []))


def hand_requests(n: int, seed: int, kong_share: float = 0.3, tries: int = 100) -> list[dict[str, Any]]:
    """The corpus's n requests, a `kong_share` of them replaced by a seeded draw with a concealed kong."""
    requests = corpus(n, seed)
    for i, request in enumerate(requests):
        rng = random.Random(f"{seed}:{i}:kong")
        if has_concealed_kong(request) or rng.random() >= kong_share:
            continue
        draws = (random_request(rng, RULESETS[i % len(RULESETS)]) for _ in range(tries))
        requests[i] = next((draw for draw in draws if has_concealed_kong(draw)), request)
    return requests


def face_sets(art_cache: Path | None, art: Sequence[str] = ()) -> dict[str, FaceSet]:
    """The cached face sets named in `art`, or (none named) those of the training sources (SOURCE_NAMES), or (no
    cache) the drawn faces with any CJK font on the machine."""
    cached = load_face_sets(art_cache / "faces") if art_cache else {}
    if art:
        missing = sorted(set(art) - set(cached))
        if missing:
            raise DatasetError(f"art {missing} not in the cache {art_cache}: run `fanshot art --source NAME` first")
        return {name: cached[name] for name in art}
    sets = {name: faces for name, faces in cached.items() if name in SOURCE_NAMES}
    return sets or {"drawn": drawn_faces(_cjk_font())}


def _cjk_font() -> Path | None:
    for folder in map(Path, SYSTEM_CJK_FONTS):
        fonts = sorted(folder.glob("*.tt[cf]")) + sorted(folder.glob("*CJK*.otf")) if folder.is_dir() else []
        if fonts:
            return fonts[0]
    return None


@dataclass(frozen=True)
class Extras:
    """What domain randomisation draws on besides the face sets: background photographs (by name) and a
    Japanese-style drawn face set."""

    photos: Mapping[str, np.ndarray]
    japanese: FaceSet
    scatter: bool = False  # the tiles scattered and standing, seen from low (looks.draw_scatter_look)
    ink: bool = False  # the faces' ink varied too (variants.ink_variants)


def randomisation_extras(art_cache: Path | None, scatter: bool = False, ink: bool = False) -> Extras:
    """The cache's background photos and the Japanese-style faces, drawn with the cache's or the machine's CJK
    font; with `scatter`, for scattered tiles; with `ink`, the faces' ink varied."""
    font = next((path for path in (art_cache / "pkgs" / s.package / s.path for s in SOURCES if s.name == "drawn")
                 if path.is_file()), None) if art_cache else None
    return Extras(load_backgrounds(art_cache), drawn_faces(font or _cjk_font(), "japanese"), scatter, ink)


def randomised(placed: list[Placed], sets: Mapping[str, FaceSet], source: str, seed: int, index: int,
               extras: Extras) -> tuple[list[Placed], FaceSet, Look, dict[str, str]]:
    """The tiles, faces and Look of a domain-randomised photo, and what was varied; drawn from their own stream
    (seed, index, 2): see looks.draw_look and variants.randomise_faces; the ink variants from (seed, index, 3)."""
    rng = np.random.default_rng([seed, index, 2])
    placed, look, drawn = (draw_scatter_look if extras.scatter else draw_look)(placed, rng, extras.photos)
    others = [faces for name, faces in sorted(sets.items()) if name != source]
    faces, taken = randomise_faces(sets[source], rng, others, extras.japanese)
    if extras.ink:
        faces, inked = ink_variants(faces, np.random.default_rng([seed, index, 3]))
        taken = {**taken, **inked}
    return placed, faces, look, {**drawn, **taken}


def render_example(index: int, seed: int, request: dict[str, Any], sets: Mapping[str, FaceSet],
                   extras: Extras | None = None) -> Example:
    """Photo `index` of the run with `seed`: a scene of `request`'s hand in one art source, and its labels;
    with `extras`, domain-randomised (see `randomised`; the same hand and art otherwise)."""
    rng = np.random.default_rng([seed, index])
    source = sorted(sets)[rng.integers(len(sets))]
    placed, faces, variants = place_hand(request["hand"], rng), sets[source], {}
    if extras is not None:
        placed, faces, look, variants = randomised(placed, sets, source, seed, index, extras)
        scene = render(placed, faces, rng, look)
        variants.update(distractors=",".join(scene.distractors), tile_width=f"{shown_width(scene):.3f}")
    else:
        scene = render(placed, faces, rng)
    h, w = scene.image.shape[:2]
    boxes = tuple(box_from_corners(CLASS_INDEX[tile.code], np.divide(tile.box, [w, h, w, h]), f"synth {index}")
                  for tile in scene.tiles)
    return Example(index, seed, scene, source, request, boxes, variants)


def shown_width(scene: Scene) -> float:
    """The median tile's width in the photo (its face's top edge) as a share of the frame's shorter side."""
    widths = [np.linalg.norm(tile.top[1] - tile.top[0]) for tile in scene.tiles]
    return float(np.median(widths)) / min(scene.image.shape[:2])


def jitter_box(box: Sequence[float], rng: np.random.Generator, size: tuple[int, int],
               scale: float = 0.06, shift: float = 0.04) -> tuple[int, int, int, int]:
    """A box grown or shrunk by up to `scale` and moved by up to `shift` of its size, like a detector's
    boxes; clipped to the image (width, height)."""
    x1, y1, x2, y2 = box
    bw, bh = (x2 - x1) * rng.uniform(1 - scale, 1 + scale), (y2 - y1) * rng.uniform(1 - scale, 1 + scale)
    cx = (x1 + x2) / 2 + (x2 - x1) * rng.uniform(-shift, shift)
    cy = (y1 + y2) / 2 + (y2 - y1) * rng.uniform(-shift, shift)
    return (max(0, round(cx - bw / 2)), max(0, round(cy - bh / 2)),
            min(size[0], round(cx + bw / 2)), min(size[1], round(cy + bh / 2)))


def stem(index: int) -> str:
    return f"synth_{index:06d}"


def sidecar(example: Example) -> dict[str, Any]:
    codes = [tile.code for tile in example.scene.tiles]
    extra = {"variants": example.variants} if example.variants else {}
    return {"request": example.request, "art": example.source,
            "tiles": to_string(code for code in codes if code != BACK), "backs": codes.count(BACK), **extra}


def write_example(example: Example, out: Path, crops: Path | None) -> None:
    name = stem(example.index)
    image = cv2.cvtColor(example.scene.image, cv2.COLOR_RGB2BGR)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, example.scene.jpeg_quality])
    if not ok:
        raise DatasetError(f"{name}: JPEG encoding failed")
    (out / "images" / f"{name}.jpg").write_bytes(jpeg.tobytes())
    (out / "images" / f"{name}.json").write_text(json.dumps(sidecar(example)) + "\n", encoding="utf-8")
    (out / "labels" / f"{name}.txt").write_text(format_labels(example.boxes), encoding="ascii")
    if crops is None:
        return
    photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)  # crops carry the same artefacts as the photo
    rng = np.random.default_rng([example.seed, example.index, 1])
    h, w = photo.shape[:2]
    for k, tile in enumerate(example.scene.tiles):
        x1, y1, x2, y2 = jitter_box(tile.box, rng, (w, h))
        folder = crops / tile.code
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / f"{name}_{k:02d}.png"), photo[y1:y2, x1:x2])


_worker: dict[str, Any] = {}


def _init(sets: dict[str, FaceSet], seed: int, out: Path, crops: Path | None, extras: Extras | None) -> None:
    _worker.update(sets=sets, seed=seed, out=out, crops=crops, extras=extras)


def _job(item: tuple[int, dict[str, Any]]) -> int:
    example = render_example(item[0], _worker["seed"], item[1], _worker["sets"], _worker["extras"])
    write_example(example, _worker["out"], _worker["crops"])
    return len(example.boxes)


def synth_dataset(out: Path, n: int, seed: int, art_cache: Path | None = None, crops: Path | None = None,
                  workers: int = 2, art: Sequence[str] = (), randomise: bool = False, scatter: bool = False,
                  ink: bool = False) -> int:
    """Render `n` photos into the YOLO folder `out` (and crops) in the art `face_sets` picks, domain-randomised
    with `randomise`, the tiles scattered and standing with `scatter` (which randomises too), the faces' ink
    varied as well with `ink` (which randomises too); the number of labelled tiles."""
    sets = face_sets(art_cache, art)
    for folder in (out / "images", out / "labels"):
        folder.mkdir(parents=True, exist_ok=True)
    (out / "data.yaml").write_text(format_data_yaml(CLASSES, [""]), encoding="utf-8")
    jobs = list(enumerate(hand_requests(n, seed)))
    extras = randomisation_extras(art_cache, scatter, ink) if randomise or scatter or ink else None
    args = (sets, seed, out, crops, extras)
    if workers <= 1:
        _init(*args)
        return sum(progress(map(_job, jobs), f"synth {out.name}", len(jobs)))
    with multiprocessing.get_context("fork").Pool(workers, _init, args) as pool:
        return sum(progress(pool.imap_unordered(_job, jobs, chunksize=4), f"synth {out.name}", len(jobs)))
