"""POST /v1/score: the scorer behind HTTP."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

import scoring
from api.errors import scorer_refusals
from api.models import ScoreRequest, ScoreResponse

router = APIRouter()


@router.post("/v1/score", response_model=ScoreResponse)
async def score(request: ScoreRequest) -> JSONResponse:
    # Runs on the event loop: scoring is short pure-Python CPU work, so a thread hop would only add
    # latency. JSONResponse skips re-validating the scorer's own answer.
    with scorer_refusals():
        return JSONResponse(scoring.score(request.as_scorer_input()))
