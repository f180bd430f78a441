"""POST /v1/analyse: what a hand waits on and what each wait is worth, or which discard is best."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.errors import scorer_refusals
from api.models import AnalyseRequest, AnalyseResponse
from scoring.analysis import analyse as analyse_hand

router = APIRouter()


@router.post("/v1/analyse", response_model=AnalyseResponse)
def analyse(request: AnalyseRequest) -> JSONResponse:
    # A plain def: a 14-tile analysis scores every wait of every discard (milliseconds of CPU), so it runs in
    # the thread pool rather than holding the event loop.
    with scorer_refusals():
        return JSONResponse(analyse_hand(request.as_scorer_input()))
