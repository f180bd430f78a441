"""Where recognitions run: a bounded pool of their own, apart from the threads that serve every other request,
so GET and PUT stay fast while uploads wait; a memory budget their decodes share; a bounded queue (503 with
Retry-After beyond it).

A recognition decodes its photo, then takes one of the recogniser slots. Decoding holds a thread of the pool but no
slot, and the pool has DECODERS threads more than slots: a photo slow to decode (the largest HEIC, a progressive
JPEG of many scans: up to about 2 s here) holds its own thread while the photos behind it are decoded and read
(issue 36: one slow photo held the only worker, and an upload sent after it waited 33 s).

A photo whose decode is known to be costly before it starts (a progressive JPEG of many scans: scans × pixels,
vision/image.py scan_work) is decoded in a lane of its own, SLOW_DECODERS threads: however many such photos come,
they queue behind each other there, and every other photo is decoded at once beside them (issue 53: eight photos
of many scans, each under the limits, delayed a normal upload by 15-41 s)."""

from __future__ import annotations

import asyncio
import ctypes
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from fanshot.api.errors import Refusal
from fanshot.api.metrics import Metrics
from fanshot.vision.image import MAX_DECODE_BYTES

Decoded = TypeVar("Decoded")
Result = TypeVar("Result")
# Each recognition already runs ONNX Runtime on two threads; more at once would only thrash the cores.
WORKERS = max(1, (os.cpu_count() or 2) // 2)
# Photos decoded beside the recognitions: each decoded photo waiting for a slot holds ~6 MB (1600×1200 RGB).
DECODERS = 3
SLOW_DECODERS = 1
# Decode work (scans × pixels) past which a photo is decoded in the slow lane: a 20-megapixel phone photo saved
# progressive (about ten scans) is under it; a photo of many scans or of many pixels and some scans is over.
COSTLY_SCAN_PIXELS = 200_000_000
QUEUE_LIMIT = 64  # waiting uploads: each holds its spooled file, no decoded pixels
# Decodes share this much memory, whatever the number of threads: the largest photo (MAX_DECODE_BYTES) and, beside
# it, a 12-megapixel HEIC (149 MB) or three 12-megapixel JPEGs (57 MB each), so that it delays no phone photo.
DECODE_BUDGET = MAX_DECODE_BYTES + 192 * 1024 * 1024
RETRY_AFTER_S = 10
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
OWN_MAPPING_BYTES = 1024 * 1024


def return_freed_photos() -> None:
    """Have malloc (glibc's) map each block of a megabyte or more on its own, so that a decode's memory goes back to
    the system once freed. By default glibc raises that threshold as big blocks are freed, then keeps freed blocks
    in a pool per thread: with each decoding thread keeping its largest decode, the server of
    tests/api/test_memory.py peaked at 1.2 GB instead of 620 MB."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)  # none outside glibc
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, OWN_MAPPING_BYTES)


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
    def __init__(self, workers: int = WORKERS, decoders: int = DECODERS, queue_limit: int = QUEUE_LIMIT,
                 decode_budget: int = DECODE_BUDGET, metrics: Metrics | None = None) -> None:
        return_freed_photos()
        self.executor = ThreadPoolExecutor(workers + decoders, thread_name_prefix="recognition")
        self.slow_lane = ThreadPoolExecutor(SLOW_DECODERS, thread_name_prefix="recognition-slow")
        self.slots = threading.Semaphore(workers)
        self.metrics = metrics  # its queue depth and running count, when given
        self.queue_limit, self.waiting = queue_limit, 0  # waiting: touched on the event loop only
        self.memory = MemoryBudget(decode_budget)

    async def run(self, decode: Callable[[], Decoded], work: Callable[[Decoded], Result], *, costly: bool = False) \
            -> Result:
        """`work(decode())` in the pool: `decode` as soon as a thread is free (a thread of the slow lane when
        `costly`), `work` once a slot is."""
        if self.waiting >= self.queue_limit:
            raise Refusal(503, "busy", f"{self.waiting} photos are waiting to be read; try again shortly",
                          {"Retry-After": str(RETRY_AFTER_S)})
        self.waiting += 1
        queued = Queued(self.metrics)
        try:
            executor = self.slow_lane if costly else self.executor
            return await asyncio.get_running_loop().run_in_executor(executor, queued.run, decode, work, self.slots)
        finally:
            self.waiting -= 1
            queued.leave()  # withdrawn before it took a slot (the client went away): no longer waiting


def withdrawn() -> Refusal:
    return Refusal(503, "busy", "the photo was withdrawn before it was read")


class Queued:
    """One piece of work's place in the pool's gauges: waiting (for a thread, while decoding, for a slot) until it
    takes a slot, then running until it ends."""

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

    def run(self, decode: Callable[[], Decoded], work: Callable[[Decoded], Result], slots: threading.Semaphore) \
            -> Result:
        if self.state != "waiting":  # withdrawn while it waited for a thread
            raise withdrawn()
        decoded = decode()
        with slots:
            if not self._move("waiting", "running"):  # withdrawn while it decoded or waited for a slot
                raise withdrawn()
            try:
                return work(decoded)
            finally:
                self._move("running", "done")

    def leave(self) -> None:
        self._move("waiting", "done")
