"""POST /v1/analyse: what a hand waits on and what each wait is worth, or which discard is best. Its request is a
score request (api.schemas.scoring.ScoreRequest) whose hand may leave out the winning tile."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from fanshot.api.bodies import CheckedJsonRoute
from fanshot.api.errors import scorer_refusals
from fanshot.api.schemas.scoring import AnalyseRequestJSON, AnalyseResponse, scorer_input
from fanshot.scoring.analysis import analyse as analyse_hand

router = APIRouter(prefix="/v1/analyse", tags=["analyse"], route_class=CheckedJsonRoute)


@router.post("", response_model=AnalyseResponse)
def analyse(request: Annotated[AnalyseRequestJSON, Body()]) -> JSONResponse:
    """13 tiles: how far from ready (`shanten`), and when ready every winning tile with the tiles left and its fan
    and points by self-draw and by discard, else the tiles that help. 14 tiles without `winning_tile`: every
    discard, best first, with what it leaves. Every value is the scorer's (POST /v1/score)."""
    # A plain def: a 14-tile analysis scores every wait of every discard (milliseconds of CPU), so it runs in
    # the thread pool rather than holding the event loop. Null means "not given", as in a score request.
    with scorer_refusals():
        return JSONResponse(analyse_hand(scorer_input(request)))
