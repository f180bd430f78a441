"""Prometheus metrics of one app instance (GET /metrics): requests by route template, recognitions and the time
of each stage, the models' version, and recognitions queued for a slot. Each app has its own registry, so tests
and several apps in one process never share counters. With `--workers N` the worker processes share their
counts through files in a folder (prometheus_client's multiprocess mode, PROMETHEUS_MULTIPROC_DIR, set by
`fanshot serve`), so that whichever worker answers a scrape reports the whole instance."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
    multiprocess,
)

# Seconds: a score answers in about a millisecond, a recognition in a few hundred, a queued one in seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
UNMATCHED = "unmatched"  # the route label of a path no route answers: raw paths would be unbounded labels
MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"  # read by prometheus_client when it is imported


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.shared = bool(os.environ.get(MULTIPROCESS_VARIABLE))
        if not self.shared:  # these describe one process only
            for collector in (ProcessCollector, PlatformCollector, GCCollector):
                collector(registry=self.registry)
        self.requests = Counter("fanshot_http_requests", "HTTP requests answered, by route template and status",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("fanshot_http_request_duration_seconds", "HTTP request time, by route template",
                                 ["method", "route"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self.recognitions = Counter("fanshot_recognitions", "photos recognised, by model version",
                                    ["model_version"], registry=self.registry)
        self.stage_time = Histogram("fanshot_recognition_stage_seconds", "time of each stage of a recognition",
                                    ["stage"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self.waiting = Gauge("fanshot_recognitions_waiting", "recognitions queued for a free slot",
                             registry=self.registry, multiprocess_mode="livesum")
        self.running = Gauge("fanshot_recognitions_running", "recognitions running now", registry=self.registry,
                             multiprocess_mode="livesum")
        self.request_series: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self.model = Gauge("fanshot_model_info", "the recognition models loaded (1 for the version in use)",
                           ["version"], registry=self.registry, multiprocess_mode="livemax")

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        # Finding a series by its labels took as long as counting: each is looked up once (issue 36, the HTTP
        # overhead of /v1/score). Kept as long as prometheus_client keeps the series themselves.
        series = self.request_series.get((method, route, status))
        if series is None:
            series = self.request_series[method, route, status] = (self.requests.labels(method, route, str(status)),
                                                                   self.latency.labels(method, route))
        count, latency = series
        count.inc()
        latency.observe(seconds)

    def recognition(self, model_version: str, stage_seconds: Mapping[str, float]) -> None:
        self.recognitions.labels(model_version).inc()
        for stage, seconds in stage_seconds.items():
            self.stage_time.labels(stage).observe(seconds)

    def model_loaded(self, version: str) -> None:
        self.model.clear()
        self.model.labels(version).set(1)

    def exposition(self) -> bytes:
        if not self.shared:
            return generate_latest(self.registry)
        every_worker = CollectorRegistry()
        multiprocess.MultiProcessCollector(every_worker)
        return generate_latest(every_worker)
