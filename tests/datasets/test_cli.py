from __future__ import annotations

import re
from pathlib import Path

import pytest

from fanshot.cli import main


def test_import_command(make_dataset, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = make_dataset(["sc1"], {"train": {"a": "0 .5 .5 .1 .1\n"}})
    assert main(["dataset", "import", str(src), str(tmp_path / "dst")]) == 0
    assert "train: 1 images, 1 boxes" in capsys.readouterr().out


@pytest.mark.parametrize(("names", "label", "message"), [
    (["sc1"], "0 .5 .5 .1\n", "error: .*labels/a.txt:1: expected"),
    (["xx"], "", "error: .*unknown class name"),
])
def test_errors_reach_the_user_as_one_line(make_dataset, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           names: list[str], label: str, message: str) -> None:
    src = make_dataset(names, {"train": {"a": label}})
    assert main(["dataset", "import", str(src), str(tmp_path / "dst")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.match(message, err)


@pytest.mark.parametrize(("argv", "code", "expected"), [
    (["stats", "{src}"], 0, "images"),
    (["stats", "{src}", "--json"], 0, '"tiles": 2'),
    (["split", "{src}", "{tmp}/s", "--ratios", "1", "0", "0"], 0, "train: 2 images"),
    (["split", "{src}", "{tmp}/s", "--ratios", "0", "0", "0"], 2, "error: ratios"),
    (["export", "{src}", "--format", "coco", "--out", "{tmp}/c.json"], 0, "exported 2 images"),
    (["export", "{src}", "--format", "yolo", "--out", "{tmp}/y.zip"], 0, "exported 2 images"),
    (["manifest", "{src}/train"], 0, '"tiles": "1m"'),
    (["manifest", "{src}/train", "--out", "{tmp}/m.jsonl"], 0, "wrote 2 lines"),
    (["manifest", "{tmp}"], 2, "error: "),
    (["stats", "{tmp}/missing"], 2, "error: "),
])
def test_subcommands(make_dataset, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                     code: int, expected: str) -> None:
    src = make_dataset(["sc1"], {"train": {"a": "0 .5 .5 .1 .1\n", "b": "0 .2 .2 .1 .1\n"}})
    args = [arg.format(src=src, tmp=tmp_path) for arg in argv]
    assert main(["dataset", *args]) == code
    captured = capsys.readouterr()
    assert expected in (captured.out if code == 0 else captured.err)
