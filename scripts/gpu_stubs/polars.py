"""Stand-in for polars where it is not installed (the GPU machine; too large to carry there): ultralytics'
trainer uses it only to read its own results.csv into a dict of columns."""

from __future__ import annotations

import csv
import io
from pathlib import Path


class _Frame:
    def __init__(self, rows: list[dict[str, str]]) -> None:
        self.rows = rows

    def to_dict(self, as_series: bool = False) -> dict[str, list]:
        keys = self.rows[0].keys() if self.rows else []
        return {key: [_number(row[key]) for row in self.rows] for key in keys}


def _number(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text


def read_csv(source: bytes | str, infer_schema_length: int | None = None) -> _Frame:
    text = source.decode() if isinstance(source, bytes) else Path(source).read_text(encoding="utf-8")
    return _Frame(list(csv.DictReader(io.StringIO(text))))
