"""Offline (issue 39 item 4), in headless Debian Chromium on a phone: the service worker (/sw.js) opens the page with
no network once it has been opened, and loads the camera mode's localiser (live/localiser.js: the model files
route and the runtime from node_modules) once it has been loaded; a shot taken while the server cannot be reached
is kept on the device (outbox.js), through reloads, and read once the network is back. Offline means no network
and an empty HTTP cache, so only the worker's caches answer; the server's request counts (/metrics) confirm it.
Set-up, helpers and the screen checks as in test_browser.py; every test opens its own browser context and server
(a new origin), so no worker or cache of one test reaches another."""

from __future__ import annotations

import re
import shutil

import httpx
import pytest

from fanshot.api import app as app_module
from fanshot.api.routers import page as page_module
from fanshot.api.routers.page import RUNTIME
from fanshot.api.security import Security
from tests.api.conftest import real_photo
from tests.api.test_browser import (  # noqa: F401 - fixtures
    PHONE,
    SHOWN,
    expect,
    open_page,
    serious_violations,
    serve,
    shots,
    table_photo,
)
from tests.services import unavailable

pytestmark = pytest.mark.browser

if not RUNTIME.is_dir():
    unavailable("onnxruntime-web, the page's runtime", "npm ci")


@pytest.fixture
def phone(browser):  # noqa: F811 - the fixture
    page = open_page(browser, PHONE)
    yield page
    page.context.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def requests_to(server: str, route: str) -> int:
    """How many GETs of `route` (a route template, as /metrics counts them) the server has answered."""
    found = re.findall(rf'fanshot_http_requests_total{{method="GET",route="{re.escape(route)}",status="\d+"}} (\S+)',
                       httpx.get(f"{server}/metrics").text)
    return int(sum(float(count) for count in found))


def open_and_keep(page, server: str) -> None:
    """Open the page and wait until its service worker controls it (it has cached the page by then)."""
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("""() => navigator.serviceWorker.controller !== null || new Promise((resolve, reject) => {
      navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
      setTimeout(() => reject(new Error("no service worker took the page over in 20 s")), 20000); })""")


def go_offline(page) -> None:
    """No network, and nothing in the browser's HTTP cache (which answers offline too): only the worker's caches."""
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    page.context.set_offline(True)


def reopen(page) -> None:
    page.reload()
    page.wait_for_selector("body[data-ready=true]")


def kept_shots(page) -> int:
    return page.evaluate("""() => new Promise((resolve, reject) => {
      const opening = indexedDB.open("fanshot-outbox", 1);
      opening.onsuccess = () => { const count = opening.result.transaction("shots").objectStore("shots").count();
                                  count.onsuccess = () => resolve(count.result); count.onerror = reject; };
      opening.onerror = reject; })""")


def choose_photo(page, photo: bytes | None = None) -> None:
    """A real photo, or `photo` (JPEG bytes)."""
    page.set_input_files("#photo-input", {"name": "shot.jpg", "mimeType": "image/jpeg", "buffer": photo}
                        if photo else real_photo())


def test_the_page_opens_offline_and_a_shot_waits_for_the_server(serve, phone, shots):  # noqa: F811 - fixtures
    """FANSHOT_SCREENSHOTS=1 pytest tests/api/test_offline_browser.py -k opens_offline redraws docs/offline-*.png."""
    server = serve()
    page = phone
    open_and_keep(page, server)
    opened = requests_to(server, "/"), requests_to(server, "/v1/rulesets")
    go_offline(page)
    reopen(page)
    assert (requests_to(server, "/"), requests_to(server, "/v1/rulesets")) == opened  # all from the cache
    assert page.locator("#ruleset option").count() > 1  # the rule sets of the last visit
    expect(page.locator("#photo-status")).to_have_text("")

    choose_photo(page, table_photo(SHOWN))
    status = page.locator("#photo-status")
    expect(status).to_have_text("The server cannot be reached: this shot is kept on this device and will be sent "
                                "when the server is back.")
    expect(page.locator("#photo")).to_be_visible()  # the shot stays on screen
    expect(page.locator("#retry-photo")).to_be_visible()
    assert kept_shots(page) == 1
    assert serious_violations(page) == []
    page.screenshot(path=shots / "offline-kept.png")
    page.locator("#language").select_option("zh-Hans")
    expect(status).to_have_text("连不上服务器：这张照片已存在本机，服务器恢复后会自动发送。")
    assert serious_violations(page) == []
    page.locator("#language").select_option("en")

    reopen(page)  # still offline: the shot is not lost, and waits on screen
    expect(page.locator("#photo")).to_be_visible()
    expect(status).to_contain_text("cannot be reached")
    assert kept_shots(page) == 1

    page.context.set_offline(False)
    # Chromium's offline emulation leaves a page loaded offline with navigator.onLine true, so `online` never
    # fires here (test_a_kept_shot_on_screen_is_read_when_the_network_is_back has it): Try again sends it.
    page.locator("#retry-photo").click()
    expect(page.locator("#boxes .box")).to_have_count(14)
    expect(status).to_have_text("Read 14 tiles, 1 uncertain.")
    expect(page.locator("#kept-status")).to_be_hidden()
    page.screenshot(path=shots / "offline-sent.png")
    recognition = page.evaluate("location.hash.slice(1)")
    assert httpx.get(f"{server}/v1/recognitions/{recognition}").status_code == 200
    assert kept_shots(page) == 0


def test_a_kept_shot_on_screen_is_read_when_the_network_is_back(serve, phone):  # noqa: F811 - the fixture
    server = serve()
    page = phone
    open_and_keep(page, server)
    go_offline(page)
    choose_photo(page)
    expect(page.locator("#photo-status")).to_contain_text("cannot be reached")
    page.context.set_offline(False)
    expect(page.locator("#boxes .box")).to_have_count(14)
    expect(page.locator("#photo-status")).to_have_text("Read 14 tiles, 1 uncertain.")
    expect(page.locator("#retry-photo")).to_be_hidden()
    assert kept_shots(page) == 0
    assert requests_to(server, "/v1/recognitions/{recognition_id}/image") == 1  # the server's copy is shown


def test_a_refused_upload_is_not_kept(serve, phone):  # noqa: F811 - the fixture
    server = serve()
    page = phone
    open_and_keep(page, server)
    page.set_input_files("#photo-input", {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not a photo"})
    expect(page.locator("#photo-status")).to_contain_text("Could not read the photo")
    assert kept_shots(page) == 0


def test_a_kept_shot_the_server_then_refuses_is_named_and_no_longer_kept(serve, phone):  # noqa: F811 - the fixture
    server = serve()
    page = phone
    open_and_keep(page, server)
    go_offline(page)
    page.set_input_files("#photo-input", {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not a photo"})
    expect(page.locator("#photo-status")).to_contain_text("cannot be reached")  # no server to say what it is
    page.context.set_offline(False)
    expect(page.locator("#kept-status")).to_contain_text("A kept shot was refused, so it is no longer kept: ")
    expect(page.locator("#photo-status")).to_have_text("")
    expect(page.locator("#retry-photo")).to_be_hidden()
    assert kept_shots(page) == 0


@pytest.fixture
def deploy(tmp_path, monkeypatch):
    """A copy of the page's files to serve, which the test changes as a deploy would."""
    static = tmp_path / "static"
    shutil.copytree(page_module.STATIC, static)
    monkeypatch.setattr(page_module, "STATIC", static)
    monkeypatch.setattr(app_module, "STATIC", static)
    return static


def cached_urls(page) -> list[str]:
    return page.evaluate("""async () => { const urls = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys())
        urls.push(new URL(request.url).pathname);
      return urls; }""")


# As the camera mode loads the localiser: the active version's model files and the runtime, from the server.
LOAD_LOCALISER = """async () => {
  const { loadLocaliser } = await import("/static/live/localiser.js");
  const localiser = await loadLocaliser({ versionId: "active" });
  const runtime = performance.getEntriesByType("resource").map((entry) => new URL(entry.name).pathname)
    .filter((path) => path.startsWith("/static/vendor/onnxruntime-web/"));
  return { backend: localiser.backend, inputSize: localiser.inputSize, runtime: [...new Set(runtime)],
           isolated: crossOriginIsolated }; }"""


@pytest.mark.model
def test_the_localiser_once_loaded_loads_offline_and_a_deploy_replaces_the_page(deploy, serve, phone):  # noqa: F811
    server = serve()
    page = phone
    open_and_keep(page, server)
    cached = cached_urls(page)
    assert "/static/app.js" in cached and "/static/live/localiser.js" in cached and "/v1/rulesets" in cached
    assert not [url for url in cached if url.startswith(("/static/vendor/", "/v1/models/active/files/"))]
    loaded = page.evaluate(LOAD_LOCALISER)
    assert loaded["runtime"] and loaded["inputSize"] > 0 and loaded["isolated"]  # WASM threads need isolation
    served = requests_to(server, "/v1/models/{version_id}/files/{name}")

    go_offline(page)
    reopen(page)
    assert page.evaluate(LOAD_LOCALISER) == loaded  # the same runtime files, from the cache
    assert requests_to(server, "/v1/models/{version_id}/files/{name}") == served
    page.context.set_offline(False)

    # a deploy: a page file changes; the page keeps its cached copy until the new worker has taken over
    style = (deploy / "style.css").read_text()
    (deploy / "style.css").write_text(style + "\n/* deploy 2 */\n")
    read_style = "fetch('/static/style.css').then(r => r.text())"
    assert "deploy 2" not in page.evaluate(read_style)
    old_caches = page.evaluate("caches.keys()")
    page.evaluate("""() => new Promise((resolve) => {
      navigator.serviceWorker.addEventListener("controllerchange", () => {  // activated: the old cache is gone
        const worker = navigator.serviceWorker.controller;
        if (worker.state === "activated") resolve();
        else worker.addEventListener("statechange", () => worker.state === "activated" && resolve()); });
      navigator.serviceWorker.getRegistration().then((registration) => registration.update()); })""")
    assert "deploy 2" in page.evaluate(read_style)
    new_caches = page.evaluate("caches.keys()")
    assert len(new_caches) == 1 and new_caches != old_caches  # the old deploy's cache is gone

    go_offline(page)  # what the old deploy had cached on use came along
    reopen(page)
    assert page.evaluate(LOAD_LOCALISER) == loaded
    assert "deploy 2" in page.evaluate(read_style)


def test_a_server_with_an_access_token_opens_offline_too(serve, phone):  # noqa: F811 - the fixture
    # the worker's scripts are fetched without the token's cookie; everything it caches is fetched with it
    server = serve(security=Security(token="sesame"))
    page = phone
    open_and_keep(page, f"{server}/?token=sesame")  # the server sets the cookie and sends the page to /
    go_offline(page)
    reopen(page)
    assert page.locator("#ruleset option").count() > 1
    assert httpx.get(f"{server}/v1/rulesets").status_code == 401  # the data still needs the token


def test_a_new_context_starts_without_another_contexts_worker_or_caches(serve, browser):  # noqa: F811
    server = serve()
    first = open_page(browser, PHONE)
    open_and_keep(first, server)
    second = open_page(browser, PHONE)
    second.goto(f"{server}/healthz")  # same origin, a page that registers no worker itself
    assert second.evaluate("navigator.serviceWorker.controller") is None
    assert second.evaluate("caches.keys()") == []
    first.context.close()
    second.context.close()


def test_a_shot_kept_while_the_server_is_down_stays_in_sight_and_is_sent_once_it_answers(serve, phone):  # noqa: F811
    # issue 50: a shot kept while the server was down vanished after Back/Forward, and was sent only on a reload
    server = serve()
    page = phone
    open_and_keep(page, server)
    choose_photo(page)  # a first photo, read while the server answers
    expect(page.locator("#photo-status")).to_have_text("Read 14 tiles, 1 uncertain.")
    down = "**/v1/recognitions"
    page.route(down, lambda route: route.abort())  # the server is down; the network is not (no `online` event)
    choose_photo(page)
    expect(page.locator("#photo-status")).to_contain_text("cannot be reached")
    page.go_back()  # to the first photo: the kept shot is counted, with Try again
    expect(page.locator("#hand-summary")).to_contain_text("456p")
    expect(page.locator("#kept-status")).to_contain_text("Shots kept on this device, waiting for the server: 1.")
    expect(page.locator("#kept-status button")).to_have_text("Try again")
    page.go_forward()  # back where the shot was taken: it is on screen again, waiting
    expect(page.locator("#photo")).to_be_visible()
    expect(page.locator("#photo-status")).to_contain_text("cannot be reached")
    expect(page.locator("#retry-photo")).to_be_visible()
    assert kept_shots(page) == 1
    page.unroute(down)  # the server answers again: the page's own timer sends the shot, no tap, no reload
    expect(page.locator("#photo-status")).to_have_text("Read 14 tiles, 1 uncertain.", timeout=15000)
    assert kept_shots(page) == 0
