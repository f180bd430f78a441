"""Model versions: adaptation jobs on the confirmed photos, the listing with held-out figures, switching and rolling
back, recognitions recording their version, several processes agreeing on the active one."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fanshot.api.app import create_app
from tests.api.conftest import fake_name_tile, fake_recognise, jpeg, local_client

pytestmark = pytest.mark.storage  # every test here reads or writes records or photos


def figures(f1: float, base_f1: float = 0.8) -> dict[str, Any]:
    return {"base": {"photos": 2, "f1": base_f1, "exact_photos": 0, "precision": base_f1, "recall": base_f1},
            "adapted": {"photos": 2, "f1": f1, "exact_photos": 1, "precision": f1, "recall": f1,
                        "classes": {"1m": {"tiles": 2, "found": 1, "precision": 1.0, "recall": 0.5, "f1": 2 / 3}}}}


def fake_adapter(f1: float, kept: str = "adapted", gate: threading.Event | None = None, photos: int = 3,
                 steps: Sequence[tuple[float, str, threading.Event | None]] | None = None,
                 files: dict[str, bytes] | None = None):
    """An adapter that writes a models folder (`files`: name → bytes; by default a vision.json) and reports `f1` on
    the held-out photos, having learned from `photos`. It reports each of `steps` (its progress, message, and a
    gate it then waits for): by default "halfway", then `gate`."""
    seen: dict[str, Any] = {}

    def adapter(yolo_dir: Path, out: Path, base: Path | None, *, progress) -> dict[str, Any]:
        seen["labels"] = sorted(p.read_text() for p in (yolo_dir / "labels").glob("*.txt"))
        seen["base"], seen["calls"] = base, seen.get("calls", 0) + 1
        for fraction, message, then in steps or [(0.5, "halfway", gate)]:
            progress(fraction, message)
            if then is not None:
                then.wait(10)
        out.mkdir(parents=True)
        for name, data in (files or {"vision.json": b"{}"}).items():
            (out / name).write_bytes(data)
        return {"kind": "deep", "kept": kept, "photos": photos, "held_out": figures(f1)}

    adapter.seen = seen  # type: ignore[attr-defined]
    return adapter


OPENED: list[Any] = []  # the apps a test made: their database connections are closed after it


@pytest.fixture(autouse=True)
def close_databases():
    yield
    while OPENED:
        OPENED.pop().state.store.engine.dispose()


def app_client(data: Path, adapter=None, recognise=fake_recognise, storage: dict[str, str] | None = None,
               adapt_auto: bool = False) -> TestClient:
    """An app on `data`, or on the database and image store of `storage` (tests/api/conftest.py) with its model
    folders under `data`."""
    app = create_app(data, recognise=recognise, name_tile=fake_name_tile, **(storage or {}),
                     **({"adapt": adapter} if adapter else {}), adapt_auto=adapt_auto)
    OPENED.append(app)
    return local_client(app)


def confirm_photos(client: TestClient, count: int) -> None:
    for _ in range(count):
        recognition = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")}).json()
        tiles = [{"code": tile["code"], "box": tile["box"]} for tile in recognition["tiles"]]
        response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation",
                              json={"tiles": tiles, "hand": {"concealed": "123m", "winning_tile": "3m"}})
        assert response.status_code == 200, response.text


def finished(client: TestClient, job: dict[str, Any], seconds: float = 10) -> dict[str, Any]:
    for _ in range(round(seconds / 0.05)):
        job = client.get(f"/v1/models/adapt/{job['id']}").json()
        if job["state"] in ("done", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job still {job['state']}")


def adapt(client: TestClient, seconds: float = 10) -> dict[str, Any]:
    response = client.post("/v1/models/adapt")
    assert response.status_code == 202, response.text
    assert response.headers["location"] == f"/v1/models/adapt/{response.json()['id']}"
    return finished(client, response.json(), seconds)


def test_an_adaptation_makes_a_version_that_becomes_active_and_rolls_back_in_one_call(tmp_path, storage):
    adapter = fake_adapter(0.97)
    client = app_client(tmp_path, adapter, storage=storage)
    assert client.get("/v1/models").json() == {"active": "base", "versions": [
        {"id": "base", "created_at": None, "active": True, "photos": 0, "started_from": None, "held_out": None,
         "figures": "/v1/models/base/figures"}], "confirmed_photos": 0, "new_photos": 0, "photos_needed": 2,
        "photos_suggested": 10, "adapt_auto": False, "job": None}
    confirm_photos(client, 3)
    job = adapt(client)
    assert job["state"] == "done" and job["progress"] == 1 and job["outcome"]["activated"] is True
    assert len(adapter.seen["labels"]) == 3  # the confirmed photos, exported as a YOLO folder
    listing = client.get("/v1/models").json()
    new = listing["versions"][1]
    assert listing["active"] == new["id"] == job["version"] and new["active"] and new["photos"] == 3
    assert new["held_out"] == {"photos": 2, "f1": 0.97, "exact_photos": 1, "base_f1": 0.8, "base_exact_photos": 0,
                               "kind": "deep"}
    recognition = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")}).json()
    assert recognition["model_version"] == new["id"]
    assert client.get(f"/v1/recognitions/{recognition['id']}").json()["model_version"] == new["id"]

    rolled_back = client.put("/v1/models/active", json={"version": "base"})
    assert rolled_back.status_code == 200 and rolled_back.json()["active"] == "base"
    recognition = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")}).json()
    assert recognition["model_version"] == "base"


def test_teaching_again_starts_from_the_active_version_once_10_photos_are_new_to_it(tmp_path, storage):
    # issue 52 point 5: learning as you play
    from fanshot.vision.recogniser import MODELS_DIR

    adapter = fake_adapter(0.97, photos=10)
    client = app_client(tmp_path, adapter, storage=storage)
    confirm_photos(client, 10)
    assert client.get("/v1/models").json()["new_photos"] == 10
    first = adapt(client)["version"]
    assert adapter.seen["base"] == MODELS_DIR  # the shipped models were active
    listing = client.get("/v1/models").json()
    assert (listing["new_photos"], listing["versions"][1]["photos"], listing["versions"][1]["started_from"]) == \
        (0, 10, "base")
    confirm_photos(client, 9)
    assert client.get("/v1/models").json()["new_photos"] == 9
    confirm_photos(client, 1)
    assert client.get("/v1/models").json()["new_photos"] == 10
    job = adapt(client)
    assert len(adapter.seen["labels"]) == 20  # every confirmed photo
    assert adapter.seen["base"] == client.app.state.model_versions.folder_of(first)  # it starts from the active one
    assert job["outcome"]["activated"] is True and "(" + first in job["message"]  # judged against `first`
    listing = client.get("/v1/models").json()
    assert (listing["active"], listing["new_photos"], listing["versions"][2]["started_from"]) == \
        (job["version"], 0, first)
    # rolled back: the base learned from none, but the last teaching from all 20, so it is not offered at once
    assert client.put("/v1/models/active", json={"version": "base"}).json()["new_photos"] == 0


def test_adapt_auto_teaches_by_itself_at_the_10th_new_photo_and_not_again_before_10_more(tmp_path, storage):
    gate = threading.Event()
    adapter = fake_adapter(0.7, kept="base", photos=10, gate=gate)  # no better: no version, not retried each photo
    client = app_client(tmp_path, adapter, storage=storage, adapt_auto=True)
    assert client.get("/v1/models").json()["adapt_auto"] is True
    confirm_photos(client, 9)
    assert "calls" not in adapter.seen
    confirm_photos(client, 1)  # the 10th
    job = client.get("/v1/models").json()["job"]  # listed while it runs: the page follows it
    assert job["message"] == "queued by itself (--adapt auto)" or job["state"] == "running"
    gate.set()
    assert finished(client, job)["state"] == "done"
    assert adapter.seen["calls"] == 1 and len(adapter.seen["labels"]) == 10
    confirm_photos(client, 9)
    time.sleep(0.3)
    assert adapter.seen["calls"] == 1  # 19 new to the base, but only 9 new to the last adaptation
    client.app.state.adapt = better = fake_adapter(0.97, photos=20)
    confirm_photos(client, 1)
    for _ in range(200):
        if client.get("/v1/models").json()["active"] != "base":
            break
        time.sleep(0.05)
    listing = client.get("/v1/models").json()
    assert better.seen["calls"] == 1 and listing["active"] != "base" and listing["new_photos"] == 0


def test_without_adapt_auto_confirmed_photos_start_nothing(tmp_path, storage):
    adapter = fake_adapter(0.97)
    client = app_client(tmp_path, adapter, storage=storage)
    confirm_photos(client, 10)
    time.sleep(0.3)
    assert "calls" not in adapter.seen and client.get("/v1/models").json()["adapt_auto"] is False


def test_the_listing_counts_the_confirmed_photos_an_adaptation_would_learn_from(tmp_path, storage):
    # issue 34: the page offers adapting from `photos_suggested` confirmed photos, and says how many are missing
    client = app_client(tmp_path, fake_adapter(0.97), storage=storage)
    recognition = client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")}).json()
    assert client.get("/v1/models").json()["confirmed_photos"] == 0  # read, not yet saved
    confirm_photos(client, 2)
    tiles = [{"code": tile["code"], "box": tile["box"]} for tile in recognition["tiles"]]
    for _ in range(2):  # a photo saved twice counts once
        client.put(f"/v1/recognitions/{recognition['id']}/confirmation",
                   json={"tiles": tiles, "hand": {"concealed": "123m", "winning_tile": "3m"}}).raise_for_status()
    listing = client.get("/v1/models").json()
    assert (listing["confirmed_photos"], listing["photos_needed"], listing["photos_suggested"]) == (3, 2, 10)
    assert client.put("/v1/models/active", json={"version": "base"}).json()["confirmed_photos"] == 3


def test_each_version_links_its_per_class_figures(tmp_path, storage):
    from fanshot.vision.recogniser import MODELS_DIR

    client = app_client(tmp_path, fake_adapter(0.97), storage=storage)
    confirm_photos(client, 2)
    version = adapt(client)["version"]
    links = {v["id"]: v["figures"] for v in client.get("/v1/models").json()["versions"]}

    shipped = client.get(links["base"]).json()
    measured = json.loads((MODELS_DIR / "figures.json").read_text())
    assert shipped["command"] == measured["command"] and shipped["command"].startswith("fanshot eval ")
    (name, figures), = shipped["sets"].items()
    assert figures["classes"] == measured["sets"][name]["classes"] and len(figures["classes"]) == 43
    assert figures["f1"] == measured["sets"][name]["row"]["f1"] and len(figures["confusion"]["counts"]) == 44

    adapted = client.get(links[version]).json()
    assert adapted["command"] is None and "held out" in adapted["of"]
    assert adapted["sets"]["held out"]["classes"]["1m"]["recall"] == 0.5
    assert adapted["sets"]["held out, shipped models"]["classes"] is None  # not in this (older-style) record
    assert client.get("/v1/models/nope/figures").json()["errors"][0]["code"] == "not_found"


def test_shipped_models_without_figures_say_how_to_make_them(tmp_path, storage):
    bare = tmp_path / "bare-models"
    bare.mkdir()
    app = create_app(tmp_path / "data", recognise=fake_recognise, name_tile=fake_name_tile, base_models=bare,
                     **(storage or {}))
    OPENED.append(app)
    response = local_client(app).get("/v1/models/base/figures")
    assert response.status_code == 404 and "--figures" in response.json()["errors"][0]["message"]


def test_a_version_whose_start_was_switched_away_from_meanwhile_is_listed_but_not_switched_to(tmp_path, storage):
    client = app_client(tmp_path, fake_adapter(0.97), storage=storage)
    confirm_photos(client, 2)
    first = adapt(client)["version"]
    gate = threading.Event()
    client.app.state.adapt = fake_adapter(0.98, gate=gate)
    response = client.post("/v1/models/adapt")
    assert client.put("/v1/models/active", json={"version": "base"}).status_code == 200  # another phone rolls back
    gate.set()
    job = finished(client, response.json())
    assert job["state"] == "done" and job["outcome"]["activated"] is False and "not switched to" in job["message"]
    listing = client.get("/v1/models").json()
    assert listing["active"] == "base" and [v["id"] for v in listing["versions"]] == ["base", first, job["version"]]
    assert listing["versions"][2]["started_from"] == first  # it learned from the version in use when asked
    assert client.put("/v1/models/active", json={"version": job["version"]}).json()["active"] == job["version"]


def test_an_adaptation_no_better_than_the_base_makes_no_version(tmp_path, storage):
    client = app_client(tmp_path, fake_adapter(0.7, kept="base"), storage=storage)
    confirm_photos(client, 2)
    job = adapt(client)
    assert job["state"] == "done" and job["version"] is None and "not better than base's" in job["message"]
    assert [v["id"] for v in client.get("/v1/models").json()["versions"]] == ["base"]
    assert list((tmp_path / "models").iterdir()) == []


def test_a_failed_adaptation_is_reported_by_its_job_and_changes_nothing(tmp_path, storage):
    def broken(*args, **kwargs):
        raise ValueError("the classifier does not end in Gemm")
    client = app_client(tmp_path, broken, storage=storage)
    confirm_photos(client, 2)
    job = adapt(client)
    assert job["state"] == "failed" and "Gemm" in job["message"]
    assert client.get("/v1/models").json()["active"] == "base"


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), [
    ("post", "/v1/models/adapt", None, 422, "not_enough_examples"),
    ("put", "/v1/models/active", {"version": "nope"}, 404, "not_found"),
    ("put", "/v1/models/active", {"version": "base", "extra": 1}, 422, "bad_request"),
    ("get", "/v1/models/adapt/nope", None, 404, "not_found"),
])
def test_bad_model_requests_are_clear_errors(tmp_path, storage, method, path, body, status, code):
    client = app_client(tmp_path, fake_adapter(0.9), storage=storage)
    confirm_photos(client, 1)
    response = getattr(client, method)(path, **({"json": body} if body is not None else {}))
    assert response.status_code == status and response.json()["errors"][0]["code"] == code


def test_one_adaptation_at_a_time(tmp_path, storage):
    gate = threading.Event()
    client = app_client(tmp_path, fake_adapter(0.9, gate=gate), storage=storage)
    confirm_photos(client, 2)
    running = client.post("/v1/models/adapt").json()
    busy = client.post("/v1/models/adapt")
    assert busy.status_code == 409 and busy.json()["errors"][0]["code"] == "busy"
    gate.set()
    assert finished(client, running)["state"] == "done"


def test_every_process_reads_the_active_version_from_the_store(tmp_path, storage):
    seen = []

    def recognise(image, models_dir, original=None):
        seen.append(models_dir)
        return fake_recognise(image)
    one = app_client(tmp_path, fake_adapter(0.95), storage=storage)
    two = app_client(tmp_path, recognise=recognise, storage=storage)  # one data dir (or database)
    confirm_photos(one, 2)
    version = adapt(one)["version"]
    assert two.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())}).json()["model_version"] == version
    assert seen == [tmp_path / "models" / version]
    one.put("/v1/models/active", json={"version": "base"})
    assert two.post("/v1/recognitions", files={"photo": ("h.jpg", jpeg())}).json()["model_version"] == "base"
    assert seen[-1] is None  # the shipped models


@pytest.mark.model
def test_the_real_adaptation_runs_on_confirmed_photos(tmp_path, monkeypatch):
    from fanshot.datasets.classes import CLASSES
    from fanshot.datasets.synth.dataset import synth_dataset
    from fanshot.vision.training import adapt as adapting
    from fanshot.vision.training import finetune

    for name, value in (("LABEL_JITTERS", 2), ("FOUND_JITTERS", 1), ("FIT_STEPS", 30)):
        monkeypatch.setattr(adapting, name, value)
    # where the train extra is installed the app's adaptation is the deep kind: the same path, in seconds
    monkeypatch.setattr(finetune, "FINE_TUNING", finetune.FineTuning(passes=6, min_epochs=1))
    rendered = tmp_path / "rendered"
    synth_dataset(rendered, n=4, seed=21, workers=1)
    labels = {}
    for label in (rendered / "labels").glob("*.txt"):
        labels[label.stem] = [line.split() for line in label.read_text().splitlines()]
    client = app_client(tmp_path / "data")
    for stem, lines in sorted(labels.items()):
        photo = (rendered / "images" / f"{stem}.jpg").read_bytes()
        recognition = client.post("/v1/recognitions", files={"photo": ("p.jpg", photo, "image/jpeg")}).json()
        width, height = recognition["image"]["width"], recognition["image"]["height"]
        tiles = []
        for cls, cx, cy, w, h in ((int(c), *map(float, rest)) for c, *rest in lines):
            tiles.append({"code": CLASSES[cls], "box": [round((cx - w / 2) * width, 1), round((cy - h / 2) * height, 1),
                                                      round((cx + w / 2) * width, 1), round((cy + h / 2) * height, 1)]})
        response = client.put(f"/v1/recognitions/{recognition['id']}/confirmation",
                              json={"tiles": tiles, "hand": {"concealed": "123m", "winning_tile": "3m"}})
        assert response.status_code == 200, response.text
    job = adapt(client, seconds=300)
    assert job["state"] == "done", job["message"]
    deep = finetune.available()
    assert job["outcome"]["figures"]["kind"] == ("deep" if deep else "head")
    # deep: every photo held out once, by 2 folds; head: 30 % of the 4 photos
    assert job["outcome"]["figures"]["photos"] == (4 if deep else 1)


def test_a_version_adapted_before_the_deep_kind_existed_is_listed_as_a_head_refit():
    from fanshot.api.storage.model_versions import held_out_figures

    assert held_out_figures({"kept": "adapted", "held_out": figures(0.9)})["kind"] == "head"
    assert held_out_figures({"kind": "deep", "kept": "adapted", "held_out": figures(0.9)})["kind"] == "deep"


def test_the_servers_adapter_judges_each_version_on_every_confirmed_photo(monkeypatch):
    from fanshot.api.dependencies import model_adapter
    from fanshot.vision.training import adapt as adapting

    seen: dict[str, Any] = {}
    monkeypatch.setattr(adapting, "adapt", lambda *args, **options: seen.update(options) or {})
    model_adapter(Path("photos"), Path("out"), Path("active"), progress=None)
    assert seen["folds"] is True  # k-fold on every photo, the head kind too (issue 52 point 5)


@pytest.mark.parametrize(("setting", "auto"), [("auto", True), ("manual", False)])
def test_fanshot_serve_adapt_reaches_each_server_process(tmp_path, monkeypatch, setting, auto):
    import gc

    from fanshot.api.cli import ADAPT_VARIABLE, DATA_DIR_VARIABLE, app_from_environment

    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setenv(ADAPT_VARIABLE, setting)  # what `fanshot serve --adapt` sets for its workers
    try:
        app = app_from_environment()
        OPENED.append(app)
        assert app.state.adapt_auto is auto
    finally:
        gc.unfreeze()
