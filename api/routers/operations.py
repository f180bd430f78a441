"""For operators: Prometheus metrics and the readiness check (models loaded, database and image store
reachable) that a load balancer or orchestrator asks before sending an instance traffic."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from fanshot.api.dependencies import MetricsDep
from fanshot.api.errors import error_responses, errors
from fanshot.api.readiness import Readiness
from fanshot.api.schemas.reference import Ready
from fanshot.api.storage.model_versions import BASE

log = logging.getLogger(__name__)
MODELS_WAIT_SECONDS = 30.0
router = APIRouter(tags=["operations"])


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}})
def metrics(metrics: MetricsDep) -> Response:
    return Response(metrics.exposition(), media_type=metrics.content_type)


@router.get("/readyz", response_model=Ready, responses=error_responses(503))
def readyz(request: Request) -> JSONResponse:
    """200 when this instance can serve everything; 503 with one error per part that cannot (api/readiness.py)."""
    outcomes = request.app.state.readiness.outcomes()
    failures = [(part, error) for part, (_, error) in outcomes.items() if error is not None]
    if failures:
        for part, error in failures:
            log.warning("not ready: %s: %r", part, error)
        # the log has the details; an unauthenticated answer must not show paths or hosts (issue 36)
        return errors(503, *({"code": f"{part}_unavailable", "message": f"{part}: unavailable "
                              f"({type(error).__name__}; the server's log says why)"} for part, error in failures))
    return JSONResponse({"status": "ready", "model_version": outcomes["models"][0]})


def readiness_checks(state: Any) -> Readiness:
    """The app's readiness parts, each read from `state` (the app's) when it is checked."""
    def models() -> str:
        active = state.model_versions.check_active()  # its files here, or ModelFilesMissing
        version = state.load_models() if active == BASE else active  # the version recognitions use now
        state.metrics.model_loaded(version)
        return version

    # Loading the shipped models is this process's own work, seconds on the first ask: waited for
    return Readiness({"models": models, "database": lambda: state.store.check_database(),
                      "images": lambda: state.store.check_images()}, waits={"models": MODELS_WAIT_SECONDS})
