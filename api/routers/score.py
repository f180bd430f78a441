"""POST /v1/score: the scorer behind HTTP. The scorer's parser is the one validator of a score request."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Body, Response

from fanshot import scoring
from fanshot.api.errors import scorer_refusals
from fanshot.api.models import ScoreRequestJSON, ScoreResponse, scorer_input

router = APIRouter()

@router.post("/v1/score", response_model=ScoreResponse)
async def score(request: Annotated[ScoreRequestJSON, Body()]) -> Response:
    # Runs on the event loop: scoring is short pure-Python CPU work, so a thread hop would only add latency.
    # The scorer's answer goes out as it is, encoded by orjson (a tenth of the json module's time), not
    # re-validated on every request: the tests check it against ScoreResponse.
    with scorer_refusals():
        answer = scoring.score(scorer_input(request))
    return Response(orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS), media_type="application/json")
