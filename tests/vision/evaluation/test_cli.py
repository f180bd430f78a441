"""`fanshot eval` and `fanshot choose` (vision/evaluation/cli.py)."""

import json
from pathlib import Path

import pytest

from fanshot.cli import main

SAMPLE = Path(__file__).resolve().parents[4] / "shared/data/chinese-mahjong-detection/test/images"
SAMPLE = next(iter(sorted(SAMPLE.glob("*.jpg"))), SAMPLE)



def test_eval_without_a_set_is_refused(capsys):
    assert main(["eval"]) == 2
    assert "at least one" in capsys.readouterr().err


@pytest.mark.skipif(not SAMPLE.is_file(), reason="no shared test photo")
def test_eval_prints_a_row_per_set_and_counts_false_tiles_per_photo(tmp_path, capsys):
    from fanshot.vision.evaluation.evaluate import read_photo
    from fanshot.vision.recogniser import shipped

    result, _ = read_photo(SAMPLE, shipped())
    codes = [t["code"] for t in result["tiles"]]
    right, empty = tmp_path / "right.jsonl", tmp_path / "empty.jsonl"
    right.write_text(json.dumps({"image": str(SAMPLE), "tiles": "".join(c for c in codes if c != "back"),
                                 "backs": codes.count("back")}) + "\n")
    empty.write_text(json.dumps({"image": str(SAMPLE), "tiles": "", "backs": 0}) + "\n")  # as if it held no tile
    assert main(["eval", str(right), str(empty), "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    assert list(reports) == [str(right), str(empty)]
    assert (reports[str(right)]["f1"], reports[str(right)]["false_per_photo"]) == (1.0, 0.0)
    assert reports[str(empty)]["false_per_photo"] == len(codes)
    assert main(["eval", str(right), str(empty)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(f"| {tmp_path}")]
    assert len(rows) == 2


@pytest.mark.skipif(not SAMPLE.is_file(), reason="no shared test photo")
def test_choose_between_a_report_and_itself_finds_no_change_and_does_not_ship(tmp_path, capsys):
    manifest = tmp_path / "set.jsonl"
    manifest.write_text(json.dumps({"image": str(SAMPLE), "tiles": "1m2m3m", "backs": 0}) + "\n")
    assert main(["eval", str(manifest), "--json", "--photos"]) == 0
    base = json.loads(capsys.readouterr().out)
    assert [set(p) for p in base["photos"]] == [{"found", "true", "false"}]
    (tmp_path / "base.json").write_text(json.dumps(base))
    (tmp_path / "same.json").write_text(json.dumps(base))

    assert main(["choose", str(tmp_path / "base.json"), str(tmp_path / "same.json")]) == 0

    out = capsys.readouterr().out
    assert f"| {tmp_path / 'base.json'} | 3 |" in out and "| +0.0000 | [+0.0000, +0.0000] |" in out
    assert "does not ship: the mean F1 rises by +0.0000, under 0.002" in out
