"""The page's localiser in Debian's Chromium, in the page as the app serves it (its Content-Security-Policy,
cross-origin isolation for WASM threads, the runtime from node_modules, the model from the model files route): it
loads, and finds the tiles the Python localiser finds in the same pixels (a real photo of the shared test split)."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from fanshot.api.routers.page import RUNTIME
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import shipped
from tests.api.conftest import real_photo
from tests.api.test_browser import browser, open_page, serve  # noqa: F401  (fixtures)
from tests.services import unavailable

pytestmark = [pytest.mark.browser, pytest.mark.model]
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
  return { boxes: found.boxes, backend: localiser.backend, isolated: crossOriginIsolated, runtime };
}"""


def test_the_page_runs_the_localiser_and_finds_what_python_finds(serve, browser):  # noqa: F811
    image = load_photo(real_photo().read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    recogniser = shipped()
    expected = recogniser.localise(image, recogniser.config.conf)
    height, width = image.shape[:2]
    rgba = np.concatenate([image, np.full((height, width, 1), 255, np.uint8)], axis=2)
    page = open_page(browser, {})
    page.goto(serve() + "/")
    found = page.evaluate(DETECT, {"rgba": base64.b64encode(rgba.tobytes()).decode(), "width": width,
                                   "height": height})
    page.close()
    assert not page.errors, page.errors
    assert found["isolated"] and found["backend"] == "wasm"  # headless Chromium offers no hardware WebGPU
    assert found["runtime"] and all("/static/vendor/onnxruntime-web/" in name for name in found["runtime"])
    # without a hardware GPU the page takes the WASM-only runtime, half the WebGPU one's download
    assert any(name.endswith("/ort.wasm.min.mjs") for name in found["runtime"])
    assert not any("webgpu" in name or "asyncify" in name for name in found["runtime"])
    assert len(found["boxes"]) == len(expected) > 0
    boxes = np.array([[box[key] for key in ("x1", "y1", "x2", "y2")] for box in found["boxes"]])
    assert np.abs(boxes - expected.boxes).max() <= 1
    assert [box["kind"] for box in found["boxes"]] == expected.kinds
