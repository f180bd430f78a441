"""The tile vocabulary: every detector class with its Chinese (Simplified, Traditional) and English name, from
scoring/tiles.py, so the page (and any client) names tiles exactly as the scorer does."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from fanshot.api.schemas.reference import TileName
from fanshot.scoring.tiles import DETECTOR_CLASSES, name_hant, names

TILE_NAMES = [{"code": code, "zh": names(code)[0], "zh_hant": name_hant(code), "en": names(code)[1]}
              for code in DETECTOR_CLASSES]
router = APIRouter(prefix="/v1/tiles", tags=["tiles"])


@router.get("", response_model=list[TileName])
async def tiles() -> JSONResponse:
    return JSONResponse(TILE_NAMES, headers={"Cache-Control": "public, max-age=3600"})
