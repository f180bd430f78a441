"""Progress on stderr for the commands that run for minutes (issue 38): count, rate and time left, drawn by tqdm
where stderr is a terminal and nowhere else, so that `--json` output, pipes and CI logs stay as they were."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T], what: str, total: int | None = None) -> Iterator[T]:
    """`items`, one at a time, with a bar named `what` (`total`: their number, when `items` has no length)."""
    return iter(tqdm(items, desc=what, total=total, file=sys.stderr, disable=not sys.stderr.isatty(), leave=False,
                     dynamic_ncols=True, unit=" items"))
