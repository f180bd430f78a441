"""The HTTP API and web page (DESIGN.md). `create_app` only assembles: shared state on `app.state` (reached by
routes through api/dependencies.py), middleware, error handlers (api/errors.py) and a router per resource
(api/routers/). Routes are thin: parse, call a library function, shape the answer."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from api.database import is_sqlite
from api.dependencies import (
    ModelLoader,
    Recognizer,
    TileNamer,
    load_shipped_models,
    model_recognizer,
    model_tile_namer,
)
from api.docs import install_docs
from api.errors import error_responses, install_error_handlers
from api.game_events import LocalGameEvents, PostgresGameEvents
from api.game_store import SqlGameStore
from api.lifecycle import lifespan
from api.limits import BodyLimit
from api.metrics import Metrics, RecognitionSlots
from api.observability import RequestContext
from api.routers import analyse, classify, datasets, games, operations, page, recognitions, rulesets, score, tiles
from api.routers.page import STATIC
from api.store import Store

MAX_BODY_BYTES = 20 * 1024 * 1024


def create_app(data_dir: Path, *, database_url: str | None = None, images_url: str | None = None,
               s3_endpoint_url: str | None = None, recognize: Recognizer = model_recognizer,
               name_tile: TileNamer = model_tile_namer, load_models: ModelLoader = load_shipped_models) -> FastAPI:
    """The app on the data directory `data_dir`, or on the database and image store the URLs name (api/store.py)."""
    app = FastAPI(title="Fanshot", version="0.1.0", generate_unique_id_function=lambda route: route.name,
                  description="Read a photo of a Guangdong mahjong hand, confirm it, score it.",
                  docs_url=None, redoc_url=None,  # install_docs serves both without a CDN
                  responses=error_responses(422, 500), lifespan=lifespan)
    app.state.store = Store(data_dir, database_url=database_url, images_url=images_url,
                            s3_endpoint_url=s3_endpoint_url)
    app.state.recognize = recognize
    app.state.name_tile = name_tile
    app.state.load_models = load_models
    app.state.metrics = Metrics()
    app.state.stopping = threading.Event()  # set on SIGTERM / SIGINT: event streams end (api/lifecycle.py)
    engine = app.state.store.engine
    app.state.games = SqlGameStore(engine)
    app.state.game_events = LocalGameEvents() if is_sqlite(engine) else PostgresGameEvents(engine)
    # Each recognition already runs ONNX Runtime on two threads; more at once would only thrash the cores
    # and hold more decoded photos in memory, so the rest wait their turn.
    app.state.recognition_slots = RecognitionSlots(max(1, (os.cpu_count() or 2) // 2), app.state.metrics)
    install_error_handlers(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(RequestContext, metrics=app.state.metrics)  # added last: outermost, so it times all
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_docs(app)
    app.include_router(page.router)
    app.include_router(recognitions.router)
    app.include_router(score.router)
    app.include_router(analyse.router)
    app.include_router(rulesets.router)
    app.include_router(datasets.router)
    app.include_router(tiles.router)
    app.include_router(classify.router)
    app.include_router(games.router)
    app.include_router(operations.router)
    return app
