"""The confirmed photos as a training dataset."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from fanshot.api.dependencies import StoreDep
from fanshot.api.storage.export import yolo_zip_stream

router = APIRouter(prefix="/v1/datasets", tags=["datasets"])


@router.get("/export", response_class=StreamingResponse,
            responses={200: {"content": {"application/zip": {}}, "description": "a YOLO dataset zip"}})
def export(store: StoreDep, format: Literal["yolo"] = "yolo") -> StreamingResponse:  # noqa: A002 - the documented name
    # Streamed as it is made, the photos read from the image store one by one (api/storage/export.py).
    return StreamingResponse(yolo_zip_stream(store.examples(), store.images), media_type="application/zip",
                             headers={"Content-Disposition": 'attachment; filename="fanshot-yolo.zip"'})
