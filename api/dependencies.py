"""What routes share, reached through FastAPI dependencies that read `request.app.state` (set by create_app):
the store, the tile recognizer and the slots recognitions wait for."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any

import numpy as np
from fastapi import Depends, Request

from api.game_events import GameEvents
from api.game_store import GameStore
from api.store import Store

Recognizer = Callable[[np.ndarray], dict[str, Any]]
TileNamer = Callable[[np.ndarray, list[float]], dict[str, Any]]  # photo, box → {code, confidence, alternatives}


def model_recognizer(image: np.ndarray) -> dict[str, Any]:
    # Imported on first use: it loads ONNX Runtime and the model, which scoring-only use never needs.
    from vision.recognize import recognize

    return recognize(image)


def model_tile_namer(image: np.ndarray, box: list[float]) -> dict[str, Any]:
    from vision.recognize import name_tile

    return name_tile(image, box)


def store(request: Request) -> Store:
    return request.app.state.store


def recognizer(request: Request) -> Recognizer:
    return request.app.state.recognize


def tile_namer(request: Request) -> TileNamer:
    return request.app.state.name_tile


def recognition_slots(request: Request) -> threading.BoundedSemaphore:
    return request.app.state.recognition_slots


StoreDep = Annotated[Store, Depends(store)]
RecognizerDep = Annotated[Recognizer, Depends(recognizer)]
TileNamerDep = Annotated[TileNamer, Depends(tile_namer)]
RecognitionSlotsDep = Annotated[threading.BoundedSemaphore, Depends(recognition_slots)]


def games(request: Request) -> GameStore:
    return request.app.state.games


def game_events(request: Request) -> GameEvents:
    return request.app.state.game_events


GamesDep = Annotated[GameStore, Depends(games)]
GameEventsDep = Annotated[GameEvents, Depends(game_events)]
