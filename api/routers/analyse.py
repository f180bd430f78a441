"""POST /v1/analyse: what a hand waits on and what each wait is worth, or which discard is best. Its request is a
score request (api.schemas.scoring.ScoreRequest) whose hand may leave out the winning tile."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, WithJsonSchema

from fanshot.api.errors import scorer_refusals
from fanshot.api.schemas.scoring import Hand, Number, ScoreRequest, inline_schema, scorer_input
from fanshot.scoring.analysis import analyse as analyse_hand

router = APIRouter(prefix="/v1/analyse", tags=["analyse"])


class AnalyseHand(Hand):
    concealed: str = Field(description="standing tiles: 13 (waits), or 14 (discards), kongs counted as 3")
    winning_tile: str | None = Field(None, description="omitted: the analysis tries every tile")


class AnalyseRequest(ScoreRequest):
    """A score request whose hand has 13 tiles, or 14 without `winning_tile`. `context.win` and `discarder` are
    optional (every wait is valued both ways; the discarder defaults to the winner's previous seat); `special`,
    `horses`, `liable` and `kong_fed_by` describe a finished win and are refused."""

    hand: AnalyseHand


# Documented by its model, checked by the scorer's parser alone (as POST /v1/score): no second validator to coerce
# "3" into 3 where the scorer refuses it.
AnalyseRequestJSON = Annotated[Any, WithJsonSchema(inline_schema(AnalyseRequest))]


class WinValue(BaseModel):
    fan_total: Number
    points: Number = Field(description="as POST /v1/score's `points`")


class Useful(BaseModel):
    tile: str
    remaining: int = Field(description="4 minus the copies the hand and its melds show")


class Wait(Useful):
    self_draw: WinValue | None = Field(description="null: below the rule set's minimum fan")
    discard: WinValue | None = Field(description="null: the rule set allows no discard win, or below its minimum")


class Shanten(BaseModel):
    shanten: int = Field(description="-1 complete, 0 ready, n: n exchanges from ready")
    waits: list[Wait] | None = Field(None, description="when ready: every tile that completes the hand")
    useful: list[Useful] | None = Field(None, description="when not ready: every tile that lowers `shanten`")


class DiscardChoice(Shanten):
    discard: str


class AnalyseResponse(Shanten):
    ruleset: str
    tiles: int = Field(description="13 or 14, kongs counted as 3")
    discards: list[DiscardChoice] | None = Field(None, description="14 tiles: every discard, best first")


@router.post("", response_model=AnalyseResponse)
def analyse(request: Annotated[AnalyseRequestJSON, Body()]) -> JSONResponse:
    """13 tiles: how far from ready (`shanten`), and when ready every winning tile with the tiles left and its fan
    and points by self-draw and by discard, else the tiles that help. 14 tiles without `winning_tile`: every
    discard, best first, with what it leaves. Every value is the scorer's (POST /v1/score)."""
    # A plain def: a 14-tile analysis scores every wait of every discard (milliseconds of CPU), so it runs in
    # the thread pool rather than holding the event loop. Null means "not given", as in a score request.
    with scorer_refusals():
        return JSONResponse(analyse_hand(scorer_input(request)))
