"""For operators: Prometheus metrics and the readiness check (models loaded, database and image store
reachable) that a load balancer or orchestrator asks before sending an instance traffic."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from fanshot.api.dependencies import MetricsDep, StoreDep
from fanshot.api.errors import error_responses, errors
from fanshot.api.schemas.reference import Ready

log = logging.getLogger(__name__)
router = APIRouter(tags=["operations"])


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}})
def metrics(metrics: MetricsDep) -> Response:
    return Response(metrics.exposition(), media_type=metrics.content_type)


@router.get("/readyz", response_model=Ready, responses=error_responses(503))
def readyz(request: Request, store: StoreDep, metrics: MetricsDep) -> JSONResponse:
    """200 when this instance can serve everything; 503 with one error per part that cannot."""
    failures, version = [], None
    try:
        version = request.app.state.load_models()
        metrics.model_loaded(version)
    except Exception as error:  # noqa: BLE001 - any failure means not ready, and is reported
        failures.append(("models", error))
    for part, check in (("database", store.check_database), ("images", store.check_images)):
        try:
            check()
        except Exception as error:  # noqa: BLE001
            failures.append((part, error))
    if failures:
        for part, error in failures:
            log.warning("not ready: %s: %r", part, error)
        # the log has the details; an unauthenticated answer must not show paths or hosts (issue 36)
        return errors(503, *({"code": f"{part}_unavailable", "message": f"{part}: unavailable "
                              f"({type(error).__name__}; the server's log says why)"} for part, error in failures))
    return JSONResponse({"status": "ready", "model_version": version})
