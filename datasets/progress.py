"""Progress on stderr for the commands that run for minutes (issue 38): count, rate and time left, drawn by tqdm
where stderr is a terminal and nowhere else, so that `--json` output, pipes and CI logs stay as they were."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T], what: str, total: int | None = None) -> Iterator[T]:
    """`items`, one at a time, with a bar named `what` (`total`: their number, when `items` has no length)."""
    return iter(tqdm(items, desc=what, total=total, file=sys.stderr, disable=not sys.stderr.isatty(), leave=False,
                     dynamic_ncols=True, unit=" items"))


STEPS = 1000  # a fraction's resolution on a `shares` bar
LINE_EVERY = 0.1  # without a terminal, a line each time this much more is done


@contextmanager
def shares(what: str) -> Iterator[Callable[[float, str], None]]:
    """A `report(fraction, message)` for work that knows what share of it is done (`fanshot adapt`): a bar with
    the time left and the step's message where stderr is a terminal, else a line at each tenth done (logs stay
    short)."""
    terminal = sys.stderr.isatty()
    bar = tqdm(total=STEPS, desc=what, file=sys.stderr, disable=not terminal, leave=False, dynamic_ncols=True,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed} elapsed, {remaining} left {postfix}")
    printed = [-1.0]

    def report(fraction: float, message: str) -> None:
        if terminal:
            bar.update(round(fraction * STEPS) - bar.n)
            bar.set_postfix_str(message)
        elif fraction >= printed[0] + LINE_EVERY or fraction >= 1.0:
            printed[0] = fraction
            print(f"{fraction:4.0%} {message}", file=sys.stderr)

    try:
        yield report
    finally:
        bar.close()
