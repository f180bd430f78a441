"""What routes share, reached through FastAPI dependencies that read `request.app.state` (set by create_app):
the store, the tile recogniser, the model versions it may use and the pool recognitions run in."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from fastapi import Depends, Request

from fanshot.api.errors import Refusal
from fanshot.api.metrics import Metrics
from fanshot.api.storage.game_events import Followers, GameEvents
from fanshot.api.storage.game_store import GameStore
from fanshot.api.storage.model_versions import Adapter, ModelVersions
from fanshot.api.storage.store import Store
from fanshot.api.work import RecognitionPool
from fanshot.vision.image import Original

# photo, models folder, the photo's file → recognition result
Recogniser = Callable[[np.ndarray, Path | None, Original | None], dict[str, Any]]
TileNamer = Callable[[np.ndarray, list[float], Path | None], dict[str, Any]]  # … → {code, confidence, alternatives}
ModelLoader = Callable[[], str]  # loads the shipped recognition models (once), returns their version


# Models folders are None for the shipped models (vision.recogniser.MODELS_DIR).
def model_recogniser(image: np.ndarray, models_dir: Path | None, original: Original | None = None) -> dict[str, Any]:
    # Imported on first use: it loads ONNX Runtime and the model, which scoring-only use never needs.
    from fanshot.vision.recogniser import for_models, shipped

    return (for_models(models_dir) if models_dir else shipped())(image, original).as_dict()


def model_tile_namer(image: np.ndarray, box: list[float], models_dir: Path | None) -> dict[str, Any]:
    from fanshot.vision.recogniser import for_models, shipped

    return (for_models(models_dir) if models_dir else shipped()).name_tile(image, box)


def model_adapter(yolo_dir: Path, out: Path, base: Path | None, **options: Any) -> dict[str, Any]:
    from fanshot.vision.recogniser import MODELS_DIR
    from fanshot.vision.training.adapt import adapt

    return adapt(yolo_dir, out, base or MODELS_DIR, folds=True, **options)  # judged on every confirmed photo


@cache
def load_shipped_models() -> str:
    """Load the models recognitions use; their version is a digest of the models and their settings (VisionFile)."""
    from fanshot.vision.config import models_version
    from fanshot.vision.recogniser import MODELS_DIR, shipped

    shipped()
    return models_version(MODELS_DIR)


def store(request: Request) -> Store:
    return request.app.state.store


def recogniser(request: Request) -> Recogniser:
    return request.app.state.recognise


def recognition_pool(request: Request) -> RecognitionPool:
    return request.app.state.recognition_pool


def tile_namer(request: Request) -> TileNamer:
    return request.app.state.name_tile


def model_loader(request: Request) -> ModelLoader:
    return request.app.state.load_models


def metrics(request: Request) -> Metrics:
    return request.app.state.metrics


def model_versions(request: Request) -> ModelVersions:
    return request.app.state.model_versions


def adapter(request: Request) -> Adapter:
    return request.app.state.adapt


StoreDep = Annotated[Store, Depends(store)]
ModelVersionsDep = Annotated[ModelVersions, Depends(model_versions)]
AdapterDep = Annotated[Adapter, Depends(adapter)]
RecogniserDep = Annotated[Recogniser, Depends(recogniser)]
RecognitionPoolDep = Annotated[RecognitionPool, Depends(recognition_pool)]
TileNamerDep = Annotated[TileNamer, Depends(tile_namer)]
MetricsDep = Annotated[Metrics, Depends(metrics)]
ModelLoaderDep = Annotated[ModelLoader, Depends(model_loader)]


def games(request: Request) -> GameStore:
    return request.app.state.games


def game_events(request: Request) -> GameEvents:
    return request.app.state.game_events


def stopping(request: Request) -> threading.Event:
    return request.app.state.stopping


def following(request: Request) -> AbstractContextManager[None]:
    """The place of the client opening an event stream, to hold while it streams; refused (429) while the client
    has its share open already."""
    client = request.client.host if request.client else "-"
    followers: Followers = request.app.state.followers
    full = followers.full(client)
    if full == "client":
        raise Refusal(429, "too_many_streams", f"this client follows {followers.per_client} games already; close "
                      "one (or its page) first", headers={"Retry-After": "30"})
    if full == "server":
        raise Refusal(503, "streams_full", f"the server has {followers.most} event streams open, as many as it "
                      "keeps; try again shortly", headers={"Retry-After": "30"})
    return followers.following(client)


StoppingDep = Annotated[threading.Event, Depends(stopping)]
FollowingDep = Annotated[AbstractContextManager[None], Depends(following)]
GamesDep = Annotated[GameStore, Depends(games)]
GameEventsDep = Annotated[GameEvents, Depends(game_events)]
