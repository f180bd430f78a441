"""GET /readyz's checks: each part (the active model, the database, the image store) is checked in a thread of its
own, at most one check of a part in flight at a time, and waited on for its own time (WAIT_SECONDS for a part
that waits on another machine); a part whose check has not answered by then is reported unavailable, its check
left to finish for the next question (issue 53: /readyz took 10 s to answer while the object store hung).
Answers are kept FRESH_SECONDS, so that a load balancer asking often costs one write probe a second, not one an
ask."""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

FRESH_SECONDS = 1.0
WAIT_SECONDS = 0.8


class NoAnswer(Exception):
    """A check that did not answer within WAIT_SECONDS."""


Outcome = tuple[object, BaseException | None]  # what a part's check returned, or what it raised


class Readiness:
    def __init__(self, parts: dict[str, Callable[[], object]], waits: dict[str, float] | None = None) -> None:
        """`parts`: a check per part, in the order they are reported; each raises unless its part can serve.
        `waits`: how long to wait for a part's check, where not WAIT_SECONDS."""
        self.parts, self.waits = parts, waits or {}
        self.pool = ThreadPoolExecutor(len(parts), thread_name_prefix="readiness")
        weakref.finalize(self, self.pool.shutdown, wait=False)  # its idle threads end with it
        self.lock = threading.Lock()
        self.in_flight: dict[str, Future[object]] = {}
        self.answered: tuple[float, dict[str, Outcome]] | None = None

    def outcomes(self) -> dict[str, Outcome]:
        """Each part's outcome: fresh from the last FRESH_SECONDS, else checked now, within WAIT_SECONDS."""
        with self.lock:
            if self.answered is not None and time.monotonic() - self.answered[0] < FRESH_SECONDS:
                return self.answered[1]
            checks = {part: self._check(part) for part in self.parts}
        started = time.monotonic()
        for part, check in checks.items():
            wait([check], timeout=max(0.0, started + self.waits.get(part, WAIT_SECONDS) - time.monotonic()))
        outcomes = {part: outcome(check) for part, check in checks.items()}
        with self.lock:
            self.answered = (time.monotonic(), outcomes)
        return outcomes

    def _check(self, part: str) -> Future[object]:
        running = self.in_flight.get(part)
        if running is None or running.done():  # a hung check is waited on again, never started beside itself
            running = self.in_flight[part] = self.pool.submit(self.parts[part])
        return running


def outcome(check: Future[object]) -> Outcome:
    if not check.done():
        return None, NoAnswer("no answer in time")
    return (None, check.exception()) if check.exception() is not None else (check.result(), None)
