"""The web page, its service worker and the health check."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from fanshot.api.errors import Refusal
from fanshot.api.schemas.reference import Health
from fanshot.api.tls import CA_FILE

STATIC = Path(__file__).resolve().parents[1] / "static"
# onnxruntime-web as `npm ci` installs it in a clone (the page's runtime.js takes the CDN's copy where it is absent)
RUNTIME = STATIC.parents[1] / "node_modules" / "onnxruntime-web" / "dist"
RUNTIME_PATH = "/static/vendor/onnxruntime-web"
router = APIRouter(tags=["page"])


@router.get("/", include_in_schema=False)
def page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


def worker_script(static: Path) -> str:
    """/sw.js for the page files in `static`: it precaches the page and every file under /static/, in a cache named
    by a hash of them all, so the browser installs a new worker (and drops the old cache) whenever a deploy
    changes any of them. The worker's code is static/serviceworker.js."""
    files = sorted(path for path in static.rglob("*") if path.is_file() and not path.name.startswith("."))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    build = {"version": digest.hexdigest()[:16],
             "precache": ["/", *(f"/static/{path.relative_to(static).as_posix()}" for path in files)]}
    return ('import { startWorker } from "/static/serviceworker.js";\n\n'
            f"startWorker(self, {json.dumps(build, indent=1)});\n")


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> Response:
    # written per request (under a millisecond), so it always names the files being served
    return Response(worker_script(STATIC), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})  # the browser asks each time whether a deploy changed it


@router.get("/ca.pem", include_in_schema=False)
def ca_certificate(request: Request) -> FileResponse:
    """The certificate of the CA that `fanshot serve --https` signs its certificate with: a phone that trusts it
    opens the server over https (the /trust page says how)."""
    path = request.app.state.tls_dir / CA_FILE
    if not path.is_file():
        raise Refusal(404, "no_certificate_authority", "this server makes no certificates of its own: start it with "
                      "`fanshot serve --https` (or use the certificate it was given with --cert)")
    # this type (and a .crt name) is what makes iOS offer to install it as a profile, and Android as a CA
    return FileResponse(path, media_type="application/x-x509-ca-cert", filename="fanshot-ca.crt")


@router.get("/trust", include_in_schema=False)
def trust_page() -> FileResponse:
    return FileResponse(STATIC / "trust.html")


@router.get("/healthz")
async def healthz() -> Health:
    return Health(status="ok")
