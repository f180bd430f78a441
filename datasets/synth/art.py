"""Art sources for tile faces, their licences, and the cache `fanshot art` fills from Debian packages.

Cache layout (default ~/.cache/fanshot/art, or $FANSHOT_ART_CACHE; never committed):
    debs/<package>_*.deb     from `apt-get download`
    pkgs/<package>/...       unpacked with `dpkg-deb -x`
    faces/<source>/<code>.png + source.json (package, file, licence, credit)

Mapping pitfalls, each proved by a contact sheet (`fanshot art --contact-sheet OUT.png`):
- kmahjongg: `ROD_n` is DOTS; `WIND_1..4` is N S E W; `DRAGON_1..3` is white, green, red.
- GNOME Mahjongg sheets: dots, winds N W S E, dragons red green, characters, bamboo, a flower slot, white,
  a season slot, blank; what sits in the flower and season slots differs per theme.
- Unicode U+1F000..: winds E S W N, dragons RED GREEN WHITE, characters, BAMBOO before CIRCLES, flowers
  plum orchid BAMBOO chrysanthemum, then seasons.
- xmahjongg real.gif: a 9x5 grid of scanned tiles. dorothys.gif, dorwhite.gif, gnome.gif, gnome2.gif: 21x4 grids,
  the first two rows one set, the last two the same art on another face colour; their cells run in different suit
  orders (see XMAHJONGG_ORDERS). gnome.gif's flower slots hold generic flower words and its season slots repeat the
  winds, gnome2.gif's hold bare numbers: neither names a flower, so those sets borrow their flowers (`borrow`).
Excluded for not showing Chinese tile faces: kmahjongg classic (dragons are creatures), jade (light glyphs for a
dark body), alphabet, egypt; GNOME edu_kang_xi. Not art: xmahjongg small.gif, thick.gif, thin.gif (a blank
tile body each). No source carries non-commercial terms: PyPI's pymdownx-mahjong (0.2.2) ships tile SVGs under
CC-BY-NC-4.0, so it is left out; pymdown-extensions (13.1) ships no tile art, only emoji names pointing to a CDN.
The drawn-* sources are our drawing (drawn.py) in Debian's CJK fonts, each font's licence recorded.

Adaptation-only sources (`ADAPTATION_SOURCES`): art no shipped model is trained on, to measure `fanshot adapt` on
a set the base never saw. kmahjongg classic (Western corner indices, dragons drawn as creatures) is one: a user's
set may be that far from ours. `fanshot art` builds them only when named (`--source`), and `fanshot synth` renders
them only when named (`--art`), so they never reach training renders by default.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
from PIL import Image, ImageFont

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.synth.drawn import drawn_faces
from fanshot.datasets.synth.faces import (
    BACK_COLOURS,
    FACE_CODES,
    FaceSet,
    back_face,
    contact_sheet,
    fit_face,
    glyph_face,
    grid_faces,
    load_face_sets,
    over,
    save_face_set,
)

DEFAULT_CACHE = Path(os.environ.get("FANSHOT_ART_CACHE", Path.home() / ".cache" / "fanshot" / "art"))

M = [f"{n}m" for n in range(1, 10)]
P = [f"{n}p" for n in range(1, 10)]
S = [f"{n}s" for n in range(1, 10)]

KMAHJONGG_IDS = {
    **{f"{n}m": f"CHARACTER_{n}" for n in range(1, 10)},
    **{f"{n}p": f"ROD_{n}" for n in range(1, 10)},
    **{f"{n}s": f"BAMBOO_{n}" for n in range(1, 10)},
    "1z": "WIND_3", "2z": "WIND_2", "3z": "WIND_4", "4z": "WIND_1",  # WIND_1..4 = N S E W
    "5z": "DRAGON_1", "6z": "DRAGON_2", "7z": "DRAGON_3",  # white, green, red
    **{f"{n}f": f"FLOWER_{n}" for n in range(1, 5)},  # plum, orchid, chrysanthemum, bamboo
    **{f"{n + 4}f": f"SEASON_{n}" for n in range(1, 5)},  # spring .. winter
}


GNOME_CELLS = 43  # a GNOME Mahjongg theme sheet's first row (the second is the same tiles highlighted)


def gnome_order(flower_slot: Sequence[str], season_slot: Sequence[str]) -> list[str | None]:
    """The 43 cells of a GNOME Mahjongg theme sheet, left to right (the last one blank)."""
    return [*P, "4z", "3z", "2z", "1z", "7z", "6z", *M, *S, *flower_slot, "5z", *season_slot, None]


REAL_GIF_ORDER = [*P, *S, *M, "5f", "6f", "7f", "8f", "4z", "2z", "1z", "3z", None,
                  "1f", "2f", "3f", "4f", "6z", "5z", "7z", None, None]
UNICODE_TILES = {  # code -> code point in the Mahjong Tiles block
    "1z": 0x1F000, "2z": 0x1F001, "3z": 0x1F002, "4z": 0x1F003, "7z": 0x1F004, "6z": 0x1F005, "5z": 0x1F006,
    **{code: 0x1F007 + i for i, code in enumerate(M)},
    **{code: 0x1F010 + i for i, code in enumerate(S)},
    **{code: 0x1F019 + i for i, code in enumerate(P)},
    "1f": 0x1F022, "2f": 0x1F023, "4f": 0x1F024, "3f": 0x1F025,
    **{f"{n}f": 0x1F021 + n for n in range(5, 9)},
}


def kmahjongg_faces(svg: Path) -> FaceSet:
    """Each face element rendered alone by rsvg-convert, cropped to its face rectangle, over ivory."""
    faces = {}
    for code, element in KMAHJONGG_IDS.items():
        rgba = _rsvg(svg, "-i", element, "-z", "2")
        ys, xs = np.nonzero(rgba[..., 3])
        faces[code] = fit_face(over(rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]))
    return faces


HONOURS_NWSE = ["4z", "3z", "2z", "1z", "7z", "6z"]  # North West South East, red, green
NO_FLOWERS = [None] * 4
XMAHJONGG_ORDERS = {  # the first two rows of each 21x4 sheet
    "dorothys": [*P, *HONOURS_NWSE, *M, *S, "5f", "6f", "7f", "8f", "5z", "4f", "2f", "1f", "3f"],
    "gnome": [*P, *HONOURS_NWSE, *M, *S, *NO_FLOWERS, "5z", *NO_FLOWERS],
    "gnome2": [*S, *HONOURS_NWSE, *M, *P, *NO_FLOWERS, "5z", *NO_FLOWERS],
}


def sheet_faces(order: Sequence[str | None], cols: int, rows: int,
                box: tuple[float, float, float, float]) -> Callable[[Path], FaceSet]:
    """Faces of a sprite sheet (SVG, PNG or GIF; transparent pixels over ivory) of `cols` x `rows` equal cells,
    read row by row as `order` names them."""
    def extract(path: Path) -> FaceSet:
        sheet = over(_rsvg(path) if path.suffix == ".svg" else np.array(Image.open(path).convert("RGBA")))
        return grid_faces(sheet, order, cols, (sheet.shape[1] / cols, sheet.shape[0] / rows), box)

    return extract


def glyph_faces(path: Path) -> FaceSet:
    font = ImageFont.truetype(str(path), 200)
    return {code: glyph_face(font, chr(UNICODE_TILES[code])) for code in FACE_CODES}


@dataclass(frozen=True)
class Source:
    name: str
    package: str  # the Debian package holding the file
    path: str  # the file inside the package
    licence: str
    credit: str
    extract: Callable[[Path], FaceSet] = field(repr=False)
    borrow: str | None = None  # the source whose faces fill the codes this one lacks

    def meta(self) -> dict[str, str]:
        return {k: v for k, v in asdict(self).items() if k != "extract"}


_KDE = "usr/share/kmahjongglib/tilesets"
_GNOME = "usr/share/gnome-mahjongg/themes"
_XM = "usr/share/games/xmahjongg/tiles"
_XM_CREDIT = "xmahjongg, Eddie Kohler"
_DRAWING = "{} (the font); the drawing is ours"
_XM_FACE = (.04, .03, .81, .85)  # the face inside a 64x80 cell of dorothys.gif and dorwhite.gif, edges left out
SOURCES = (
    Source("kmahjongg-default", "kdegames-mahjongg-data-kf5", f"{_KDE}/default.svgz", "GPL-2.0-or-later",
           "2006 Raquel Ravanini", kmahjongg_faces),
    Source("kmahjongg-traditional", "kdegames-mahjongg-data-kf5", f"{_KDE}/traditional.svgz", "GPL-2.0-or-later",
           "2007 James L. Hammons", kmahjongg_faces),
    Source("gnome-smooth", "gnome-mahjongg", f"{_GNOME}/smooth.png", "GPL-2.0-or-later",
           "GNOME Mahjongg authors", sheet_faces(gnome_order(["2f", "3f", "1f", "4f"], ["5f", "6f", "7f", "8f"]),
                                                 GNOME_CELLS, 2, (.13, .03, .95, .84))),
    Source("gnome-postmodern", "gnome-mahjongg", f"{_GNOME}/postmodern.svg", "GPL-2.0-or-later",
           "GNOME Mahjongg authors", sheet_faces(gnome_order(["5f", "6f", "7f", "8f"], ["1f", "2f", "3f", "4f"]),
                                                 GNOME_CELLS, 2, (.14, .03, .96, .89))),
    Source("xmahjongg-real", "xmahjongg", f"{_XM}/real.gif", "GPL-2.0-or-later",
           f"scanned by Mark Sanctuary 1999; {_XM_CREDIT}", sheet_faces(REAL_GIF_ORDER, 9, 5, (.06, .05, .95, .95))),
    Source("symbola", "fonts-symbola", "usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
           "free for any use (Debian copyright)", "George Douros", glyph_faces),
    Source("noto-symbols2", "fonts-noto-core", "usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
           "OFL-1.1", "Google", glyph_faces),
    Source("drawn", "fonts-wqy-microhei", "usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
           "Apache-2.0 or GPL-3.0-or-later with font exception (the font); the drawing is ours",
           "WenQuanYi Micro Hei", drawn_faces),
    Source("drawn-kai", "fonts-arphic-ukai", "usr/share/fonts/truetype/arphic/ukai.ttc",
           "Arphic Public License (the font); the drawing is ours", "Arphic Technology, AR PL UKai", drawn_faces),
    # Hong Kong style with corner indices and English words, on cream and on white and yellow faces
    Source("xmahjongg-dorothys", "xmahjongg", f"{_XM}/dorothys.gif", "GPL-2.0-or-later", _XM_CREDIT,
           sheet_faces(XMAHJONGG_ORDERS["dorothys"], 21, 4, _XM_FACE)),
    Source("xmahjongg-dorwhite", "xmahjongg", f"{_XM}/dorwhite.gif", "GPL-2.0-or-later", _XM_CREDIT,
           sheet_faces(XMAHJONGG_ORDERS["dorothys"], 21, 4, _XM_FACE)),
    Source("xmahjongg-dorwhite-yellow", "xmahjongg", f"{_XM}/dorwhite.gif", "GPL-2.0-or-later", _XM_CREDIT,
           sheet_faces([None] * 42 + XMAHJONGG_ORDERS["dorothys"], 21, 4, _XM_FACE)),
    # simplified 万 in colour; Japanese style with corner indices and a blank white dragon
    Source("xmahjongg-gnome", "xmahjongg", f"{_XM}/gnome.gif", "GPL-2.0-or-later", _XM_CREDIT,
           sheet_faces(XMAHJONGG_ORDERS["gnome"], 21, 4, (.11, .03, .92, .88)), borrow="drawn"),
    Source("xmahjongg-gnome2", "xmahjongg", f"{_XM}/gnome2.gif", "GPL-2.0-or-later", _XM_CREDIT,
           sheet_faces(XMAHJONGG_ORDERS["gnome2"], 21, 4, (.10, .02, .96, .91)), borrow="drawn-kai"),
    # faces drawn by us in more typefaces (Ming/Song, Kai, Hei, Mincho; regular and bold strokes), some written
    # the simplified way (万, 东, 发)
    Source("drawn-ming", "fonts-arphic-uming", "usr/share/fonts/truetype/arphic/uming.ttc",
           _DRAWING.format("Arphic Public License"), "Arphic Technology, AR PL UMing", drawn_faces),
    Source("drawn-cwkai", "fonts-cwtex-kai", "usr/share/fonts/truetype/cwtex/cwkai.ttf",
           _DRAWING.format("GPL-2.0-or-later"), "Tsong-Min Wu, cwTeX Kai", drawn_faces),
    Source("drawn-mincho", "fonts-ipafont-mincho", "usr/share/fonts/opentype/ipafont-mincho/ipam.ttf",
           _DRAWING.format("IPA Font License 1.0"), "CITPC, IPA Mincho", drawn_faces),
    Source("drawn-noto-serif-bold", "fonts-noto-cjk", "usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
           _DRAWING.format("OFL-1.1"), "Google, Noto Serif CJK Bold", drawn_faces),
    Source("drawn-zenhei-simplified", "fonts-wqy-zenhei", "usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
           _DRAWING.format("GPL-2.0 with font embedding exception"), "WenQuanYi Zen Hei",
           partial(drawn_faces, style="simplified")),
    Source("drawn-gkai-simplified", "fonts-arphic-gkai00mp", "usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf",
           _DRAWING.format("Arphic Public License"), "Arphic Technology, AR PL KaitiM GB",
           partial(drawn_faces, style="simplified")),
    Source("drawn-noto-sans-simplified", "fonts-noto-cjk", "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
           _DRAWING.format("OFL-1.1"), "Google, Noto Sans CJK", partial(drawn_faces, style="simplified")),
)
SOURCE_NAMES = tuple(source.name for source in SOURCES)
ADAPTATION_SOURCES = (
    Source("kmahjongg-classic", "kdegames-mahjongg-data-kf5", f"{_KDE}/classic.svgz", "GPL-2.0-or-later",
           "KMahjongg authors", kmahjongg_faces),
)
ADAPTATION_SOURCE_NAMES = tuple(source.name for source in ADAPTATION_SOURCES)


def build_cache(cache: Path, names: Sequence[str] = SOURCE_NAMES) -> list[Path]:
    """Fetch the packages of the named sources, rasterise their faces into cache/faces; the face folders."""
    known = SOURCE_NAMES + ADAPTATION_SOURCE_NAMES
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise DatasetError(f"unknown art source(s) {unknown}; known: {list(known)}")
    lenders = {source.borrow for source in SOURCES + ADAPTATION_SOURCES if source.name in names and source.borrow
               and not (cache / "faces" / source.borrow / "source.json").is_file()}
    chosen = [source for source in SOURCES + ADAPTATION_SOURCES if source.name in {*names, *lenders}]
    for package in dict.fromkeys(source.package for source in chosen):
        unpack(package, cache)
    folders = []
    for source in chosen:  # lenders come first: SOURCES lists them before their borrowers
        folder = cache / "faces" / source.name
        faces = source.extract(cache / "pkgs" / source.package / source.path)
        if source.borrow:
            faces = {**load_face_sets(cache / "faces")[source.borrow], **faces}
        _save(folder, faces, source, cache / "pkgs" / source.package)
        folders.append(folder)
    return folders


def write_contact_sheets(cache: Path, out: Path, names: Sequence[str] = SOURCE_NAMES) -> list[Path]:
    """One contact sheet per cached face set: OUT-<source>.png (just OUT for a single source)."""
    sets = {name: faces for name, faces in load_face_sets(cache / "faces").items() if name in names}
    if not sets:
        raise DatasetError(f"{cache / 'faces'}: no face sets; run `fanshot art --cache {cache}` first")
    back = back_face(BACK_COLOURS["green"])
    written = []
    for name, faces in sets.items():
        path = out if len(names) == 1 else out.with_name(f"{out.stem}-{name}{out.suffix}")
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(contact_sheet(faces, back, f"{name}  ({cache / 'faces' / name})")).save(path)
        written.append(path)
    return written


def unpack(package: str, cache: Path) -> Path:
    """`apt-get download` the package into cache/debs (once) and unpack it into cache/pkgs/<package>."""
    target = cache / "pkgs" / package
    if target.is_dir():
        return target
    debs = cache / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    if not list(debs.glob(f"{package}_*.deb")):
        _run(["apt-get", "download", package], cwd=debs)
    deb = sorted(debs.glob(f"{package}_*.deb"))[-1]
    partial = Path(tempfile.mkdtemp(dir=debs))
    _run(["dpkg-deb", "-x", str(deb), str(partial)])
    target.parent.mkdir(parents=True, exist_ok=True)
    partial.rename(target)
    return target


def _save(folder: Path, faces: FaceSet, source: Source, package_root: Path) -> None:
    save_face_set(folder, faces, source.meta())
    copyright_file = package_root / "usr/share/doc" / source.package / "copyright"
    if copyright_file.is_file():
        shutil.copyfile(copyright_file, folder / "copyright")


def _rsvg(svg: Path, *args: str) -> np.ndarray:
    """Rasterise an SVG (or .svgz) with rsvg-convert, as RGBA."""
    if shutil.which("rsvg-convert") is None:
        raise DatasetError("rsvg-convert not found: install it with `apt-get install librsvg2-bin`")
    return np.array(Image.open(io.BytesIO(_run(["rsvg-convert", *args, str(svg)]))).convert("RGBA"))


def _run(command: list[str], cwd: Path | None = None) -> bytes:
    done = subprocess.run(command, cwd=cwd, capture_output=True)
    if done.returncode != 0:
        raise DatasetError(f"{' '.join(command)} failed: {done.stderr.decode(errors='replace').strip()[-500:]}")
    return done.stdout
