"""Each request's id, access log line and metrics (api/edge.py calls these on every request). The id is the
client's `X-Request-ID` when it sends a sane one (a load balancer's, so one id follows a request through every
hop), else a new one; it is answered in `X-Request-ID` and is on every log line written while the request runs."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from starlette.types import Scope

from fanshot.api.metrics import UNMATCHED, Metrics

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
SANE_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")  # what is safe to copy into logs and headers
access_log = logging.getLogger("fanshot.access")


def route_template(scope: Scope) -> str:
    """The path of the route that answered (`/v1/recognitions/{recognition_id}`), not the path asked for."""
    route = scope.get("route")
    return getattr(route, "path", None) or UNMATCHED


def request_id_of(headers: Mapping[bytes, bytes]) -> str:
    """The client's `X-Request-ID` when it is sane, else a new one (`headers`: the request's, by lower-case name)."""
    sent = headers.get(b"x-request-id")
    if sent is not None:
        text = sent.decode("latin-1")
        if SANE_ID.fullmatch(text):
            return text
    return uuid.uuid4().hex


def record_request(metrics: Metrics, scope: Scope, status: int, seconds: float) -> None:
    """The request's metrics and, with --access-log, its access line."""
    route = route_template(scope)
    metrics.request(scope["method"], route, status, seconds)
    if access_log.isEnabledFor(logging.INFO):  # --access-log; else its fields are not even gathered
        access_log.info("%s %s %d", scope["method"], scope["path"], status, extra={
            "method": scope["method"], "path": scope["path"], "route": route, "status": status,
            "duration_ms": round(seconds * 1000, 1), "client": (scope.get("client") or ("", 0))[0]})


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


# Attributes every LogRecord has; anything else on a record came from `extra=` and goes into the JSON line.
STANDARD_ATTRIBUTES = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, pid (which worker), message, request_id, the record's extras,
    any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name, "pid": record.process,
            "message": record.getMessage()}
        line.update({key: value for key, value in vars(record).items()
                     if key not in STANDARD_ATTRIBUTES and key != "color_message"})
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


JsonFormatter.converter = time.gmtime


def log_config(log_format: str, access: bool) -> dict[str, Any]:
    """`logging.config.dictConfig` for the server: uvicorn's own messages and, if `access`, one access line per
    request, as JSON lines or as text, each with its request id."""
    formatter = ({"()": JsonFormatter} if log_format == "json" else
                 {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"})
    return {
        "version": 1, "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"default": formatter},
        "handlers": {"default": {"class": "logging.StreamHandler", "formatter": "default",
                                 "filters": ["request_id"], "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.access": {"handlers": [], "propagate": False},  # replaced by fanshot.access
            "fanshot.access": {"handlers": ["default"], "level": "INFO" if access else "WARNING",
                               "propagate": False},
            "fanshot.api": {"handlers": ["default"], "level": "INFO", "propagate": False},
        },
    }
