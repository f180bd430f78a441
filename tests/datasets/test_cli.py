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
