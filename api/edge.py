"""The app's one middleware, around every route (streaming ones included): each request passes the concerns below
in this order, each a function in its own module. One ASGI layer, not one per concern: each layer wrapped the
request and the answer's sending again (four layers cost /v1/score ~0.01 ms a request more: BENCHMARKS.md, issue 36).

- request id, metrics and access log (api/observability.py): every answer, refusals and 500s included;
- who may ask, and the security headers on every answer (api/security.py);
- the body limit (api/limits.py);
- an unexpected exception answered 500 here, with those headers and the id (api/errors.py).
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanshot.api.errors import internal_error
from fanshot.api.limits import limited, too_large
from fanshot.api.metrics import Metrics
from fanshot.api.observability import REQUEST_ID, record_request, request_id_of
from fanshot.api.security import Security, refusal_of, security_headers


class Edge:
    """`body_limit` bytes for every request body; `uploads` maps (method, path) to a larger limit."""

    def __init__(self, app: ASGIApp, *, security: Security, metrics: Metrics, body_limit: int,
                 uploads: dict[tuple[str, str], int]) -> None:
        self.app, self.security, self.metrics = app, security, metrics
        self.body_limit, self.uploads = body_limit, uploads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(reversed(scope["headers"]))  # by name, the first of each as Starlette's: read once, here
        request_id = request_id_of(headers)
        REQUEST_ID.set(request_id)
        start = time.perf_counter()
        added_headers = [*security_headers(scope["path"]), (b"x-request-id", request_id.encode("latin-1"))]
        status, started = 500, False  # unless the app starts an answer

        async def send_with_headers(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                status, started = message["status"], True
                message["headers"] = [*message.get("headers", ()), *added_headers]
            await send(message)

        try:
            limit = self.uploads.get((scope["method"], scope["path"]), self.body_limit)
            answer = refusal_of(self.security, scope, headers) or too_large(limit, headers)
            if answer is not None:
                await answer(scope, receive, send_with_headers)
                return
            try:
                await self.app(scope, limited(receive, limit), send_with_headers)
            except Exception:
                if started:  # part of an answer is out: only closing the connection can tell the client
                    raise
                await internal_error()(scope, receive, send_with_headers)
        finally:
            record_request(self.metrics, scope, status, time.perf_counter() - start)
