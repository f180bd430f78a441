"""Every error the API answers is `{"errors": [{"code", "message"}]}`; nothing internal ever reaches a client.
Routes raise `Refusal` (or a library's own error that a handler here maps); the handlers shape the answer."""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException

from fanshot.api.bodies import BadBody
from fanshot.api.observability import REQUEST_ID
from fanshot.api.schemas.common import ErrorResponse
from fanshot.api.storage.images import ImagesUnavailable, PhotoNotStored
from fanshot.api.storage.model_files import ModelFilesMissing
from fanshot.scoring.errors import ScoringError
from fanshot.vision.image import PhotoError

HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
# Storage faults an operator must fix (a full disk, a read-only mount, a failing device): the request was fine, so
# 503 and Retry-After, not 500 (issue 36). Any other OSError is a fault of ours, and stays a 500.
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EIO})
STORAGE_RETRY_SECONDS = "30"
log = logging.getLogger(__name__)


class Refusal(Exception):
    """A request the API refuses: HTTP `status`, a stable machine `code`, a message for people and, where a client
    needs it to word the refusal, `detail` (the scorer's: `field`, `reason` and values, docs/API.md "Errors")."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 detail: dict[str, Any] | None = None, beside: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}
        self.detail = detail or {}
        self.beside = beside or {}  # answered beside `errors`: e.g. a 412's current game

    def as_item(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **({"detail": self.detail} if self.detail else {})}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for the error statuses an operation may answer."""
    return {status: {"model": ErrorResponse} for status in statuses}


def errors(status: int, *items: dict[str, Any], headers: dict[str, str] | None = None,
           beside: dict[str, Any] | None = None) -> JSONResponse:
    return JSONResponse({"errors": list(items), **(beside or {})}, status_code=status, headers=headers)


@contextmanager
def scorer_refusals(*, unknown_ruleset: int = 422) -> Iterator[None]:
    """The scorer's refusals as API errors: 422, or `unknown_ruleset` where the name is the resource asked for."""
    try:
        yield
    except ScoringError as error:
        status = unknown_ruleset if error.code == "unknown_ruleset" else 422
        raise Refusal(status, error.code, error.message, detail=error.detail) from None


def field_path(item: dict[str, Any]) -> str:
    """A validation error's place in the body as the scorer names fields: `players[2]`, `box`."""
    parts = [part for part in item.get("loc", ()) if part != "body"]
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")


def describe(item: dict[str, Any]) -> str:
    where = field_path(item)
    return f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg", "invalid"))


def field_of(item: dict[str, Any]) -> dict[str, Any]:
    return {"detail": {"field": where}} if (where := field_path(item)) else {}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Refusal)
    async def refusal(_: Request, error: Refusal) -> JSONResponse:
        return errors(error.status, error.as_item(), headers=error.headers, beside=error.beside)

    @app.exception_handler(PhotoError)
    async def photo_error(_: Request, error: PhotoError) -> JSONResponse:
        return errors(422, {"code": error.code, "message": error.message})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        return errors(422, *({"code": "bad_request", "message": describe(item), **field_of(item)}
                             for item in error.errors()))

    @app.exception_handler(BadBody)
    async def bad_body(_: Request, error: BadBody) -> JSONResponse:
        return errors(422, error.item)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        if error.status_code == 400:  # a body FastAPI cannot even decode (bad UTF-8, broken multipart)
            return errors(422, {"code": "bad_request", "message": str(error.detail)})
        code = HTTP_CODES.get(error.status_code, f"http_{error.status_code}")
        # Headers such as Allow, on a 405
        return errors(error.status_code, {"code": code, "message": str(error.detail)}, headers=error.headers)

    @app.exception_handler(OSError)
    async def storage_fault(_: Request, error: OSError) -> JSONResponse:
        if error.errno not in STORAGE_ERRNOS:
            raise error  # on to the edge middleware (api/edge.py), which logs the traceback and answers 500
        log.warning("storage fault: %r", error)
        return storage_unavailable("its disk is full or read-only")

    @app.exception_handler(PhotoNotStored)
    async def photo_not_stored(_: Request, error: PhotoNotStored) -> JSONResponse:
        log.warning("image store: %s", error)
        return storage_unavailable("its image store does not answer, or refuses the photo")

    @app.exception_handler(ImagesUnavailable)
    async def images_unavailable(_: Request, error: ImagesUnavailable) -> JSONResponse:
        log.warning("image store: %s", error)
        return errors(503, {"code": "images_unavailable", "message": "the server cannot read photos or model "
                            "files now (its image store is busy or does not answer); try again later"},
                      headers={"Retry-After": STORAGE_RETRY_SECONDS})

    @app.exception_handler(ModelFilesMissing)
    async def model_files_missing(_: Request, error: ModelFilesMissing) -> JSONResponse:
        log.error("active model version: %s", error)
        return errors(503, {"code": "model_files_missing", "message": f"the files of the active model version "
                            f"{error.version_id} are missing from the server's image store: switch to another "
                            "version (PUT /v1/models/active), or restore its files"})

    @app.exception_handler(OperationalError)
    async def database_fault(_: Request, error: OperationalError) -> JSONResponse:
        log.warning("database fault: %r", error)
        return errors(503, {"code": "database_unavailable", "message": "the server's database cannot answer or "
                            "store now; try again later"}, headers={"Retry-After": STORAGE_RETRY_SECONDS})


def storage_unavailable(why: str) -> JSONResponse:
    return errors(503, {"code": "storage_unavailable", "message": f"the server cannot store photos now ({why}); "
                        "try again later"}, headers={"Retry-After": STORAGE_RETRY_SECONDS})


def internal_error() -> JSONResponse:
    """The 500 for the unexpected exception being handled, its traceback logged. Answered by the app's edge
    middleware (api/edge.py), not by Starlette's outermost ServerErrorMiddleware: so it gets the security headers
    and the request id, and the exception stops there, so that the server keeps the keep-alive connection (one
    that sees an exception closes it, and the client's next request fails too: issue 36)."""
    log.exception("internal error")
    return errors(500, {"code": "internal", "message": "internal error; the server log has the details "
                        f"(request id {REQUEST_ID.get() or '-'})"})
