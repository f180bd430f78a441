"""Where recognitions run: a bounded pool of their own, apart from the threads that serve every other request,
so GET and PUT stay fast while uploads wait; a memory budget their decodes share; a bounded queue (503 with
Retry-After beyond it)."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from fanshot.api.errors import Refusal
from fanshot.api.metrics import Metrics
from fanshot.vision.image import MAX_DECODE_BYTES

Result = TypeVar("Result")
# Each recognition already runs ONNX Runtime on two threads; more at once would only thrash the cores.
WORKERS = max(1, (os.cpu_count() or 2) // 2)
QUEUE_LIMIT = 64  # waiting uploads: each holds its spooled file, no decoded pixels
# Decodes share this much memory, whatever the number of workers: one of the largest photos, or many small ones.
DECODE_BUDGET = MAX_DECODE_BYTES
RETRY_AFTER_S = 10


class MemoryBudget:
    """A counting semaphore of bytes: `reserve(n)` waits until n bytes are free, holds them, gives them back."""

    def __init__(self, total: int) -> None:
        self.total, self.free = total, total
        self.changed = threading.Condition()

    @contextmanager
    def reserve(self, amount: int) -> Iterator[None]:
        amount = min(amount, self.total)  # a single larger request still runs, alone
        with self.changed:
            self.changed.wait_for(lambda: self.free >= amount)
            self.free -= amount
        try:
            yield
        finally:
            with self.changed:
                self.free += amount
                self.changed.notify_all()


class RecognitionPool:
    def __init__(self, workers: int = WORKERS, queue_limit: int = QUEUE_LIMIT,
                 decode_budget: int = DECODE_BUDGET, metrics: Metrics | None = None) -> None:
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="recognition")
        self.metrics = metrics  # its queue depth and running count, when given
        self.queue_limit, self.waiting = queue_limit, 0  # waiting: touched on the event loop only
        self.memory = MemoryBudget(decode_budget)

    async def run(self, work: Callable[[], Result]) -> Result:
        if self.waiting >= self.queue_limit:
            raise Refusal(503, "busy", f"{self.waiting} photos are waiting to be read; try again shortly",
                          {"Retry-After": str(RETRY_AFTER_S)})
        self.waiting += 1
        queued = Queued(self.metrics)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, queued.run, work)
        finally:
            self.waiting -= 1
            queued.leave()  # cancelled before it started (the client went away): no longer waiting


class Queued:
    """One piece of work's place in the pool's gauges: waiting until it starts, then running until it ends."""

    def __init__(self, metrics: Metrics | None) -> None:
        self.metrics, self.state, self.lock = metrics, "waiting", threading.Lock()
        if metrics is not None:
            metrics.waiting.inc()

    def _move(self, before: str, after: str) -> bool:
        with self.lock:
            moved = self.state == before
            if moved:
                self.state = after
        if moved and self.metrics is not None:
            getattr(self.metrics, before).dec()
            if after == "running":
                self.metrics.running.inc()
        return moved

    def run(self, work: Callable[[], Result]) -> Result:
        if not self._move("waiting", "running"):
            raise Refusal(503, "busy", "the photo was withdrawn before it was read")
        try:
            return work()
        finally:
            self._move("running", "done")

    def leave(self) -> None:
        self._move("waiting", "done")
