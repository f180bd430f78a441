"""Naming the tile in a box the user drew on a recognition's photo (a tile the recogniser missed)."""

from __future__ import annotations

import logging

import numpy as np
from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from fanshot.api.bodies import CheckedJsonRoute
from fanshot.api.dependencies import ModelVersionsDep, RecognitionPoolDep, StoreDep, TileNamerDep
from fanshot.api.errors import Refusal, error_responses
from fanshot.api.schemas.recognitions import ClassifyRequest, NamedTile
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/recognitions", tags=["recognitions"], route_class=CheckedJsonRoute)


@router.post("/{recognition_id}/classify", response_model=NamedTile,
             responses=error_responses(404, 503))
async def classify(recognition_id: str, request: ClassifyRequest, store: StoreDep, name_tile: TileNamerDep,
                   versions: ModelVersionsDep, pool: RecognitionPoolDep) -> NamedTile:
    # off the event loop: the records and the photo may be a network round trip away (PostgreSQL, S3)
    recognition, image = await run_in_threadpool(lambda: (store.recognition(recognition_id),
                                                          store.image(recognition_id)))
    if recognition is None or image is None:
        raise Refusal(404, "not_found", f"no recognition with id {recognition_id!r}")
    width, height = recognition["image"]["width"], recognition["image"]["height"]
    x1, y1, x2, y2 = request.box
    if not (0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height):
        raise Refusal(422, "bad_box", f"box {list(request.box)} is not a box inside the {width}×{height} photo "
                      "([x1, y1, x2, y2] with x1 < x2, y1 < y2)")

    # in the recognitions' pool: the same pixels the recognition saw, the box in their frame
    def decode() -> np.ndarray:
        return load_photo(image[0], max_side=RECOGNITION_MAX_SIDE, reserve=pool.memory.reserve)

    def name(pixels: np.ndarray) -> NamedTile:
        try:
            return NamedTile.model_validate(name_tile(pixels, list(request.box), versions.active().folder))
        except (ModuleNotFoundError, FileNotFoundError) as missing:
            log.error("tile classifier unavailable: %s", missing)
            raise Refusal(503, "model_unavailable", "the tile classifier is not installed on this server") \
                from missing

    return await pool.run(decode, name)
