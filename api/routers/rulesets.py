"""The rule sets the scorer knows, with their options and fans."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from fanshot import scoring
from fanshot.api.errors import error_responses, scorer_refusals
from fanshot.api.schemas.reference import RulesetDetails, RulesetSummary

router = APIRouter(prefix="/v1/rulesets", tags=["rulesets"])


@router.get("", response_model=list[RulesetSummary])
async def rulesets() -> JSONResponse:
    return JSONResponse(scoring.ruleset_summaries())


@router.get("/{name}", response_model=RulesetDetails, responses=error_responses(404))
async def ruleset(name: str) -> JSONResponse:
    with scorer_refusals(unknown_ruleset=404):
        return JSONResponse(scoring.ruleset_details(name))
