"""The default install has no PostgreSQL driver and no S3 client (the `scale` extra has them): asking for either
storage without them is one error line that names the option and the extra, never a traceback."""

from __future__ import annotations

import sys

import pytest

from fanshot.api.cli import ALLOWED_HOSTS_VARIABLE, DATA_DIR_VARIABLE, STORAGE_VARIABLES, SUPERVISOR_VARIABLE
from fanshot.cli import main

CASES = [  # (the command, the module the scale extra brings, the option that needs it)
    (["db", "upgrade", "--database-url", "postgresql://fanshot@db.example/fanshot"], "psycopg", "--database-url"),
    (["serve", "--database-url", "postgresql://fanshot@db.example/fanshot"], "psycopg", "--database-url"),
    (["serve", "--images-url", "s3://fanshot-photos/prod"], "boto3", "--images-url"),
]


@pytest.mark.parametrize(("command", "module", "option"), CASES)
def test_storage_without_the_scale_extra_names_the_extra(command, module, option, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed: importing it raises ModuleNotFoundError
    # serve hands its settings to its workers through these variables. Set, then removed: monkeypatch then
    # restores them (absent ones too) after the test, and no storage URL of this environment reaches the command.
    for variable in [DATA_DIR_VARIABLE, SUPERVISOR_VARIABLE, ALLOWED_HOSTS_VARIABLE, *STORAGE_VARIABLES.values()]:
        monkeypatch.setenv(variable, "")
        monkeypatch.delenv(variable)
    assert main([*command, "--data-dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1, error
    assert option in error and module in error and "pip install 'fanshot[scale]'" in error
