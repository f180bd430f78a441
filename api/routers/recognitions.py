"""Recognitions: upload a photo and get the tiles read from it; the photo; the user's confirmation."""

from __future__ import annotations

import io
import logging
from typing import Annotated, Any

from fastapi import APIRouter, File, UploadFile
from fastapi.responses import FileResponse, JSONResponse
from PIL import Image

from api.dependencies import ModelVersionsDep, RecognitionSlotsDep, RecognizerDep, StoreDep
from api.errors import Refusal, error_responses, scorer_refusals
from api.models import Confirmation, Recognition, StoredConfirmation
from scoring.tiles import parse
from vision.image import RECOGNITION_MAX_SIDE, load_photo

PhotoUpload = Annotated[UploadFile, File(description="the photo: JPEG, PNG, WebP…, at most 20 MB")]
# OpenAPI links: what a client (or schemathesis's stateful phase) may do with a new recognition's id.
RECOGNITION_LINKS = {operation: {"operationId": operation, "parameters": {"recognition_id": "$response.body#/id"}}
                     for operation in ("get_recognition", "get_image", "confirm")}
log = logging.getLogger(__name__)
router = APIRouter()


def found(value: Any, recognition_id: str) -> Any:
    if value is None:
        raise Refusal(404, "not_found", f"no recognition with id {recognition_id!r}")
    return value


def media_type(photo: bytes) -> tuple[str, str]:
    """MIME type and file suffix of a photo load_photo has accepted."""
    image = Image.open(io.BytesIO(photo))
    suffix = {"JPEG": ".jpg", "TIFF": ".tif"}.get(image.format or "", f".{(image.format or 'bin').lower()}")
    return image.get_format_mimetype() or "application/octet-stream", suffix


def check_confirmation(confirmation: Confirmation, image: dict[str, int]) -> None:
    """Refuse boxes outside the photo and hand strings that are not tile notation (ScoringError bad_tile)."""
    width, height = image["width"], image["height"]
    for index, tile in enumerate(confirmation.tiles):
        x1, y1, x2, y2 = tile.box
        if not (0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height):
            raise Refusal(422, "bad_box", f"tiles[{index}].box {list(tile.box)} is not a box inside the "
                           f"{width}×{height} photo ([x1, y1, x2, y2] with x1 < x2, y1 < y2)")
    hand = confirmation.hand
    parse(hand.concealed, field="hand.concealed")
    parse(hand.winning_tile, field="hand.winning_tile")
    parse(hand.flowers or "", field="hand.flowers", allow_flowers=True)
    for index, meld in enumerate(hand.melds or []):
        parse(meld.tiles, field=f"hand.melds[{index}].tiles")


@router.post("/v1/recognitions", status_code=201, response_model=Recognition,
             responses={201: {"links": RECOGNITION_LINKS}, **error_responses(413, 503)})
def create_recognition(photo: PhotoUpload, store: StoreDep, recognize: RecognizerDep, versions: ModelVersionsDep,
                       slots: RecognitionSlotsDep) -> JSONResponse:
    data = photo.file.read()
    model = versions.active()  # per request: another worker process may have switched it
    with slots:
        pixels = load_photo(data, max_side=RECOGNITION_MAX_SIDE)
        try:
            result = {**recognize(pixels, model.folder), "model_version": model.id}
        except (ModuleNotFoundError, FileNotFoundError) as missing:
            log.error("recognizer unavailable: %s", missing)
            raise Refusal(503, "model_unavailable", "the tile recognizer is not installed on this server") \
                from missing
    stored = store.add_recognition(result, data, *media_type(data))
    return JSONResponse({**stored, "confirmation": None}, status_code=201,
                        headers={"Location": f"/v1/recognitions/{stored['id']}"})


@router.get("/v1/recognitions/{recognition_id}", response_model=Recognition, responses=error_responses(404))
def get_recognition(recognition_id: str, store: StoreDep) -> JSONResponse:
    return JSONResponse(found(store.recognition(recognition_id), recognition_id))


@router.get("/v1/recognitions/{recognition_id}/image", response_class=FileResponse,
            responses={**error_responses(404), 200: {"content": {"image/*": {}}}})
def get_image(recognition_id: str, store: StoreDep) -> FileResponse:
    path, media = found(store.image(recognition_id), recognition_id)
    return FileResponse(path, media_type=media, headers={"Cache-Control": "private, max-age=31536000"})


@router.put("/v1/recognitions/{recognition_id}/confirmation", response_model_exclude_none=True,
            responses=error_responses(404))
def confirm(recognition_id: str, confirmation: Confirmation, store: StoreDep) -> StoredConfirmation:
    recognition = found(store.recognition(recognition_id), recognition_id)
    with scorer_refusals():
        check_confirmation(confirmation, recognition["image"])
    stored = store.confirm(recognition_id, confirmation.model_dump(exclude_none=True))
    return StoredConfirmation.model_validate(found(stored, recognition_id))
