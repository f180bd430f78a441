"""The HTTP API and web page (DESIGN.md). Routes are thin: parse, call a library function, shape the answer.
Every error is `{"errors": [{"code", "message"}]}`; nothing internal ever reaches a client."""

from __future__ import annotations

import io
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import fastapi_offline
import numpy as np
from fastapi import FastAPI, File, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from PIL import Image
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException

import scoring
from api.export import export_yolo_zip
from api.limits import BodyLimit
from api.models import (
    Confirmation,
    ErrorResponse,
    Health,
    Recognition,
    RulesetDetails,
    RulesetSummary,
    ScoreRequest,
    ScoreResponse,
    StoredConfirmation,
)
from api.store import Store
from scoring.errors import ScoringError
from scoring.tiles import parse
from vision.image import RECOGNITION_MAX_SIDE, PhotoError, load_photo

MAX_BODY_BYTES = 20 * 1024 * 1024
STATIC = Path(__file__).parent / "static"
# Swagger UI and ReDoc from the files fastapi-offline ships rather than a CDN: /docs works with no internet.
DOCS_ASSETS, DOCS_ASSETS_URL = Path(fastapi_offline.__file__).parent / "static", "/docs-assets"
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
# OpenAPI links: what a client (or schemathesis's stateful phase) may do with a new recognition's id.
RECOGNITION_LINKS = {operation: {"operationId": operation, "parameters": {"recognition_id": "$response.body#/id"}}
                     for operation in ("get_recognition", "get_image", "confirm")}

PhotoUpload = Annotated[UploadFile, File(description="the photo: JPEG, PNG, WebP…, at most 20 MB")]
Recognizer = Callable[[np.ndarray], dict[str, Any]]
log = logging.getLogger(__name__)


class Refusal(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def errors(status: int, *items: dict[str, str]) -> JSONResponse:
    return JSONResponse({"errors": list(items)}, status_code=status)


def model_recognizer(image: np.ndarray) -> dict[str, Any]:
    # Imported on first use: it loads ONNX Runtime and the model, which scoring-only use never needs.
    from vision.recognize import recognize

    return recognize(image)


def media_type(photo: bytes) -> tuple[str, str]:
    """MIME type and file suffix of a photo load_photo has accepted."""
    image = Image.open(io.BytesIO(photo))
    suffix = {"JPEG": ".jpg", "TIFF": ".tif"}.get(image.format or "", f".{(image.format or 'bin').lower()}")
    return image.get_format_mimetype() or "application/octet-stream", suffix


def check_confirmation(confirmation: Confirmation, image: dict[str, int]) -> None:
    """Refuse boxes outside the photo and hand strings that are not tile notation (ScoringError bad_tile)."""
    width, height = image["width"], image["height"]
    for index, tile in enumerate(confirmation.tiles):
        x1, y1, x2, y2 = tile.box
        if not (0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height):
            raise Refusal(422, "bad_box", f"tiles[{index}].box {list(tile.box)} is not a box inside the "
                           f"{width}×{height} photo ([x1, y1, x2, y2] with x1 < x2, y1 < y2)")
    hand = confirmation.hand
    parse(hand.concealed, field="hand.concealed")
    parse(hand.winning_tile, field="hand.winning_tile")
    parse(hand.flowers or "", field="hand.flowers", allow_flowers=True)
    for index, meld in enumerate(hand.melds or []):
        parse(meld.tiles, field=f"hand.melds[{index}].tiles")


@contextmanager
def scorer_refusals(*, unknown_ruleset: int = 422) -> Iterator[None]:
    """The scorer's refusals as API errors: 422, or `unknown_ruleset` where the name is the resource asked for."""
    try:
        yield
    except ScoringError as error:
        status = unknown_ruleset if error.code == "unknown_ruleset" else 422
        raise Refusal(status, error.code, error.message) from None


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Refusal)
    async def api_error(_: Request, error: Refusal) -> JSONResponse:
        return errors(error.status, {"code": error.code, "message": error.message})

    @app.exception_handler(PhotoError)
    async def photo_error(_: Request, error: PhotoError) -> JSONResponse:
        return errors(422, {"code": error.code, "message": error.message})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        return errors(422, *({"code": "bad_request", "message": describe(item)} for item in error.errors()))

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        if error.status_code == 400:  # a body FastAPI cannot even decode (bad UTF-8, broken multipart)
            return errors(422, {"code": "bad_request", "message": str(error.detail)})
        code = HTTP_CODES.get(error.status_code, f"http_{error.status_code}")
        response = errors(error.status_code, {"code": code, "message": str(error.detail)})
        response.headers.update(error.headers or {})  # e.g. Allow, on a 405
        return response

    @app.exception_handler(Exception)
    async def internal_error(_: Request, error: Exception) -> JSONResponse:
        # Starlette re-raises the exception after this answer, so the server log gets the traceback.
        return errors(500, {"code": "internal", "message": "internal error; the server log has the details"})


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


def describe(item: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
    return f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg", "invalid"))


def create_app(data_dir: Path, *, recognize: Recognizer = model_recognizer) -> FastAPI:
    store = Store(data_dir)
    # Each recognition already runs ONNX Runtime on two threads; more at once would only thrash the cores
    # and hold more decoded photos in memory, so the rest wait their turn.
    recognition_slots = threading.BoundedSemaphore(max(1, (os.cpu_count() or 2) // 2))
    app = FastAPI(title="Fanshot", version="0.1.0", generate_unique_id_function=lambda route: route.name,
                  description="Read a photo of a Guangdong mahjong hand, confirm it, score it.",
                  docs_url=None, redoc_url=None,  # install_docs serves both without a CDN
                  responses={422: {"model": ErrorResponse}, 500: {"model": ErrorResponse}})
    install_error_handlers(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_docs(app)

    def found(value: Any, what: str, recognition_id: str) -> Any:
        if value is None:
            raise Refusal(404, "not_found", f"no {what} with id {recognition_id!r}")
        return value

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/healthz")
    async def healthz() -> Health:
        return Health(status="ok")

    @app.post("/v1/recognitions", status_code=201, response_model=Recognition,
              responses={201: {"links": RECOGNITION_LINKS}, 413: {"model": ErrorResponse},
                         503: {"model": ErrorResponse}})
    def create_recognition(photo: PhotoUpload) -> JSONResponse:
        data = photo.file.read()
        with recognition_slots:
            pixels = load_photo(data, max_side=RECOGNITION_MAX_SIDE)
            try:
                result = recognize(pixels)
            except (ModuleNotFoundError, FileNotFoundError) as missing:
                log.error("recognizer unavailable: %s", missing)
                raise Refusal(503, "model_unavailable", "the tile recognizer is not installed on this server") \
                    from missing
        stored = store.add_recognition(result, data, *media_type(data))
        return JSONResponse({**stored, "confirmation": None}, status_code=201,
                            headers={"Location": f"/v1/recognitions/{stored['id']}"})

    @app.get("/v1/recognitions/{recognition_id}", response_model=Recognition,
             responses={404: {"model": ErrorResponse}})
    def get_recognition(recognition_id: str) -> JSONResponse:
        return JSONResponse(found(store.recognition(recognition_id), "recognition", recognition_id))

    @app.get("/v1/recognitions/{recognition_id}/image", response_class=FileResponse,
             responses={404: {"model": ErrorResponse}, 200: {"content": {"image/*": {}}}})
    def get_image(recognition_id: str) -> FileResponse:
        path, media = found(store.image(recognition_id), "recognition", recognition_id)
        return FileResponse(path, media_type=media, headers={"Cache-Control": "private, max-age=31536000"})

    @app.put("/v1/recognitions/{recognition_id}/confirmation", response_model_exclude_none=True,
             responses={404: {"model": ErrorResponse}})
    def confirm(recognition_id: str, confirmation: Confirmation) -> StoredConfirmation:
        recognition = found(store.recognition(recognition_id), "recognition", recognition_id)
        with scorer_refusals():
            check_confirmation(confirmation, recognition["image"])
        stored = store.confirm(recognition_id, confirmation.model_dump(exclude_none=True))
        return StoredConfirmation.model_validate(found(stored, "recognition", recognition_id))

    @app.post("/v1/score", response_model=ScoreResponse)
    async def score(request: ScoreRequest) -> JSONResponse:
        # Runs on the event loop: scoring is short pure-Python CPU work, so a thread hop would only add
        # latency. JSONResponse skips re-validating the scorer's own answer.
        with scorer_refusals():
            return JSONResponse(scoring.score(request.as_scorer_input()))

    @app.get("/v1/rulesets", response_model=list[RulesetSummary])
    async def rulesets() -> JSONResponse:
        return JSONResponse(scoring.ruleset_summaries())

    @app.get("/v1/rulesets/{name}", response_model=RulesetDetails, responses={404: {"model": ErrorResponse}})
    async def ruleset(name: str) -> JSONResponse:
        with scorer_refusals(unknown_ruleset=404):
            return JSONResponse(scoring.ruleset_details(name))

    @app.get("/v1/datasets/export", response_class=FileResponse,
             responses={200: {"content": {"application/zip": {}}, "description": "a YOLO dataset zip"}})
    def export(format: Literal["yolo"] = "yolo") -> FileResponse:  # noqa: A002 - the documented query name
        scratch = Path(tempfile.mkdtemp(prefix="fanshot-export-"))
        try:
            export_yolo_zip(store.examples(), scratch / "fanshot-yolo.zip")
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        return FileResponse(scratch / "fanshot-yolo.zip", media_type="application/zip", filename="fanshot-yolo.zip",
                            background=BackgroundTask(shutil.rmtree, scratch, ignore_errors=True))

    return app
