"""Model versions: adapt the active version to the confirmed photos (a background job), list the versions with their
held-out figures, switch the active one (and so roll back, in one call), and hand the page a version's localiser
and settings to run in the browser."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response

from fanshot.api.bodies import CheckedJsonRoute
from fanshot.api.dependencies import AdapterDep, ModelVersionsDep, StoreDep
from fanshot.api.errors import Refusal, error_responses
from fanshot.api.schemas.models import ActiveModel, AdaptJob, ModelFigures, ModelListing
from fanshot.api.storage.model_files import ModelFilesMissing, etag, page_file
from fanshot.api.storage.model_versions import (
    BASE,
    MIN_EXAMPLES,
    SUGGESTED_EXAMPLES,
    Busy,
    ModelVersions,
    NotEnough,
)
from fanshot.api.storage.store import Store

router = APIRouter(prefix="/v1/models", tags=["models"], route_class=CheckedJsonRoute)
ACTIVE = "active"  # in a files address: whichever version is active now
# An adapted version's files never change. The shipped models (`base`) change with a release of the app, under the
# same address, so the browser asks again each time (a 304 while they are the same).
FILE_CACHE = {False: "public, max-age=31536000, immutable", True: "no-cache"}


def listing(versions: ModelVersions, store: Store, request: Request) -> JSONResponse:
    """The versions, with how many confirmed photos there are to adapt on, how many the active version has not
    learned from, how many it takes, and whether the server teaches by itself."""
    confirmed = store.confirmed_count()
    return JSONResponse({**versions.listing(), "confirmed_photos": confirmed,
                         "new_photos": versions.new_photos(confirmed), "photos_needed": MIN_EXAMPLES,
                         "photos_suggested": SUGGESTED_EXAMPLES, "adapt_auto": request.app.state.adapt_auto,
                         "job": versions.running_job()})


@router.get("", response_model=ModelListing)
def list_models(versions: ModelVersionsDep, store: StoreDep, request: Request) -> JSONResponse:
    return listing(versions, store, request)


@router.get("/{version_id}/figures", response_model=ModelFigures, responses=error_responses(404))
def model_figures(version_id: str, versions: ModelVersionsDep) -> JSONResponse:
    figures = versions.figures(version_id)
    if figures is None:
        raise Refusal(404, "not_found", f"no figures for model version {version_id!r}: an unknown version, or shipped "
                      "models whose folder has no figures.json (`fanshot eval SET --models DIR --figures "
                      "DIR/figures.json` makes one)")
    return JSONResponse(figures)


@router.put("/active", response_model=ModelListing, responses=error_responses(404))
def switch_model(body: ActiveModel, versions: ModelVersionsDep, store: StoreDep, request: Request) -> JSONResponse:
    if not versions.exists(body.version):
        raise Refusal(404, "not_found", f"no model version {body.version!r}")
    versions.activate(body.version)
    return listing(versions, store, request)


@router.post("/adapt", status_code=202, response_model=AdaptJob, responses=error_responses(409))
def adapt_models(store: StoreDep, versions: ModelVersionsDep, adapter: AdapterDep) -> JSONResponse:
    try:
        job = versions.start_job(store.examples(), adapter)
    except NotEnough as error:
        raise Refusal(422, "not_enough_examples", f"{error}: confirm more photos first") from None
    except Busy as error:
        raise Refusal(409, "busy", str(error)) from None
    return JSONResponse(job, status_code=202, headers={"Location": f"/v1/models/adapt/{job['id']}"})


@router.get("/adapt/{job_id}", response_model=AdaptJob, responses=error_responses(404))
def adapt_job(job_id: str, versions: ModelVersionsDep) -> JSONResponse:
    job = versions.job(job_id)
    if job is None:
        raise Refusal(404, "not_found", f"no adaptation job with id {job_id!r}")
    return JSONResponse(job)


@router.get("/{version_id}/files/{name}", response_class=FileResponse, responses=error_responses(404, 503))
def model_file(version_id: str, name: str, request: Request, versions: ModelVersionsDep) -> Response:
    """A version's vision.json, or a model file it names, for the page to run the localiser itself."""
    if version_id == ACTIVE:
        return RedirectResponse(f"/v1/models/{versions.active_id()}/files/{name}", status_code=307,
                                headers={"Cache-Control": "no-store"})
    try:
        folder = versions.folder_of(version_id)
    except ModelFilesMissing as error:
        raise Refusal(503, "model_files_missing", f"{error}: switch to another version (PUT /v1/models/active), "
                      "or restore its files") from None
    if folder is None:
        raise Refusal(404, "not_found", f"no model version {version_id!r} (GET /v1/models lists them)")
    path = page_file(folder, name)
    if path is None or not path.is_file():
        raise Refusal(404, "not_found", f"model version {version_id!r} has no file {name!r} for the page: it serves "
                      "vision.json and the model files vision.json names")
    headers = {"ETag": etag(path), "Cache-Control": FILE_CACHE[version_id == BASE]}
    if headers["ETag"] in {tag.strip() for tag in request.headers.get("if-none-match", "").split(",")}:
        return Response(status_code=304, headers=headers)
    return FileResponse(path, headers=headers)
