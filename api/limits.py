"""Request body limit: 413 at once when Content-Length is too big, or as soon as the bytes read pass the limit
(a client may lie about, or omit, Content-Length)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    # An HTTPException, so FastAPI's body parsing re-raises it as is and the app's handler answers it.
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit // (1024 * 1024)} MB")


class BodyLimit:
    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if declared_length(scope) > self.limit:
            error = BodyTooLarge(self.limit)
            response = JSONResponse({"errors": [{"code": "too_large", "message": error.detail}]}, 413,
                                    headers={"Connection": "close"})  # the unread body is not wanted
            await response(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, limited_receive, send)


def declared_length(scope: Scope) -> int:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0

