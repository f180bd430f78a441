"""POST /v1/score: the scorer behind HTTP. The scorer's parser is the one validator of a score request."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request, Response

from fanshot import scoring
from fanshot.api.bodies import checked_json
from fanshot.api.errors import Refusal, scorer_refusals
from fanshot.api.schemas.common import inline_schema
from fanshot.api.schemas.scoring import ScoreRequest, ScoreResponse, scorer_input

# The body is read as JSON here rather than by FastAPI's body parameter, which checked the content type with the
# email package and decoded with the json module: a third of the route's HTTP cost (BENCHMARKS.md, issue 36).
SCORE_BODY = {"required": True, "content": {"application/json": {"schema": inline_schema(ScoreRequest)}}}
router = APIRouter(prefix="/v1/score", tags=["score"])


def json_body(content_type: str | None, body: bytes) -> Any:
    """A request body sent as JSON (no content type, `application/json` or `application/...+json`), decoded."""
    media = (content_type or "application/json").partition(";")[0].strip().lower()
    if not (media.startswith("application/") and (media == "application/json" or media.endswith("+json"))):
        raise Refusal(422, "bad_request", f"the body is {media}; send the request as JSON "
                      "(Content-Type: application/json)")
    if not body:
        raise Refusal(422, "bad_request", "the body is empty; send the score request as a JSON object")
    return checked_json(body)


@router.post("", response_model=ScoreResponse, openapi_extra={"requestBody": SCORE_BODY})
async def score(request: Request) -> Response:
    # Runs on the event loop: scoring is short pure-Python CPU work, so a thread hop would only add latency.
    # The scorer's answer goes out as it is, encoded by orjson (a tenth of the json module's time), not
    # re-validated on every request: the tests check it against ScoreResponse.
    score_request = json_body(request.headers.get("content-type"), await request.body())
    with scorer_refusals():
        answer = scoring.score(scorer_input(score_request))
    return Response(orjson.dumps(answer, option=orjson.OPT_NON_STR_KEYS), media_type="application/json")
