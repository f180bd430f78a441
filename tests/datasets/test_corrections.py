"""Label corrections (datasets/corrections/): the TSV parser, the import applying it, the shipped file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from fanshot.cli import main
from fanshot.datasets.classes import CLASSES
from fanshot.datasets.corrections import HEADER_LINE, SHIPPED, parse_corrections, read_corrections
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.importer import import_yolo, read_dataset
from tests.datasets.conftest import rounded

SHARED = Path(__file__).resolve().parents[2] / "../shared/data/chinese-mahjong-detection"
SHIPPED_FILE = SHIPPED / "chinese-mahjong-detection.tsv"
NAMES = ["bs1", "sc1", "sd1"]  # a foreign order: sd1 (our 1p) is index 2
WHY = "upstream labels every tile sd1; read by eye"


def tsv(*rows: str) -> str:
    return "\n".join(["# a comment", "", HEADER_LINE, *rows]) + "\n"


def test_parse_keeps_codes_in_box_order() -> None:
    corrections = parse_corrections(tsv(f"valid/images/a.jpg\t3\t5z 1s 1p\t{WHY}",
                                        f"valid/images/b.jpg\t1\tback\t{WHY}"), "c.tsv")
    assert {image: c.codes for image, c in corrections.items()} == {
        "valid/images/a.jpg": ("5z", "1s", "1p"), "valid/images/b.jpg": ("back",)}
    assert corrections["valid/images/a.jpg"].where == "c.tsv:4"


@pytest.mark.parametrize(("text", "message"), [
    (tsv(f"a.jpg\t3\t5z 1s\t{WHY}"), r"c\.tsv:4: `labels` has 2 codes but `boxes` says 3"),
    (tsv(f"a.jpg\t2\t5z 1s 1p\t{WHY}"), r"c\.tsv:4: `labels` has 3 codes but `boxes` says 2"),
    (tsv(f"a.jpg\t2\t5z 0p\t{WHY}"), r"c\.tsv:4: unknown tile code\(s\) '0p'"),
    (tsv(f"a.jpg\t1\tsd1\t{WHY}"), r"c\.tsv:4: unknown tile code\(s\) 'sd1'"),
    (tsv(f"a.jpg\ttwo\t5z 1s\t{WHY}"), r"c\.tsv:4: `boxes` must be a whole number"),
    (tsv("a.jpg\t1\t5z"), r"c\.tsv:4: expected 4 tab-separated fields .* got 3"),
    (tsv("a.jpg\t1\t5z\t "), r"c\.tsv:4: `image` and `why` must not be empty"),
    (tsv(f"a.jpg\t1\t5z\t{WHY}", f"a.jpg\t1\t6z\t{WHY}"), r"c\.tsv:5: a\.jpg is already corrected at c\.tsv:4"),
    ("image boxes labels why\n", r"c\.tsv: the first line that is not a comment must be the header"),
    ("# only comments\n", r"c\.tsv: the first line that is not a comment must be the header"),
])
def test_parse_refuses_bad_lines(text: str, message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        parse_corrections(text, "c.tsv")


def test_import_applies_corrections(make_dataset, tmp_path: Path) -> None:
    src = make_dataset(NAMES, {"valid": {"a": "2 .2 .5 .1 .1\n2 .5 .5 .1 .1\n2 .8 .5 .1 .1\n",
                                         "b": "1 .5 .5 .1 .1\n"}})
    (tmp_path / "c.tsv").write_text(tsv(f"valid/images/a.jpg\t3\t5z 1p 1s\t{WHY}"), encoding="utf-8")
    [summary] = import_yolo(src, tmp_path / "dst", corrections=tmp_path / "c.tsv")
    assert (summary.images, summary.boxes, summary.corrected, summary.relabelled) == (2, 4, 1, 2)
    before = {e.image.name: e.boxes for e in read_dataset(src)["valid"]}
    after = {e.image.name: e.boxes for e in read_dataset(tmp_path / "dst")["valid"]}
    assert [CLASSES[box.cls] for box in after["a.jpg"]] == ["5z", "1p", "1s"]
    assert [CLASSES[box.cls] for box in after["b.jpg"]] == ["1m"]  # not named: as upstream
    assert [box[1:] for box in rounded(after["a.jpg"])] == [box[1:] for box in rounded(before["a.jpg"])]


@pytest.mark.parametrize(("row", "message"), [
    (f"valid/images/a.jpg\t2\t5z 1s\t{WHY}", r"c\.tsv:4: 2 codes for valid/images/a\.jpg, but its label file has "
                                             r"3 boxes"),
    (f"valid/images/gone.jpg\t1\t5z\t{WHY}", r"c\.tsv:4: valid/images/gone\.jpg is not a photo of .*src"),
    (f"a.jpg\t3\t5z 1s 1p\t{WHY}", r"c\.tsv:4: a\.jpg is not a photo of"),  # the path is inside the source folder
])
def test_import_refuses_corrections_that_do_not_fit(make_dataset, tmp_path: Path, row: str, message: str) -> None:
    src = make_dataset(NAMES, {"valid": {"a": "2 .2 .5 .1 .1\n2 .5 .5 .1 .1\n2 .8 .5 .1 .1\n"}})
    (tmp_path / "c.tsv").write_text(tsv(row), encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        import_yolo(src, tmp_path / "dst", corrections=tmp_path / "c.tsv")
    assert not (tmp_path / "dst").exists()


def test_import_finds_the_shipped_file_by_the_folder_name(make_dataset, tmp_path: Path) -> None:
    # A folder named like the shared set but without its photos: the shipped file applies, so it does not fit
    src = make_dataset(NAMES, {"valid": {"a": "2 .5 .5 .1 .1\n"}}, root=tmp_path / "chinese-mahjong-detection")
    with pytest.raises(DatasetError, match=r"chinese-mahjong-detection\.tsv:\d+: valid/images/IMG_2778_JPG"):
        import_yolo(src, tmp_path / "dst")
    [summary] = import_yolo(src, tmp_path / "dst", corrections=None)
    assert (summary.images, summary.corrected) == (1, 0)


@pytest.mark.parametrize(("options", "expected"), [
    (["--corrections", "{tmp}/c.tsv"], "valid: 1 images, 1 boxes, corrected 1 photos (1 boxes relabelled)"),
    ([], "valid: 1 images, 1 boxes\n"),  # no shipped file for a folder named src
])
def test_import_command_reports_corrections(make_dataset, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            options: list[str], expected: str) -> None:
    src = make_dataset(NAMES, {"valid": {"a": "2 .5 .5 .1 .1\n"}})
    (tmp_path / "c.tsv").write_text(tsv(f"valid/images/a.jpg\t1\t6z\t{WHY}"), encoding="utf-8")
    argv = ["dataset", "import", str(src), str(tmp_path / "dst"), *(o.format(tmp=tmp_path) for o in options)]
    assert main(argv) == 0
    assert expected in capsys.readouterr().out


def test_the_shipped_file_reads_and_relabels_seven_photos() -> None:
    corrections = read_corrections(SHIPPED_FILE)
    assert len(corrections) == 7 and sum(len(c.codes) for c in corrections.values()) == 123
    assert all(set(c.codes) != {"1p"} for c in corrections.values())


@pytest.mark.slow
def test_the_shared_set_imports_with_the_seven_photos_relabelled(tmp_path: Path) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"no shared set at {SHARED} (CI provides ../shared)")
    corrections = read_corrections(SHIPPED_FILE)
    summaries = import_yolo(SHARED, tmp_path / "dst")
    assert [(s.split, s.corrected) for s in summaries if s.corrected] == [("valid", 7)]
    imported = {f"valid/images/{e.image.name}": e for e in read_dataset(tmp_path / "dst")["valid"]}
    upstream = {f"valid/images/{e.image.name}": e for e in read_dataset(SHARED)["valid"]}
    for image, correction in corrections.items():
        codes = [CLASSES[box.cls] for box in imported[image].boxes]
        assert Counter(CLASSES[box.cls] for box in upstream[image].boxes) == {"1p": len(codes)}  # still upstream
        assert codes == list(correction.codes) and set(codes) != {"1p"}
        assert len(codes) == len(upstream[image].boxes)
