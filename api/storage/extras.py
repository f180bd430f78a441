"""The `scale` extra (pip install 'fanshot[scale]'): the PostgreSQL driver and the S3 client, which the embedded
default (SQLite and a folder) does without."""

from __future__ import annotations

import importlib
from types import ModuleType

SCALE_INSTALL = "pip install 'fanshot[scale]'"


class MissingExtra(RuntimeError):
    pass


def import_scale_extra(module: str, needed_for: str) -> ModuleType:
    """`module`, or an error that says what needs it and which extra installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        raise MissingExtra(f"{needed_for} needs {module}, which the default install leaves out: "
                           f"{SCALE_INSTALL}") from missing
