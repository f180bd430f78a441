"""The HTTP API and web page (docs/API.md). `create_app` only assembles: shared state on `app.state` (reached by
routes through api/dependencies.py), middleware, error handlers (api/errors.py) and a router per resource
(api/routers/). Routes are thin: parse, call a library function, shape the answer."""

from __future__ import annotations

import threading
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from fanshot.api.dependencies import (
    ModelLoader,
    Recogniser,
    TileNamer,
    load_shipped_models,
    model_adapter,
    model_recogniser,
    model_tile_namer,
)
from fanshot.api.docs import install_docs
from fanshot.api.edge import Edge
from fanshot.api.errors import error_responses, install_error_handlers
from fanshot.api.lifecycle import lifespan
from fanshot.api.metrics import Metrics
from fanshot.api.routers import (
    analyse,
    classify,
    datasets,
    games,
    models,
    notation,
    operations,
    page,
    qr,
    recognitions,
    rulesets,
    score,
    tiles,
)
from fanshot.api.routers.page import RUNTIME, RUNTIME_PATH, STATIC
from fanshot.api.security import Security
from fanshot.api.storage.access import open_storage
from fanshot.api.storage.game_events import Followers
from fanshot.api.storage.model_versions import Adapter
from fanshot.api.tls import TLS_DIR
from fanshot.api.work import RecognitionPool

MAX_PHOTO_BYTES = 20 * 1024 * 1024
# Every JSON body: a score request is ~1 KB, a confirmation of 200 tiles echoing their alternatives ~100 KB.
MAX_BODY_BYTES = 256 * 1024


def create_app(data_dir: Path, *, database_url: str | None = None, images_url: str | None = None,
               s3_endpoint_url: str | None = None, recognise: Recogniser = model_recogniser,
               name_tile: TileNamer = model_tile_namer, load_models: ModelLoader = load_shipped_models,
               adapt: Adapter = model_adapter, base_models: Path | None = None,
               security: Security | None = None, followers: Followers | None = None,
               adapt_auto: bool = False) -> FastAPI:
    """The app on the data directory `data_dir`, or on the database and image store the URLs name (storage/access.py);
    `security`: the names it answers to and its access token (default: this machine's names, no token);
    `followers`: its caps on event streams (default: MAX_STREAMS, MAX_STREAMS_PER_CLIENT);
    `adapt_auto`: start teaching by itself once enough confirmed photos are new to the active version."""
    app = FastAPI(title="Fanshot", version="0.1.0", generate_unique_id_function=lambda route: route.name,
                  description="Read a photo of a Guangdong mahjong hand, confirm it, score it.",
                  docs_url=None, redoc_url=None,  # install_docs serves both without a CDN
                  responses=error_responses(422, 500), lifespan=lifespan)
    storage = open_storage(data_dir, database_url=database_url, images_url=images_url,
                           s3_endpoint_url=s3_endpoint_url, base_models=base_models)
    app.state.store = storage.store
    app.state.recognise = recognise
    app.state.name_tile = name_tile
    app.state.load_models = load_models
    app.state.metrics = Metrics()
    app.state.recognition_pool = RecognitionPool(metrics=app.state.metrics)
    app.state.stopping = threading.Event()  # set on SIGTERM / SIGINT: event streams end (api/lifecycle.py)
    app.state.games = storage.games
    app.state.game_events = storage.game_events
    app.state.followers = followers or Followers()
    app.state.adapt = adapt
    app.state.adapt_auto = adapt_auto
    app.state.model_versions = storage.model_versions
    app.state.tls_dir = data_dir / TLS_DIR  # fanshot serve --https keeps its CA here (GET /ca.pem)
    storage.model_versions.recover()  # jobs a restart interrupted fail, and block no new one
    app.state.readiness = operations.readiness_checks(app.state)
    install_error_handlers(app)
    app.add_middleware(Edge, security=security or Security(), metrics=app.state.metrics, body_limit=MAX_BODY_BYTES,
                       uploads={("POST", "/v1/recognitions"): MAX_PHOTO_BYTES})
    if RUNTIME.is_dir():  # before /static, which would answer its paths with 404s
        app.mount(RUNTIME_PATH, StaticFiles(directory=RUNTIME), name="runtime")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_docs(app)
    app.include_router(score.router)  # first: the busiest route is matched first
    app.include_router(page.router)
    app.include_router(recognitions.router)
    app.include_router(analyse.router)
    app.include_router(rulesets.router)
    app.include_router(datasets.router)
    app.include_router(tiles.router)
    app.include_router(notation.router)
    app.include_router(classify.router)
    app.include_router(games.router)
    app.include_router(operations.router)
    app.include_router(models.router)
    app.include_router(qr.router)
    return app
