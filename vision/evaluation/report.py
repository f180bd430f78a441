"""`fanshot eval --report DIR`: the figures of vision/evaluation/breakdown.py drawn as a page that opens from disk
(DIR/index.html, its images beside it; no server, no script, no CDN): a row per set, per set the per-class
figures and a confusion heat-map, F1 by tile width and by position, and the worst photos drawn with their true
and read boxes; with `--compare`, the choice rule's verdict and the photos the two versions read differently,
side by side. Drawn with Pillow; I/O only here."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from fanshot.vision.evaluation.breakdown import (
    MISSED,
    NOT_A_TILE,
    READ_LABELS,
    TRUE_LABELS,
    Reading,
    changed,
    confusion,
    pair_kind,
    pairing,
    photo_errors,
    scores_by_position,
    tile_label,
    worst,
)
from fanshot.vision.evaluation.choice import Verdict
from fanshot.vision.evaluation.metrics import class_scores
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo

WORST_PHOTOS = 8  # drawn per set
CHANGED_PHOTOS = 8  # drawn per set in a comparison
DRAWN_SIDE = 720  # px: a drawn photo's longer side
CELL = 16  # px: a heat-map cell
COLOURS = {"right": (40, 170, 70), "misread": (255, 150, 0), "missed": (230, 30, 60), "false": (150, 40, 200)}
ROW_KEYS = ("images", "precision", "recall", "f1", "exact_match", "false_per_photo", "median_ms", "p95_ms")


@dataclass(frozen=True)
class SetResult:
    """One set as one version read it: `fanshot eval`'s summary and each photo's `Reading`."""

    name: str
    summary: dict
    readings: list[Reading]


def set_figures(result: SetResult) -> dict:
    """What the report shows of a set, as JSON: its row, per-class figures, the confusion matrix, F1 by width
    (a YOLO folder's) and by position."""
    pairs = [(list(r.found.classes), list(r.truth.classes)) for r in result.readings]
    return {"row": {key: result.summary[key] for key in ROW_KEYS if key in result.summary},
            "classes": class_scores(pairs),
            "confusion": {"true": list(TRUE_LABELS), "read": list(READ_LABELS),
                          "counts": confusion(result.readings).tolist()},
            "by_width": result.summary.get("by_width"),
            "by_position": scores_by_position(result.readings) if any(r.boxed for r in result.readings) else None}


def figures_document(results: Sequence[SetResult], about: dict) -> dict:
    """The report's figures with what they are of (`about`: models, settings, command)."""
    return {**about, "sets": {result.name: set_figures(result) for result in results}}


# Drawing

def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans where the system has it (it draws the arrow of `3s → 2s`), else Pillow's own font."""
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


def heatmap(matrix: np.ndarray, rows: Sequence[str], columns: Sequence[str]) -> Image.Image:
    """The confusion matrix as an image: a cell's colour is its share of its row (so a rare code's errors show
    as plainly as a common one's), its count written in it; true codes down the side, codes read along the top."""
    font, margin = _font(11), 70
    image = Image.new("RGB", (margin + CELL * len(columns) + 4, margin + CELL * len(rows) + 4), "white")
    draw = ImageDraw.Draw(image)
    totals = np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    shares = matrix / totals
    for r, name in enumerate(rows):
        draw.text((margin - 4, margin + r * CELL + CELL / 2), name, fill="black", font=font, anchor="rm")
    for c, name in enumerate(columns):  # written upwards, as a column heading
        label = Image.new("L", (margin - 4, CELL), 0)
        ImageDraw.Draw(label).text((0, CELL / 2), name, fill=255, font=font, anchor="lm")
        upright = label.rotate(90, expand=True)
        image.paste((0, 0, 0), (margin + c * CELL, 0), upright)
    for (r, c), count in np.ndenumerate(matrix):
        x, y = margin + c * CELL, margin + r * CELL
        error = r != c  # off the diagonal (the last row and column included) in red, right reads in blue
        level = 1 - shares[r, c] ** 0.5 if count else 1.0
        fill = (255, round(255 * level), round(255 * level)) if error else \
            (round(255 * level), round(255 * level), 255)
        draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=fill, outline=(225, 225, 225))
        if count:
            ink = "white" if shares[r, c] > 0.5 else "black"
            draw.text((x + CELL / 2, y + CELL / 2), str(count), fill=ink, font=_font(8 if count > 99 else 9),
                      anchor="mm")
    return image


def draw_reading(reading: Reading) -> Image.Image:
    """The photo as read (the frame its boxes are in), shrunk to DRAWN_SIDE: each tile read right boxed in green,
    a misread in orange labelled `3s → 2s`, a missed tile's true box in red labelled with its code, a tile read
    where none is in purple labelled with the code read. Without true boxes (a manifest) a missed tile has no
    box: the page lists it."""
    photo = Image.fromarray(load_photo(reading.image.read_bytes(), max_side=RECOGNITION_MAX_SIDE))
    shrink = min(1.0, DRAWN_SIDE / max(photo.size))
    photo = photo.resize((round(photo.width * shrink), round(photo.height * shrink)))
    draw, font = ImageDraw.Draw(photo), _font(12)
    marks = []
    for true, read in pairing(reading):
        kind = pair_kind(reading, (true, read))
        box = reading.found.boxes[read] if read is not None else reading.truth.boxes[true] if reading.boxed else None
        if box is not None:
            label = {"misread": tile_label(reading, (true, read)), "right": "",
                     "missed": reading.truth.classes[true] if true is not None else "",
                     "false": reading.found.classes[read] if read is not None else ""}[kind]
            marks.append((np.asarray(box) * shrink, label, kind))
    for box, label, kind in sorted(marks, key=lambda mark: mark[2] != "right"):  # errors drawn over right reads
        draw.rectangle(tuple(box), outline=COLOURS[kind], width=2 if kind == "right" else 3)
        if label:
            left, top, right, bottom = draw.textbbox((box[0], box[1]), label, font=font, anchor="lb")
            draw.rectangle((left - 1, top - 1, right + 1, bottom), fill=COLOURS[kind])
            draw.text((box[0], box[1]), label, fill="black" if kind == "misread" else "white", font=font, anchor="lb")
    return photo


def side_by_side(left: Image.Image, right: Image.Image, titles: tuple[str, str]) -> Image.Image:
    """Two drawings of one photo next to each other, each titled."""
    font, band = _font(16), 26
    image = Image.new("RGB", (left.width + right.width + 12, max(left.height, right.height) + band), "white")
    draw = ImageDraw.Draw(image)
    for x, drawing, title in ((0, left, titles[0]), (left.width + 12, right, titles[1])):
        image.paste(drawing, (x, band))
        draw.text((x + 4, band / 2), title, fill="black", font=font, anchor="lm")
    return image


# The page

STYLE = """body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1400px;padding:0 16px;color:#222}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#f2f2f2}h2{margin-top:40px;border-top:2px solid #444;
padding-top:12px}figure{display:inline-block;margin:0 12px 16px 0;vertical-align:top;max-width:100%}
figure img{max-width:100%;border:1px solid #bbb}figcaption{font-size:13px;max-width:720px}pre{background:#f6f6f6;
padding:8px;overflow:auto;font-size:12px}.key span{display:inline-block;padding:0 6px;margin-right:8px}
.grid{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}.grid table{font-size:13px}
.grid td,.grid th{padding:2px 6px}.side{max-width:440px}"""
KEY = ('<p class="key">' + "".join(f'<span style="{style}rgb{COLOURS[kind]}">{words}</span>' for kind, style, words in (
    ("right", "border:2px solid ", "read right"), ("misread", "background:", "misread: true → read"),
    ("missed", "color:white;background:", "missed: its true code"),
    ("false", "color:white;background:", "not a tile: the code read"))) + "</p>")


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}" if value <= 1 else f"{value:.0f}"
    return html.escape(str(value))


def _table(headings: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def rows_table(results: Sequence[SetResult]) -> str:
    """A row per set: P/R/F1, exact photos, false tiles per photo, median and p95 ms."""
    return _table(("set", "photos", "tiles", "P", "R", "F1", "exact photos", "false tiles a photo", "median ms",
                   "p95 ms"),
                  [(r.name, r.summary["images"], sum(len(x.truth.classes) for x in r.readings), r.summary["precision"],
                    r.summary["recall"], r.summary["f1"], r.summary["exact_match"], r.summary["false_per_photo"],
                    r.summary["median_ms"], r.summary["p95_ms"]) for r in results])


def _bins_table(heading: str, bins: dict) -> str:
    """Bins that hold a tile, true or read (an empty bin's F1 of 0 would say nothing)."""
    return _table((heading, "true tiles", "tiles read", "P", "R", "F1"),
                  [(name, f["tiles"], f["found"], f["precision"], f["recall"], f["f1"]) for name, f in bins.items()
                   if f["tiles"] or f["found"]])


def _errors_caption(reading: Reading) -> str:
    errors = photo_errors(reading)
    wrong = [tile_label(reading, pair) for pair in pairing(reading) if pair_kind(reading, pair) != "right"]
    return (f"{html.escape(str(reading.image))}: {errors.misread} misread, {errors.missed} missed, {errors.false} "
            f"not a tile ({reading.ms:.0f} ms)<br>{html.escape(', '.join(wrong))}")


def _figure(source: str, caption: str) -> str:
    return (f'<figure><a href="{source}"><img src="{source}" loading="lazy"></a>'
            f"<figcaption>{caption}</figcaption></figure>")


def set_section(out: Path, number: int, result: SetResult, figures: dict) -> str:
    """A set's part of the page; its images written to `out`."""
    matrix = np.array(figures["confusion"]["counts"])
    heatmap(matrix, TRUE_LABELS, READ_LABELS).save(out / f"set{number}-confusion.png", optimize=True)
    parts = [f"<h2>{html.escape(result.name)}</h2>",
             "<h3>Confusion matrix</h3><p>Tiles by true code (rows) and code read (columns), over "
             f"{len(result.readings)} photos. Cells are coloured by their share of the row (blue: read right, red: "
             f"an error); <i>{MISSED}</i>: a true tile read as nothing, <i>{NOT_A_TILE}</i>: a tile read where "
             "none is. " + ("Tiles are paired by their boxes (IoU ≥ 0.5)." if all(r.boxed for r in result.readings)
                            else "This set has no true boxes: tiles are paired by code, and a photo's one true and "
                            "one read tile left over as a misread.") + "</p>",
             f'<div class="grid"><img src="set{number}-confusion.png" '
             f'alt="confusion matrix of {html.escape(result.name)}"><div class="side">']
    if figures["by_width"]:
        parts.append("<h3>F1 by tile width</h3><p>px at the photo's full resolution</p>"
                     + _bins_table("width", figures["by_width"]))
    if figures["by_position"]:
        parts.append("<h3>F1 by position</h3><p>where the layout places the true tiles on their labelled boxes; a "
                     "tile read where none is, where the recogniser placed it</p>"
                     + _bins_table("position", figures["by_position"]))
    classes = [(code, f["tiles"], f["found"], f["precision"], f["recall"], f["f1"])
               for code, f in figures["classes"].items() if f["tiles"] or f["found"]]  # as `_bins_table`
    half = max(1, -(-len(classes) // 2))
    parts.append("</div></div><h3>Per class</h3><p>Tiles counted as the set's F1 counts them: a code's tiles read "
                 "right in a photo are as many as both the truth and the reading hold.</p><div class=\"grid\">"
                 + "".join(_table(("code", "true tiles", "tiles read", "P", "R", "F1"), classes[n:n + half])
                           for n in range(0, len(classes), half)) + "</div>")
    worst_photos = worst(result.readings, WORST_PHOTOS)
    parts.append(f"<h3>The worst photos ({len(worst_photos)} drawn)</h3>" + KEY if worst_photos
                 else "<h3>Every photo read without error</h3>")
    for rank, i in enumerate(worst_photos):
        name = f"set{number}-worst{rank}.jpg"
        draw_reading(result.readings[i]).save(out / name, quality=85)
        parts.append(_figure(name, _errors_caption(result.readings[i])))
    return "\n".join(parts)


def verdict_section(out: Path, verdict: Verdict, base: Sequence[SetResult], candidate: Sequence[SetResult],
                    names: tuple[str, str]) -> str:
    """The choice rule's verdict, a row per set of each version, and the photos they read differently."""
    parts = ["<h2>The choice rule</h2>",
             _table(("set", "tiles", f"F1 {names[0]}", f"F1 {names[1]}", "change", "95 % interval", "tile errors",
                     "falls"),
                    [(c.name, c.tiles, c.base_f1, c.candidate_f1, f"{c.change:+.4f}",
                      f"[{c.interval[0]:+.4f}, {c.interval[1]:+.4f}]", f"{c.base_errors} → {c.candidate_errors}",
                      "yes" if c.falls else "") for c in verdict.changes]),
             f"<p><b>mean change {verdict.mean_change:+.4f}: "
             + ("ships" if verdict.ships else "does not ship: " + html.escape("; ".join(verdict.reasons))) + "</b></p>",
             f"<h3>{html.escape(names[0])}</h3>", rows_table(base), f"<h3>{html.escape(names[1])}</h3>",
             rows_table(candidate)]
    for number, (a, b) in enumerate(zip(base, candidate, strict=True)):
        photos = changed(a.readings, b.readings, CHANGED_PHOTOS)
        parts.append(f"<h2>{html.escape(a.name)}: {len(photos)} photos read differently</h2>" + (KEY if photos else ""))
        for rank, i in enumerate(photos):
            name = f"set{number}-changed{rank}.jpg"
            side_by_side(draw_reading(a.readings[i]), draw_reading(b.readings[i]), names).save(out / name, quality=85)
            parts.append(_figure(name, f"{html.escape(str(a.readings[i].image))}: tile errors "
                                       f"{photo_errors(a.readings[i]).total} → {photo_errors(b.readings[i]).total}"))
    return "\n".join(parts)


def _about(about: dict) -> str:
    settings = json.dumps(about["settings"], indent=1)
    return (f"<p>Command: <code>{html.escape(about['command'])}</code><br>Models: <code>"
            f"{html.escape(about['models'])}</code>, version {html.escape(about['version'])}</p>"
            f"<details><summary>vision.json settings</summary><pre>{html.escape(settings)}</pre></details>")


def write_report(out: Path, results: Sequence[SetResult], about: dict,
                 comparison: tuple[Verdict, Sequence[SetResult], tuple[str, str], dict] | None = None) -> Path:
    """Write `out`/index.html, its images and figures.json (`figures_document`); `comparison`: the verdict,
    the candidate's sets, the two versions' names and the candidate's `about`, drawn after the base's sets."""
    out.mkdir(parents=True, exist_ok=True)
    document = figures_document(results, about)
    (out / "figures.json").write_text(json.dumps(document) + "\n", encoding="utf-8")
    body = ["<h1>Fanshot recogniser report</h1>", _about(about), rows_table(results)]
    if comparison is not None:
        verdict, candidate, names, candidate_about = comparison
        body += [f"<p>Compared with {html.escape(names[1])}:</p>", _about(candidate_about),
                 verdict_section(out, verdict, results, candidate, names)]
    body += [set_section(out, n, result, document["sets"][result.name]) for n, result in enumerate(results)]
    page = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fanshot recogniser report</title>'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><style>{STYLE}</style></head>'
            f'<body>{"".join(body)}</body></html>\n')
    (out / "index.html").write_text(page, encoding="utf-8")
    return out / "index.html"

