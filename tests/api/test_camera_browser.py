"""The camera mode (issue 39) in headless Debian Chromium with a fake camera: a y4m video made at test time from a
real photo of the shared test split. The shipped localiser runs in the page (onnxruntime-web, the local copy from
npm ci); its live count is checked against the Python localiser on the same pixels; the shot it takes by itself
goes through the page's upload to the real recogniser, and the recognition comes back. Phone and desktop."""

from __future__ import annotations

import base64
import io
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from PIL import Image

from fanshot.api.dependencies import model_recogniser
from fanshot.vision.recogniser import shipped
from tests.api.conftest import CHROMIUM, CHROMIUM_ARGS, real_photo
from tests.api.test_browser import (  # noqa: F401 - fixtures
    DESKTOP,
    PHONE,
    VIEWPORTS,
    serious_violations,
    serve,
    shots,
    small_targets,
    sync_api,
)

expect = sync_api.expect
pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "node_modules/onnxruntime-web/dist"
FRAMES = 3  # the video loops: a still hand, as when the phone is held steady


def y4m(frame: Image.Image, path: Path) -> Path:
    """`frame` as a y4m video of FRAMES identical I420 frames (its sides even, as 4:2:0 needs)."""
    planes = cv2.cvtColor(np.asarray(frame.convert("RGB")), cv2.COLOR_RGB2YUV_I420).tobytes()
    with path.open("wb") as video:
        video.write(f"YUV4MPEG2 W{frame.width} H{frame.height} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(FRAMES):
            video.write(b"FRAME\n" + planes)
    return path


def near(photo: Image.Image) -> Image.Image:
    """A 1280 px wide camera over the tiles: the photo filling its frame."""
    return photo.resize((1280, round(photo.height * 1280 / photo.width) // 2 * 2), Image.LANCZOS)


def far(photo: Image.Image) -> Image.Image:
    """A 640×360 camera held back: the photo a 360 px square in the middle of the frame, the table's colour round
    it, its tiles about 25 px wide."""
    frame = Image.new("RGB", (640, 360), tuple(np.asarray(photo).reshape(-1, 3).mean(axis=0).astype(int)))
    frame.paste(photo.resize((360, 360), Image.LANCZOS), (140, 0))
    return frame


@contextmanager
def camera(playwright, frame: Image.Image, folder: Path) -> Iterator[Any]:
    """Chromium whose camera films `frame`."""
    video = y4m(frame, folder / "camera.y4m")
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def camera_browser(playwright, tmp_path_factory):
    """Chromium whose camera is held over the real photo's tiles."""
    with camera(playwright, near(Image.open(real_photo())), tmp_path_factory.mktemp("camera")) as browser:
        yield browser


def open_page(browser, device, **options):
    page = browser.new_context(**device, **options).new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def localised_count(png: bytes) -> int:
    """The Python localiser's count of tiles on an image: the recogniser's single look at its own threshold."""
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    recogniser = shipped()
    return len(recogniser.localise(rgb, recogniser.config.conf))


def video_frame(page) -> bytes:
    """The frame the page's video shows now, as PNG bytes: the pixels the page's localiser is given."""
    url = page.evaluate("""() => { const video = document.querySelector('#camera-video');
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth; canvas.height = video.videoHeight;
        canvas.getContext('2d').drawImage(video, 0, 0);
        return canvas.toDataURL('image/png'); }""")
    return base64.b64decode(url.split(",", 1)[1])


def until(page, script: str, value, timeout: float = 30) -> None:
    """Wait until `script` evaluates to `value` in the page (wait_for_function evaluates a string, which the page's
    CSP forbids)."""
    deadline = time.monotonic() + timeout
    while page.evaluate(script) != value:
        assert time.monotonic() < deadline, f"{script} never gave {value!r}"
        page.wait_for_timeout(100)


def live_count(page) -> int:
    return int(re.match(r"\d+", page.get_by_test_id("live-count").inner_text()).group())


def slow_shot(route) -> None:
    """vision.json with the guide's steady time 8 s."""
    meta = route.fetch().json()
    meta["recogniser"]["live"]["steady_ms"] = 8000
    route.fulfill(json=meta)


@pytest.mark.skipif(not RUNTIME.is_dir(), reason="onnxruntime-web is not installed: npm ci")
@pytest.mark.parametrize("device", VIEWPORTS)
def test_the_camera_mode_counts_the_tiles_and_takes_the_shot_by_itself(serve, camera_browser, device, shots):  # noqa: F811 - the fixtures
    server = serve(recognise=model_recogniser)
    # routes see vision.json only when the service worker does not answer for them
    page = open_page(camera_browser, device, permissions=["camera"], service_workers="block")
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    uploads = []
    page.on("request", lambda request: uploads.append(request) if request.url.endswith("/v1/recognitions") else None)
    # the guide waits 8 s before the shot here, so the screen can be looked at first
    page.route("**/files/vision.json", slow_shot)
    page.get_by_test_id("camera").click()
    expect(page.get_by_test_id("live-count")).to_have_text(re.compile(r"^\d+ "), timeout=60_000)
    if device is PHONE:
        page.screenshot(path=shots / "camera-1-guide.jpg", quality=80)
    count = live_count(page)
    expected = localised_count(video_frame(page))
    assert abs(count - expected) <= 1, (count, expected)
    assert serious_violations(page) == []
    assert small_targets(page) == []

    # held still, the page takes the shot by itself, once, and the camera goes off
    expect(page.locator("#save-button")).to_be_enabled(timeout=60_000)
    assert len(uploads) == 1
    expect(page.locator("#camera")).to_be_hidden()
    assert page.evaluate("document.querySelector('#camera-video').srcObject") is None
    recognition = httpx.get(f"{server}/v1/recognitions/{page.evaluate('location.hash.slice(1)')}").json()
    assert len(recognition["tiles"]) >= expected - 2
    sent = Image.open(io.BytesIO(uploads[0].post_data_buffer.split(b"\r\n\r\n", 1)[1]))
    # the stored recognition is of the photo sent (the tiles' region, at most 1600 px), its boxes in its frame
    assert recognition["image"] == {"width": sent.width, "height": sent.height}
    assert max(sent.size) <= 1600
    assert all(0 <= t["box"][0] < t["box"][2] <= sent.width and 0 <= t["box"][1] < t["box"][3] <= sent.height
               for t in recognition["tiles"])
    expect(page.locator("#boxes .box")).to_have_count(len(recognition["tiles"]))
    # saved, the label is of the stored photo, which is the shot sent
    page.locator("#save-button").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    if device is PHONE:
        page.locator("#capture").scroll_into_view_if_needed()
        page.screenshot(path=shots / "camera-3-read.jpg", quality=80)
    url = f"{server}/v1/recognitions/{recognition['id']}"
    assert Image.open(io.BytesIO(httpx.get(f"{url}/image").content)).size == sent.size
    label = httpx.get(url).json()["confirmation"]["tiles"]
    assert [tile["box"] for tile in label] == [tile["box"] for tile in recognition["tiles"]]
    assert not page.errors, page.errors


def test_a_refused_camera_says_so_and_leaves_the_photo_picker(serve, camera_browser):  # noqa: F811 - the fixtures
    page = open_page(camera_browser, PHONE)  # no camera permission granted: headless Chromium refuses it
    page.goto(serve())
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_test_id("camera").click()
    expect(page.locator("#photo-status")).to_contain_text("The camera is not allowed")
    expect(page.locator("#camera")).to_be_hidden()
    expect(page.locator("#photo-button")).to_be_focused()
    assert not page.errors, page.errors


def test_leaving_the_camera_mode_or_hiding_the_page_stops_the_camera(serve, camera_browser):  # noqa: F811 - the fixtures
    page = open_page(camera_browser, DESKTOP, permissions=["camera"])
    page.goto(serve())
    page.wait_for_selector("body[data-ready=true]")
    live = "() => document.querySelector('#camera-video').srcObject?.getVideoTracks()[0]?.readyState"
    page.get_by_test_id("camera").click()
    until(page, live, "live")
    track = page.evaluate_handle("document.querySelector('#camera-video').srcObject.getVideoTracks()[0]")
    page.locator("#camera-close").click()
    expect(page.locator("#camera")).to_be_hidden()
    assert track.evaluate("track => track.readyState") == "ended"

    page.get_by_test_id("camera").click()
    until(page, live, "live")
    track = page.evaluate_handle("document.querySelector('#camera-video').srcObject.getVideoTracks()[0]")
    page.evaluate("""() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});
                             document.dispatchEvent(new Event('visibilitychange')); }""")
    expect(page.locator("#camera")).to_be_hidden()
    assert track.evaluate("track => track.readyState") == "ended"
    assert not page.errors, page.errors


def test_a_camera_held_too_far_is_asked_to_come_closer_and_takes_no_shot(serve, playwright, tmp_path, shots):  # noqa: F811 - the fixtures
    with camera(playwright, far(Image.open(real_photo())), tmp_path) as browser:
        page = open_page(browser, PHONE, permissions=["camera"])
        page.goto(serve())
        page.wait_for_selector("body[data-ready=true]")
        uploads = []
        page.on("request", lambda request: uploads.append(request) if request.method == "POST" else None)
        page.get_by_test_id("camera").click()
        expect(page.locator("#camera-advice")).to_have_text("move closer: tiles too small", timeout=60_000)
        assert live_count(page) > 0
        page.screenshot(path=shots / "camera-2-closer.jpg", quality=80)
        page.wait_for_timeout(3000)  # three times the guide's steady time
        assert uploads == []
        expect(page.locator("#camera-advice")).to_have_text("move closer: tiles too small")
        assert not page.errors, page.errors


def test_a_version_adapted_before_the_guide_had_settings_is_guided_by_the_shipped_ones(serve, camera_browser):  # noqa: F811 - the fixtures
    page = open_page(camera_browser, DESKTOP, permissions=["camera"], service_workers="block")
    fetched = []

    def without_live(route) -> None:  # the active version's vision.json as one adapted before issue 39 has it
        meta = route.fetch().json()
        if not fetched:
            del meta["recogniser"]["live"]
        fetched.append(route.request.url)
        route.fulfill(json=meta)

    page.route("**/files/vision.json", without_live)
    page.goto(serve())
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_test_id("camera").click()
    expect(page.get_by_test_id("live-count")).to_have_text(re.compile(r"^\d+ tiles found"), timeout=60_000)
    assert fetched[-1].endswith("/v1/models/base/files/vision.json") and len(fetched) == 2
    assert not page.errors, page.errors


RUNTIME_FILES = """() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)
    .filter((path) => path.startsWith('/static/vendor/onnxruntime-web/'))"""


@pytest.mark.skipif(not RUNTIME.is_dir(), reason="onnxruntime-web is not installed: npm ci")
def test_the_frames_are_analysed_in_a_worker_not_on_the_pages_main_thread(serve, camera_browser):  # noqa: F811 - the fixtures
    # issue 50: at CPU ×4 the main thread, which also runs the page, analysed under 2 frames a second
    page = open_page(camera_browser, PHONE, permissions=["camera"], service_workers="block")
    page.route("**/files/vision.json", slow_shot)
    page.goto(serve())
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_test_id("camera").click()
    expect(page.get_by_test_id("live-count")).to_have_text(re.compile(r"^\d+ tiles found"), timeout=60_000)
    assert live_count(page) > 0
    analysers = [worker for worker in page.workers if worker.url.endswith("/static/live/worker.js")]
    assert len(analysers) == 1, [worker.url for worker in page.workers]
    assert analysers[0].evaluate(RUNTIME_FILES)  # the worker loaded onnxruntime-web and reads the frames
    assert page.evaluate(RUNTIME_FILES) == []  # the page itself never did
    assert not page.errors, page.errors
