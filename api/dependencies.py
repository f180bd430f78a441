"""What routes share, reached through FastAPI dependencies that read `request.app.state` (set by create_app):
the store, the tile recognizer and the pool recognitions run in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import numpy as np
from fastapi import Depends, Request

from api.store import Store
from api.work import RecognitionPool

Recognizer = Callable[[np.ndarray], dict[str, Any]]


def model_recognizer(image: np.ndarray) -> dict[str, Any]:
    # Imported on first use: it loads ONNX Runtime and the model, which scoring-only use never needs.
    from vision.recognize import recognize

    return recognize(image)


def store(request: Request) -> Store:
    return request.app.state.store


def recognizer(request: Request) -> Recognizer:
    return request.app.state.recognize


def recognition_pool(request: Request) -> RecognitionPool:
    return request.app.state.recognition_pool


StoreDep = Annotated[Store, Depends(store)]
RecognizerDep = Annotated[Recognizer, Depends(recognizer)]
RecognitionPoolDep = Annotated[RecognitionPool, Depends(recognition_pool)]
