"""Request body limits: 413 at once when Content-Length is too big, or as soon as the bytes read pass the limit
(a client may lie about, or omit, Content-Length). One limit for every request, larger ones for named uploads."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    # An HTTPException, so FastAPI's body parsing re-raises it as is and the app's handler answers it.
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {size_text(limit)}")


def size_text(size: int) -> str:
    return f"{size // (1024 * 1024)} MB" if size >= 1024 * 1024 else f"{size // 1024} KB"


class BodyLimit:
    """`limit` bytes for every request body; `uploads` maps (method, path) to a larger limit."""

    def __init__(self, app: ASGIApp, limit: int, uploads: dict[tuple[str, str], int] | None = None) -> None:
        self.app, self.default, self.uploads = app, limit, uploads or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.uploads.get((scope["method"], scope["path"]), self.default)
        if declared_length(scope) > limit:
            error = BodyTooLarge(limit)
            response = JSONResponse({"errors": [{"code": "too_large", "message": error.detail}]}, 413,
                                    headers={"Connection": "close"})  # the unread body is not wanted
            await response(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise BodyTooLarge(limit)
            return message

        await self.app(scope, limited_receive, send)


def declared_length(scope: Scope) -> int:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0

