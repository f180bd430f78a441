"""Every JSON body passes one check at the boundary, before a route or a schema sees it (issue 53: nesting 500-980
deep, lone surrogates and NaN each reached code that answered 500). A body is parsed by orjson, which refuses
NaN, Infinity, numbers beyond a double's range and lone surrogates, and nests at most MAX_JSON_DEPTH deep. A
refused body is parsed again, leniently, only to name the field at fault; no refusal repeats the bad value.

Routers whose routes take a JSON body use `CheckedJsonRoute` (tests/api/test_bodies.py holds every such route to
it); POST /v1/score reads its body itself, through `checked_json`."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

# The deepest request the API documents is 4 levels (a confirmation's tiles[i].box, a hand's melds[i].tiles); a
# limit well above it, and far below where parsing or validating recurses too deep (about 1000).
MAX_JSON_DEPTH = 32


class BadBody(HTTPException):
    """A body refused at the boundary: 422 with `code`, a message, and the field at fault where there is one. An
    HTTPException, so that FastAPI's body parsing passes it on as it is (api/errors.py answers it)."""

    def __init__(self, code: str, message: str, field: str = "") -> None:
        super().__init__(422, message)
        self.item = {"code": code, "message": message, **({"detail": {"field": field}} if field else {})}


def checked_json(body: bytes) -> Any:
    """The body's JSON value, or BadBody: not JSON, too deep, a number that is not finite, a lone surrogate."""
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise refusal_of(body, str(error)) from None
    if (field := too_deep(value)) is not None:
        raise BadBody("too_deep", f"{field or 'the body'}: nested more than {MAX_JSON_DEPTH} levels deep; no request "
                      f"nests deeper than 4 (send the documented shape)", field)
    return value


def too_deep(value: Any) -> str | None:
    """None if `value` nests at most MAX_JSON_DEPTH deep, else the top-level field ('' for the body) that nests
    deeper. Iterative: no recursion, however deep the value."""
    stack = [(value, 1, "")]
    while stack:
        node, depth, top = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return top
        if isinstance(node, dict):
            stack.extend((child, depth + 1, top or key) for key, child in node.items())
        elif isinstance(node, list):
            stack.extend((child, depth + 1, top) for child in node)
    return None


def refusal_of(body: bytes, parse_error: str) -> BadBody:
    """Why orjson refused `body`, with the field at fault where the lenient json module can find it."""
    try:
        value = json.loads(body)
    except RecursionError:
        return BadBody("too_deep", f"the body nests more than {MAX_JSON_DEPTH} levels deep; no request nests "
                       "deeper than 4 (send the documented shape)")
    except ValueError:  # not JSON at all (UnicodeDecodeError is one)
        return BadBody("bad_request", f"the body is not JSON: {parse_error}")
    for field, node in leaves(value):
        if isinstance(node, float) and not math.isfinite(node):
            return BadBody("bad_number", f"{field or 'the body'}: a number must be finite (JSON has no NaN or "
                           "Infinity, and a double ends near 1.8e308)", field)
        if isinstance(node, str) and not is_text(node):
            return BadBody("bad_text", f"{field or 'the body'}: the text holds a lone surrogate (\\ud800-\\udfff "
                           "escaped alone), which is no character; send UTF-8 text", field)
    return BadBody("bad_request", f"the body is JSON the server cannot read: {parse_error}")


def leaves(value: Any) -> Iterator[tuple[str, Any]]:
    """Every value and key in `value` with its field path (`hand.melds[0].tiles`), keys as strings of their own."""
    stack = [("", value)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if isinstance(node, dict):
            for key, child in node.items():
                named = f"{path}.{key}".lstrip(".") if is_text(key) else path
                stack += [(path, key), (named, child)]
        elif isinstance(node, list):
            stack.extend((f"{path}[{index}]", child) for index, child in enumerate(node))


def is_text(text: str) -> bool:
    return text.isascii() or not any("\ud800" <= char <= "\udfff" for char in text)


class CheckedJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = checked_json(await self.body())
        return self._json


class CheckedJsonRoute(APIRoute):
    """A route whose JSON body is read by `checked_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            return await handler(CheckedJsonRequest(request.scope, request.receive))

        return checked
