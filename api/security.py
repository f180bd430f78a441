"""Who may use the server, and how its answers may be used (checked, and the headers added, for every route,
streaming ones included, by the app's edge middleware: api/edge.py).

- Host: only names of this server (localhost, this machine's addresses, names given with --allowed-host) are
  served: a page on another name that DNS points here (rebinding) gets 421, not the dataset.
- Cross-site writes: an unsafe method (POST, PUT, PATCH, DELETE) whose Origin is not this server, or that the
  browser marks `Sec-Fetch-Site: cross-site`, is refused (403): a plain form on another site cannot upload or
  confirm. Clients that are not browsers send neither header.
- Access token (optional, --token or FANSHOT_TOKEN): every request but /healthz and the service worker's code
  carries it, as `Authorization: Bearer TOKEN` (API clients) or the `fanshot_token` cookie, which opening the page
  once as `/?token=TOKEN` sets (the page's own requests then carry it).
- Security headers on every answer: nosniff, a Content-Security-Policy with frame-ancestors 'none', no referrer;
  the page's answers also make it cross-origin isolated (COOP + COEP) for the localiser's WASM threads.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import ipaddress
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.types import Scope

TOKEN_COOKIE = "fanshot_token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# /healthz for monitors; the page's service worker and the two modules it starts from, which browsers fetch without
# cookies (a module worker's scripts): its code and the page's file names, nothing of anyone's data
OPEN_PATHS = frozenset({"/healthz", "/sw.js", "/static/serviceworker.js", "/static/caching.js"})
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
RUNTIME_JS = Path(__file__).resolve().parent / "static" / "live" / "runtime.js"


def cdn_runtime(runtime_js: Path = RUNTIME_JS) -> str:
    """The jsDelivr folder of the pinned onnxruntime-web, as the page's runtime.js names it."""
    return re.search(r'CDN_RUNTIME = "(https://cdn\.jsdelivr\.net/npm/onnxruntime-web@[^"/]+/dist/)"',
                     runtime_js.read_text(encoding="utf-8")).group(1)


# The page loads its own scripts only, and onnxruntime-web (its own copy, else the pinned one from the CDN) with its
# WebAssembly; styles may be set inline by its scripts; photos preview from blob: URLs.
PAGE_POLICY = (f"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {cdn_runtime()}; "
               "style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; "
               f"connect-src 'self' {cdn_runtime()}; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
# Swagger UI and ReDoc start from an inline script.
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; worker-src blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")
COMMON_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                  (b"x-frame-options", b"DENY")]
# Cross-origin isolated, so that the page's localiser may run on several WASM threads (SharedArrayBuffer): it loads
# nothing but its own files and the CDN's runtime, which jsDelivr answers with CORS.
ISOLATION_HEADERS = [(b"cross-origin-opener-policy", b"same-origin"),
                     (b"cross-origin-embedder-policy", b"require-corp")]
PAGE_HEADERS = [*COMMON_HEADERS, *ISOLATION_HEADERS, (b"content-security-policy", PAGE_POLICY.encode())]
DOCS_HEADERS = [*COMMON_HEADERS, (b"content-security-policy", DOCS_POLICY.encode())]


def machine_addresses() -> set[str]:
    """This machine's addresses: those of its host name, and the one it reaches its network by (a phone on the
    home network opens the page at that one)."""
    addresses = set()
    with contextlib.suppress(OSError):
        addresses |= {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)}
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))  # a UDP connect sends nothing: it only picks the outgoing address
                addresses.add(udp.getsockname()[0])
        except OSError:
            continue
    return addresses


def default_hosts() -> set[str]:
    name = socket.gethostname()
    return {*LOCAL_NAMES, name, f"{name}.local", *machine_addresses()}


def host_name(netloc: str) -> str:
    """`example.org:8000` → `example.org`; `[::1]:8000` → `::1`; lower case."""
    try:
        return (urlsplit(f"//{netloc}").hostname or "").lower()
    except ValueError:
        return ""


@dataclass(frozen=True)
class Security:
    allowed_hosts: frozenset[str] = field(default_factory=lambda: frozenset(default_hosts()))
    token: str | None = None

    @classmethod
    def with_hosts(cls, extra: Iterable[str], token: str | None) -> Security:
        names = {name.strip().lower().strip("[]") for name in extra if name.strip()}
        return cls(frozenset(default_hosts() | names), token or None)

    def host_allowed(self, host: str) -> bool:
        return name_allowed(self.allowed_hosts, host)


@functools.lru_cache(maxsize=256)  # the same few Host headers each time: parsing one took as long as the other checks
def name_allowed(allowed_hosts: frozenset[str], host: str) -> bool:
    name = host_name(host)
    if name in allowed_hosts:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def refusal(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"errors": [{"code": code, "message": message}]}, status_code=status, headers=headers)


def refusal_of(security: Security, scope: Scope, headers: Mapping[bytes, bytes]) -> Response | None:
    """The answer to a request that may not pass (wrong host, cross-site write, no token), else None; `headers`:
    the request's, by lower-case name."""
    host = headers.get(b"host", b"").decode("latin-1")
    if not security.host_allowed(host):
        return refusal(421, "unknown_host", f"this server does not answer to the name {host_name(host)!r}; "
                       "start it with --allowed-host NAME to allow that name")
    if scope["method"] in UNSAFE_METHODS and cross_site(headers, host):
        return refusal(403, "cross_origin", "a request from another site may not change anything here")
    token = security.token
    if token is None or scope["path"] in OPEN_PATHS:
        return None
    offered = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [None])[0]
    if scope["path"] == "/" and offered is not None and hmac.compare_digest(offered, token):
        page = RedirectResponse("/", status_code=303)  # the token leaves the address bar and the history
        page.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict", secure=scope.get("scheme") == "https")
        return page
    if not any(hmac.compare_digest(candidate, token) for candidate in presented_tokens(headers)):
        return refusal(401, "unauthorized", "this server needs its access token: send `Authorization: Bearer "
                       "TOKEN`, or open the page once as /?token=TOKEN", **{"WWW-Authenticate": "Bearer"})
    return None


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer on `path` carries."""
    return DOCS_HEADERS if path in DOCS_PATHS else PAGE_HEADERS


def cross_site(headers: Mapping[bytes, bytes], host: str) -> bool:
    origin = headers.get(b"origin")
    if origin is not None:
        return origin == b"null" or urlsplit(origin.decode("latin-1")).netloc.lower() != host.lower()
    return headers.get(b"sec-fetch-site") == b"cross-site"


def presented_tokens(headers: Mapping[bytes, bytes]) -> list[str]:
    tokens = []
    scheme, _, credentials = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        tokens.append(credentials.strip())
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
    except CookieError:  # a malformed Cookie header carries no token
        return tokens
    if TOKEN_COOKIE in cookie:
        tokens.append(cookie[TOKEN_COOKIE].value)
    return tokens
