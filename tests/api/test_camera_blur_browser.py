"""A camera that never shoots blind (issue 50), in headless Debian Chromium: a fake camera filming a real photo of a
row of tiles with a 25 px motion blur gets no automatic shot and the guide says "blurred"; "Take the shot" then
sends the whole frame. The y4m video is made here with numpy alone (no OpenCV, no ffmpeg)."""

from __future__ import annotations

from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image

from tests.api.conftest import CHROMIUM, CHROMIUM_ARGS, real_photo
from tests.api.test_browser import PHONE, serve, sync_api  # noqa: F401 - fixtures
from tests.api.test_camera_browser import RUNTIME, near, open_page

expect = sync_api.expect
pytestmark = [pytest.mark.browser, pytest.mark.model]
BLUR = 25  # px of sideways motion at 1280 px: a hand moving while the shot is framed


def motion_blurred(photo: Image.Image, length: int = BLUR) -> Image.Image:
    """`photo` smeared sideways over `length` px (each pixel the mean of the `length` along its row)."""
    pixels = np.asarray(photo.convert("RGB"), dtype=np.float64)
    padded = np.pad(pixels, ((0, 0), (length // 2, length - 1 - length // 2), (0, 0)), mode="edge")
    sums = np.cumsum(np.pad(padded, ((0, 0), (1, 0), (0, 0))), axis=1)
    return Image.fromarray(((sums[:, length:] - sums[:, :-length]) / length).round().astype(np.uint8))


def i420(frame: Image.Image) -> bytes:
    """`frame` as one I420 (4:2:0) frame: full-size luma, then quarter-size U and V (BT.601, studio range)."""
    rgb = np.asarray(frame.convert("RGB"), dtype=np.float64)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 0.257 * r + 0.504 * g + 0.098 * b
    u = 128 - 0.148 * r - 0.291 * g + 0.439 * b
    v = 128 + 0.439 * r - 0.368 * g - 0.071 * b
    quarter = lambda plane: plane.reshape(plane.shape[0] // 2, 2, plane.shape[1] // 2, 2).mean(axis=(1, 3))  # noqa: E731
    return b"".join(np.clip(plane, 0, 255).round().astype(np.uint8).tobytes() for plane in (y, quarter(u), quarter(v)))


def y4m(frame: Image.Image, path: Path, frames: int = 3) -> Path:
    with path.open("wb") as video:
        video.write(f"YUV4MPEG2 W{frame.width} H{frame.height} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            video.write(b"FRAME\n" + i420(frame))
    return path


@pytest.fixture(scope="module")
def blurred_camera(playwright, tmp_path_factory):
    video = y4m(motion_blurred(near(Image.open(real_photo()))), tmp_path_factory.mktemp("blurred") / "camera.y4m")
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    yield browser
    browser.close()


@pytest.mark.skipif(not RUNTIME.is_dir(), reason="onnxruntime-web is not installed: npm ci")
def test_a_motion_blurred_view_is_said_blurred_and_never_shot_by_itself(serve, blurred_camera):  # noqa: F811
    # issue 50: a steady 25 px motion blur scored well above the sharpness threshold and was shot after 1.1 s
    server = serve()
    page = open_page(blurred_camera, PHONE, permissions=["camera"], service_workers="block")
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    uploads = []
    page.on("request", lambda request: uploads.append(request) if request.url.endswith("/v1/recognitions") else None)
    page.get_by_test_id("camera").click()
    advice = page.locator("#camera-advice")
    expect(advice).to_have_text("blurred: hold still", timeout=60_000)
    analysed = "performance.getEntriesByName('fanshot-frame-analysed').length"
    start = page.evaluate(analysed)
    page.wait_for_timeout(4000)  # four times the steady second the guide asks for
    assert page.evaluate(analysed) - start >= 3  # it kept looking...
    assert uploads == [] and page.locator("#camera").is_visible()  # ...and took no shot
    expect(advice).to_have_text("blurred: hold still")

    page.locator("#shutter").click()  # the person takes it anyway: the whole frame goes, not a crop
    expect(page.locator("#camera")).to_be_hidden(timeout=30_000)
    assert len(uploads) == 1
    expect(page.locator("#save-button")).to_be_enabled(timeout=30_000)
    recognition = httpx.get(f"{server}/v1/recognitions/{page.evaluate('location.hash.slice(1)')}").json()
    assert recognition["image"] == {"width": 1280, "height": 1280}  # the camera's whole 1280×1280 frame
    assert not page.errors, page.errors
