"""POST /v1/notation: the tiles of a hand typed in notation, read by the scorer's own parser, so that the page takes
a typed hand without a second grammar of its own (issue 35 item 14)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import WithJsonSchema

from fanshot.api.bodies import CheckedJsonRoute
from fanshot.api.errors import Refusal, error_responses, scorer_refusals
from fanshot.api.schemas.common import inline_schema
from fanshot.api.schemas.scoring import NotationRequest, NotationTiles
from fanshot.scoring.hand import tiles_from_notation

router = APIRouter(prefix="/v1/notation", tags=["notation"], route_class=CheckedJsonRoute)


@router.post("", response_model=NotationTiles, responses=error_responses(422))
async def notation(request: Annotated[Any, Body(), WithJsonSchema(inline_schema(NotationRequest))]) -> Any:
    text = request.get("text") if isinstance(request, dict) else None
    if not isinstance(text, str):
        raise Refusal(422, "bad_request", 'send {"text": "..."}: the hand typed in tile notation, a string',
                      detail={"field": "text"})
    with scorer_refusals():  # a bad tile is refused with its `position` in `text`
        return tiles_from_notation(text)
