"""The tile vocabulary: every detector class with its Chinese and English name, from scoring/tiles.py, so the
page (and any client) names tiles exactly as the scorer does."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from fanshot.api.schemas.reference import TileName
from fanshot.scoring.tiles import DETECTOR_CLASSES, names

TILE_NAMES = [{"code": code, "zh": names(code)[0], "en": names(code)[1]} for code in DETECTOR_CLASSES]
router = APIRouter(prefix="/v1/tiles", tags=["tiles"])


@router.get("", response_model=list[TileName])
async def tiles() -> JSONResponse:
    return JSONResponse(TILE_NAMES, headers={"Cache-Control": "public, max-age=3600"})
