"""QR codes as SVG (segno): a game's link and the page's own address, for another phone's camera at the table.

Made on the server rather than in the page: segno already draws the terminal's QR code at start-up, so one library
does both; a QR code of the server's address is of no use offline, when the page could draw it but nobody could
open it."""

from __future__ import annotations

import io
from typing import Annotated

import segno
from fastapi import APIRouter, Query
from fastapi.responses import Response

from fanshot.api.errors import error_responses

MAX_TEXT = 1024  # a link with a game's id is under 100 characters
router = APIRouter(prefix="/v1/qr", tags=["qr"])


def qr_svg(text: str) -> bytes:
    """`text` as a QR code in SVG: black modules on white with the quiet zone the standard asks for (4 modules),
    scaled by the page (viewBox), its title the text itself."""
    svg = io.BytesIO()
    segno.make(text, error="m").save(svg, kind="svg", scale=1, border=4, dark="#000", light="#fff", xmldecl=False,
                                     svgns=True, title=text, omitsize=True)
    return svg.getvalue()


@router.get("", responses={200: {"content": {"image/svg+xml": {}}}, **error_responses(422)},
            response_class=Response)
def qr(text: Annotated[str, Query(min_length=1, max_length=MAX_TEXT, description="what the code says: a link")]):
    return Response(qr_svg(text), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})
