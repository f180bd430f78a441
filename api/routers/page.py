"""The web page and the health check."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from fanshot.api.models import Health

STATIC = Path(__file__).resolve().parents[1] / "static"
# onnxruntime-web as `npm ci` installs it in a clone (the page's runtime.js takes the CDN's copy where it is absent)
RUNTIME = STATIC.parents[1] / "node_modules" / "onnxruntime-web" / "dist"
RUNTIME_PATH = "/static/vendor/onnxruntime-web"
router = APIRouter()


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/healthz")
async def healthz() -> Health:
    return Health(status="ok")
