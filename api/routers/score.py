"""POST /v1/score: the scorer behind HTTP. The scorer's parser is the one validator of a score request."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Body, Response
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
async def score(request: ScoreBody) -> Response:
    # Runs on the event loop: scoring is short pure-Python CPU work, so a thread hop would only add latency.
    # The scorer's answer goes out as it is, encoded by orjson (a tenth of the json module's time), not
    # re-validated on every request: the tests check it against ScoreResponse.
    with scorer_refusals():
        answer = scoring.score(without_nulls(request))
    return Response(orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS), media_type="application/json")
