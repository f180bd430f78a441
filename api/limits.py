"""Request body limits: 413 at once when Content-Length is too big, or as soon as the bytes read pass the limit
(a client may lie about, or omit, Content-Length). One limit for every request, larger ones for named uploads
(api/edge.py applies them)."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, Response
from starlette.types import Message, Receive


class BodyTooLarge(HTTPException):
    # An HTTPException, so FastAPI's body parsing re-raises it as is and the app's handler answers it.
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {size_text(limit)}")


def size_text(size: int) -> str:
    return f"{size // (1024 * 1024)} MB" if size >= 1024 * 1024 else f"{size // 1024} KB"


def too_large(limit: int, headers: Mapping[bytes, bytes]) -> Response | None:
    """A 413 for a body whose Content-Length is over `limit`, else None (the bytes are counted as they come:
    `limited`). `headers`: the request's, by lower-case name."""
    declared = headers.get(b"content-length", b"")
    if not (declared.isdigit() and int(declared) > limit):
        return None
    return JSONResponse({"errors": [{"code": "too_large", "message": BodyTooLarge(limit).detail}]}, 413,
                        headers={"Connection": "close"})  # the unread body is not wanted


def limited(receive: Receive, limit: int) -> Receive:
    """`receive`, raising BodyTooLarge as soon as the body's bytes pass `limit`."""
    received = 0

    async def limited_receive() -> Message:
        nonlocal received
        message = await receive()
        received += len(message.get("body", b""))
        if received > limit:
            raise BodyTooLarge(limit)
        return message

    return limited_receive
