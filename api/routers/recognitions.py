"""Recognitions: upload a photo and get the tiles read from it; the photo; the user's confirmation."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from typing import Annotated, Any, BinaryIO

import numpy as np
from fastapi import APIRouter, File, Header, Request, Response, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from fanshot.api.bodies import CheckedJsonRoute
from fanshot.api.dependencies import (
    AdapterDep,
    MetricsDep,
    ModelLoaderDep,
    ModelVersionsDep,
    RecogniserDep,
    RecognitionPoolDep,
    StoreDep,
)
from fanshot.api.errors import Refusal, error_responses, scorer_refusals
from fanshot.api.schemas.recognitions import Confirmation, Recognition, StoredConfirmation
from fanshot.api.schemas.scoring import scorer_input
from fanshot.api.storage.frames import DamagedPhoto, framed, in_frame
from fanshot.api.storage.model_versions import BASE
from fanshot.api.storage.store import PreconditionFailed, entity_tag
from fanshot.api.work import COSTLY_SCAN_PIXELS
from fanshot.scoring import rules
from fanshot.scoring.hand import Hand, parse_context, parse_hand
from fanshot.scoring.tiles import sort_key
from fanshot.scoring.validate import check_draft
from fanshot.vision.image import RECOGNITION_MAX_SIDE, Original, load_photo, scan_work
from fanshot.vision.layout import hand_of

IfMatch = Annotated[str | None, Header(description="the ETag read with the recognition: the confirmation is "
                                     "stored only if it has not changed since (else 412)")]
PhotoUpload = Annotated[UploadFile, File(description="the photo: JPEG, PNG, WebP…, at most 20 MB")]
# OpenAPI links: what a client (or schemathesis's stateful phase) may do with a new recognition's id.
RECOGNITION_LINKS = {operation: {"operationId": operation, "parameters": {"recognition_id": "$response.body#/id"}}
                     for operation in ("get_recognition", "get_image", "confirm")}
log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/recognitions", tags=["recognitions"], route_class=CheckedJsonRoute)


class Stopwatch:
    """Seconds between successive laps, summed by name."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name], self._last = self.laps.get(name, 0.0) + now - self._last, now


def found(value: Any, recognition_id: str) -> Any:
    if value is None:
        raise Refusal(404, "not_found", f"no recognition with id {recognition_id!r}")
    return value


def in_notation_order(hand: Hand) -> Hand:
    """`hand` with each part's tiles in notation order: two hands are the same when these are equal."""
    def order(tiles: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(tiles, key=sort_key))
    return replace(hand, concealed=order(hand.concealed), flowers=order(hand.flowers),
                   melds=tuple(replace(meld, tiles=order(meld.tiles)) for meld in hand.melds))


def confirmed_hand(confirmation: Confirmation) -> Any:
    """The hand to store: the one `hand_tiles` places (vision/layout.py `hand_of`, as a recognition's proposed
    hand), or, from a client that does not place tiles, the `hand` sent. A `hand` sent beside `hand_tiles` must
    be that same hand (its tiles in any order): two hands that disagree are refused, not stored unchecked."""
    if confirmation.hand_tiles is None:
        return confirmation.hand
    placed = hand_of(confirmation.hand_tiles.model_dump(exclude_none=True), [tile.code for tile in confirmation.tiles])
    if confirmation.hand is not None:
        sent = parse_hand(scorer_input(confirmation.hand), draft=True)
        if in_notation_order(sent) != in_notation_order(parse_hand(placed, draft=True)):
            raise Refusal(422, "hand_disagrees", f"hand is not the hand that hand_tiles place, {json.dumps(placed)}: "
                          "leave hand out (it is derived from tiles and hand_tiles) or send that one",
                          detail={"field": "hand", "placed": placed})
    return placed


def checked_hand(confirmation: Confirmation, recognition: dict[str, Any]) -> Any:
    """The hand to store (confirmed_hand), once the confirmation is found sound: refuse boxes outside the photo, a
    detection the recognition does not have, and a hand, rule set, options or context the scorer's parser refuses,
    or a hand that holds more than a hand can (ScoringError); a draft hand may lack tiles and its winning tile."""
    width, height = recognition["image"]["width"], recognition["image"]["height"]
    detections = len(recognition["tiles"])
    for index, tile in enumerate(confirmation.tiles):
        if tile.box is not None:  # None: a tile the photo does not show
            x1, y1, x2, y2 = tile.box
            if not (0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height):
                raise Refusal(422, "bad_box", f"tiles[{index}].box {list(tile.box)} is not a box inside the "
                               f"{width}×{height} photo ([x1, y1, x2, y2] with x1 < x2, y1 < y2; null for a tile "
                               "the photo does not show)")
        if tile.detection is not None and tile.detection >= detections:
            raise Refusal(422, "bad_request", f"tiles[{index}].detection {tile.detection} is not the index of one "
                          f"of the recognition's {detections} detections (leave it out for a tile added by hand)",
                          detail={"field": f"tiles[{index}].detection"})
    hand = confirmed_hand(confirmation)
    if hand is not None:
        check_draft(parse_hand(scorer_input(hand), draft=True))
    if confirmation.ruleset is not None or confirmation.options is not None:
        rules.load(confirmation.ruleset or "jipinghu", scorer_input(confirmation.options))
    if confirmation.context is not None:
        parse_context(scorer_input(confirmation.context))
    return hand


def costly_decode(file: BinaryIO) -> bool:
    """Whether the uploaded photo's decode is costly (api/work.py): read from its spooled file, then rewound."""
    try:
        return scan_work(file.read()) > COSTLY_SCAN_PIXELS
    finally:
        file.seek(0)


@router.post("", status_code=201, response_model=Recognition,
             responses={201: {"links": RECOGNITION_LINKS}, **error_responses(413, 503)})
async def create_recognition(photo: PhotoUpload, store: StoreDep, recognise: RecogniserDep, versions: ModelVersionsDep,
                             pool: RecognitionPoolDep, metrics: MetricsDep,
                             load_models: ModelLoaderDep) -> JSONResponse:
    clock = Stopwatch()

    def decode() -> tuple[bytes, np.ndarray]:
        # In the pool: a waiting upload holds its spooled file, not its bytes or pixels.
        clock.lap("queue")
        data = photo.file.read()
        pixels = load_photo(data, max_side=RECOGNITION_MAX_SIDE, reserve=pool.memory.reserve, of_a_hand=True)
        clock.lap("decode")
        return data, pixels

    def read(decoded: tuple[bytes, np.ndarray]) -> tuple[str, dict[str, Any], tuple[bytes, str, str]]:
        data, pixels = decoded
        clock.lap("queue")  # waiting for a recogniser's slot
        model = versions.active()  # per request: another instance or worker process may have switched it
        try:
            result = {**recognise(pixels, model.folder, Original(data, pool.memory.reserve)),
                      "model_version": model.id}
        except (ModuleNotFoundError, FileNotFoundError) as missing:
            log.error("recogniser unavailable: %s", missing)
            raise Refusal(503, "model_unavailable", "the tile recogniser is not installed on this server") \
                from missing
        clock.lap("recognise")
        height, width = pixels.shape[:2]
        return model.id, result, framed(data, width, height, lambda: pixels)

    costly = await run_in_threadpool(costly_decode, photo.file)
    model_id, result, photo_file = await pool.run(decode, read, costly=costly)
    # Stored after the slot is given back: a slow or hung image store holds no recogniser (issue 53); its wait is
    # bounded (storage/images.py PhotoReads), then 503 storage_unavailable.
    stored = await run_in_threadpool(store.add_recognition, result, *photo_file)
    clock.lap("store")
    # the recogniser's own stages within "recognise" (localise, classify)
    stages = {**clock.laps, **{stage: ms / 1000 for stage, ms in result.get("timing_ms", {}).items()
                               if stage != "total"}}
    metrics.recognition(load_models() if model_id == BASE else model_id, stages)
    return JSONResponse({**stored, "confirmation": None}, status_code=201,
                        headers={"Location": f"/v1/recognitions/{stored['id']}"})


@router.get("/{recognition_id}", response_model=Recognition, responses=error_responses(404))
def get_recognition(recognition_id: str, store: StoreDep) -> JSONResponse:
    recognition = found(store.recognition(recognition_id), recognition_id)
    return JSONResponse(recognition, headers={"ETag": entity_tag(recognition_id, recognition["confirmation"])})


@router.get("/{recognition_id}/image", response_class=Response,
            responses={**error_responses(404), 200: {"content": {"image/*": {}}}})
def get_image(recognition_id: str, store: StoreDep) -> Response:
    photo, media = found(store.image(recognition_id), recognition_id)
    # photos stored before they were kept in the frame of their boxes, or without their metadata, are on the way out
    try:
        photo, media, _ = in_frame(photo, found(store.recognition(recognition_id), recognition_id)["image"])
    except DamagedPhoto:
        log.warning("recognition %s: its stored photo no longer decodes; served as stored", recognition_id)
    return Response(photo, media_type=media, headers={"Cache-Control": "private, max-age=31536000"})


@router.put("/{recognition_id}/confirmation", response_model=StoredConfirmation,
            response_model_exclude_none=True, responses=error_responses(404, 412))
def confirm(recognition_id: str, confirmation: Confirmation, store: StoreDep, versions: ModelVersionsDep,
            adapter: AdapterDep, request: Request, if_match: IfMatch = None) -> Response:
    recognition = found(store.recognition(recognition_id), recognition_id)
    with scorer_refusals():
        hand = checked_hand(confirmation, recognition)
    given = confirmation.model_dump(mode="json", exclude_none=True)
    try:
        stored = found(store.confirm(recognition_id, given if hand is None else {**given, "hand": hand}, if_match),
                       recognition_id)
    except PreconditionFailed as changed:
        raise Refusal(412, "precondition_failed", "the confirmation changed since it was read (If-Match no longer "
                      "matches): read the recognition again, then confirm", {"ETag": changed.current}) from None
    if request.app.state.adapt_auto:  # learning as you play: each confirmed photo may start teaching
        versions.start_if_due(store.confirmed_count(), store.examples, adapter)
    body = StoredConfirmation.model_validate(stored).model_dump(mode="json", exclude_none=True)
    return JSONResponse(body, headers={"ETag": entity_tag(recognition_id, stored)})
