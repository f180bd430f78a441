"""POST /v1/score: the scorer behind HTTP. The scorer's parser is the one validator of a score request."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse
from pydantic import WithJsonSchema

import scoring
from api.errors import scorer_refusals
from api.models import ScoreRequest, ScoreResponse, inline_schema

router = APIRouter()
# Any: FastAPI only decodes the JSON; the schema documents what the scorer's parser accepts.
ScoreBody = Annotated[Any, Body(), WithJsonSchema(inline_schema(ScoreRequest))]


def without_nulls(value: Any) -> Any:
    """A JSON object's null members dropped, at every depth: over HTTP, null means "not given"."""
    if isinstance(value, dict):
        return {key: without_nulls(item) for key, item in value.items() if item is not None}
    return value


@router.post("/v1/score", response_model=ScoreResponse)
async def score(request: ScoreBody) -> JSONResponse:
    # Runs on the event loop: scoring is short pure-Python CPU work, so a thread hop would only add
    # latency. JSONResponse skips re-validating the scorer's own answer (the tests check it against ScoreResponse).
    with scorer_refusals():
        return JSONResponse(scoring.score(without_nulls(request)))
