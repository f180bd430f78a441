"""The confirmed photos as a training dataset."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Literal

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.background import BackgroundTask

from api.dependencies import StoreDep
from api.export import export_yolo_zip

router = APIRouter()


@router.get("/v1/datasets/export", response_class=FileResponse,
            responses={200: {"content": {"application/zip": {}}, "description": "a YOLO dataset zip"}})
def export(store: StoreDep, format: Literal["yolo"] = "yolo") -> FileResponse:  # noqa: A002 - the documented name
    scratch = Path(tempfile.mkdtemp(prefix="fanshot-export-"))
    try:
        export_yolo_zip(store.examples(), scratch / "fanshot-yolo.zip")
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return FileResponse(scratch / "fanshot-yolo.zip", media_type="application/zip", filename="fanshot-yolo.zip",
                        background=BackgroundTask(shutil.rmtree, scratch, ignore_errors=True))
