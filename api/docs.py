"""/docs (Swagger UI) and /redoc from the files fastapi-offline ships rather than a CDN: they work offline."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

DOCS_ASSETS, DOCS_ASSETS_URL = Path(fastapi_offline.__file__).parent / "static", "/docs-assets"


def install_docs(app: FastAPI) -> None:
    """/docs (Swagger UI) and /redoc, every asset served from DOCS_ASSETS_URL."""
    app.mount(DOCS_ASSETS_URL, StaticFiles(directory=DOCS_ASSETS), name="docs-assets")

    def urls(request: Request) -> tuple[str, str]:
        root = request.scope.get("root_path", "").rstrip("/")  # behind a proxy's path prefix
        return f"{root}{app.openapi_url}", f"{root}{DOCS_ASSETS_URL}"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        openapi, assets = urls(request)
        return get_swagger_ui_html(openapi_url=openapi, title=f"{app.title} - Swagger UI",
                                   swagger_js_url=f"{assets}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{assets}/swagger-ui.css",
                                   swagger_favicon_url=f"{assets}/favicon.png")

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        openapi, assets = urls(request)
        return get_redoc_html(openapi_url=openapi, title=f"{app.title} - ReDoc", with_google_fonts=False,
                              redoc_js_url=f"{assets}/redoc.standalone.js",
                              redoc_favicon_url=f"{assets}/favicon.png")
