"""The page's localiser in Debian's Chromium, in the page as the app serves it (its Content-Security-Policy,
cross-origin isolation for WASM threads, the runtime from node_modules, the model from the model files route): it
loads, and finds the tiles the Python localiser finds in the same pixels (a real photo of the shared test split)."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from fanshot.api import app as app_module
from fanshot.api.routers.page import RUNTIME
from fanshot.api.security import cdn_runtime
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import shipped
from tests.api.conftest import real_photo
from tests.api.test_browser import open_page, serve  # noqa: F401  (fixtures)
from tests.services import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.model]
EIGHT_CORES = "Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 8 })"  # a phone's count
if not RUNTIME.is_dir():
    unavailable("onnxruntime-web, the page's runtime", "npm ci")

# In the page: the frame (RGBA, base64) read by localiser.js, loaded as the camera mode loads it.
DETECT = """async ({rgba, width, height}) => {
  const data = Uint8ClampedArray.from(atob(rgba), (c) => c.charCodeAt(0));
  const { loadLocaliser } = await import("/static/live/localiser.js");
  const localiser = await loadLocaliser();
  const found = await localiser.detect({ data, width, height });
  const runtime = performance.getEntriesByType("resource").map((entry) => entry.name)
    .filter((name) => name.includes("onnxruntime"));
  return { boxes: found.boxes, backend: localiser.backend, threads: localiser.threads, isolated: crossOriginIsolated,
           runtime };
}"""


def frame() -> tuple[dict, np.ndarray]:
    """A real photo as the server decodes it, as the page's detect takes it (RGBA, base64), and its pixels."""
    image = load_photo(real_photo().read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    height, width = image.shape[:2]
    rgba = np.concatenate([image, np.full((height, width, 1), 255, np.uint8)], axis=2)
    return {"rgba": base64.b64encode(rgba.tobytes()).decode(), "width": width, "height": height}, image


def detect_in_page(browser, url: str, route=None) -> dict:  # noqa: F811
    """The page at `url` on an 8-core device, its localiser loaded as the camera mode loads it, run on frame()."""
    page = open_page(browser, {})
    page.add_init_script(EIGHT_CORES)
    if route is not None:
        page.route(cdn_runtime() + "*", route)
    page.goto(url + "/")
    found = page.evaluate(DETECT, frame()[0])
    page.close()
    assert not page.errors, page.errors
    return found


def test_the_page_runs_the_localiser_on_threads_and_finds_what_python_finds(serve, browser):  # noqa: F811
    image = frame()[1]
    recogniser = shipped()
    expected = recogniser.localise(image, recogniser.config.conf)
    found = detect_in_page(browser, serve())
    assert found["isolated"] and found["threads"] == 4 and found["backend"] == "wasm"  # no hardware WebGPU here
    assert found["runtime"] and all("/static/vendor/onnxruntime-web/" in name for name in found["runtime"])
    # without a hardware GPU the page takes the WASM-only runtime, half the WebGPU one's download
    assert any(name.endswith("/ort.wasm.min.mjs") for name in found["runtime"])
    assert not any("webgpu" in name or "asyncify" in name for name in found["runtime"])
    assert len(found["boxes"]) == len(expected) > 0
    boxes = np.array([[box[key] for key in ("x1", "y1", "x2", "y2")] for box in found["boxes"]])
    assert np.abs(boxes - expected.boxes).max() <= 1
    assert [box["kind"] for box in found["boxes"]] == expected.kinds


def test_without_the_npm_copy_the_page_takes_the_pinned_runtime_from_the_cdn_on_one_thread(serve, browser,  # noqa: F811
                                                                                           monkeypatch):
    """jsDelivr played by Playwright from node_modules, with its CORS header: the page's policy and isolation let
    the module and its WebAssembly in from there."""
    monkeypatch.setattr(app_module, "RUNTIME", RUNTIME.parent / "absent")
    served: list[str] = []

    def cdn(route) -> None:
        name = route.request.url.removeprefix(cdn_runtime())
        served.append(name)
        route.fulfill(path=RUNTIME / name, headers={"Access-Control-Allow-Origin": "*",
                                                   "Cross-Origin-Resource-Policy": "cross-origin"})
    found = detect_in_page(browser, serve(), cdn)
    assert "ort.wasm.min.mjs" in served and found["backend"] == "wasm" and found["threads"] == 1
    assert len(found["boxes"]) > 0
