"""Label corrections: a TSV that names photos of a source label set and gives each box's true tile code.

Upstream label sets have mistakes we cannot fix at the source (the shared data is read-only). A corrections
file keeps our fixes beside the code, one photo a line, tab-separated:

    image                         boxes  labels            why
    valid/images/IMG_1_JPG.jpg    3      1m 5z 2s          upstream labels every tile sd1; read by eye

`image` is the photo's path inside the source folder, `boxes` its number of boxes (the label file's lines),
`labels` one of our tile codes per box in the label file's line order, `why` the reason. Lines starting with
`#` and blank lines are comments; the first other line is that header. Boxes are kept; only classes change.
The files shipped here, in datasets/corrections/, are named after the source folder they correct.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from fanshot.datasets.classes import CLASS_INDEX
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.yolo import Example

SHIPPED = Path(__file__).resolve().parent  # the shipped files lie beside this module
HEADER = ("image", "boxes", "labels", "why")
HEADER_LINE = "\t".join(HEADER)


@dataclass(frozen=True)
class Correction:
    """One photo's corrected tile codes, in box order; `where` ("file:line") names it in errors."""

    image: str
    codes: tuple[str, ...]
    why: str
    where: str


def shipped_corrections(src: Path) -> Path | None:
    """The corrections file shipped for a source folder, found by the folder's name; None if there is none."""
    path = SHIPPED / f"{src.resolve().name}.tsv"
    return path if path.is_file() else None


def parse_correction(line: str, where: str) -> Correction:
    fields = line.split("\t")
    if len(fields) != len(HEADER):
        raise DatasetError(f"{where}: expected {len(HEADER)} tab-separated fields ({', '.join(HEADER)}), "
                           f"got {len(fields)}")
    image, boxes, labels, why = (field.strip() for field in fields)
    if not image or not why:
        raise DatasetError(f"{where}: `image` and `why` must not be empty")
    if not boxes.isdigit():
        raise DatasetError(f"{where}: `boxes` must be a whole number, got {boxes!r}")
    codes = tuple(labels.split())
    if len(codes) != int(boxes):
        raise DatasetError(f"{where}: `labels` has {len(codes)} codes but `boxes` says {boxes}; "
                           "give one code per box")
    unknown = [code for code in codes if code not in CLASS_INDEX]
    if unknown:
        raise DatasetError(f"{where}: unknown tile code(s) {', '.join(map(repr, unknown))} in `labels`; "
                           "use 1m-9m, 1p-9p, 1s-9s, 1z-7z, 1f-8f or back")
    return Correction(image, codes, why, where)


def parse_corrections(text: str, source: str) -> dict[str, Correction]:
    """The corrections of a file's text by image path; `source` names the file in errors."""
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.startswith("#")]
    if not numbered or numbered[0][1].rstrip() != HEADER_LINE:
        raise DatasetError(f"{source}: the first line that is not a comment must be the header "
                           f"{HEADER_LINE!r}")
    corrections: dict[str, Correction] = {}
    for number, line in numbered[1:]:
        correction = parse_correction(line, f"{source}:{number}")
        if correction.image in corrections:
            raise DatasetError(f"{correction.where}: {correction.image} is already corrected at "
                               f"{corrections[correction.image].where}; keep one line per photo")
        corrections[correction.image] = correction
    return corrections


def read_corrections(path: Path) -> dict[str, Correction]:
    return parse_corrections(path.read_text(encoding="utf-8"), str(path))


def corrected(example: Example, correction: Correction) -> Example:
    """The example with each box's class replaced by the correction's code; the count must match."""
    if len(correction.codes) != len(example.boxes):
        raise DatasetError(f"{correction.where}: {len(correction.codes)} codes for {correction.image}, but its "
                           f"label file has {len(example.boxes)} boxes; its labels changed: read the photo again")
    pairs = zip(example.boxes, correction.codes, strict=True)
    boxes = tuple(replace(box, cls=CLASS_INDEX[code]) for box, code in pairs)
    return replace(example, boxes=boxes)


def apply_corrections(splits: dict[str, list[Example]], root: Path,
                      corrections: dict[str, Correction]) -> dict[str, list[Example]]:
    """The splits of the YOLO folder `root` with the corrected photos relabelled; every correction must name a
    photo of `root` (a stale file would otherwise be silently ignored)."""
    def key(example: Example) -> str:
        return example.image.relative_to(root).as_posix()

    found = {key(example) for examples in splits.values() for example in examples}
    missing = [c for image, c in corrections.items() if image not in found]
    if missing:
        more = f" (nor are {len(missing) - 1} more it names)" if len(missing) > 1 else ""
        raise DatasetError(f"{missing[0].where}: {missing[0].image} is not a photo of {root}{more}; import "
                           "without corrections, or with the file made for this set")
    return {split: [corrected(e, corrections[key(e)]) if key(e) in corrections else e for e in examples]
            for split, examples in splits.items()}
