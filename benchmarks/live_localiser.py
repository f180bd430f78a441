"""The page's localiser (api/static/live/localiser.js on onnxruntime-web) in Debian's Chromium, per frame: the app
is served (its own page, its Content-Security-Policy, its model files route), Playwright opens it, and the page
imports localiser.js, draws a real photo into a camera-sized frame (1280×720 by default, the photo scaled to
cover it) and runs `detect` on it again and again. Each case: a fresh page (the WASM thread count is fixed at the
runtime's start), 3 untimed frames, then `--frames` timed ones; the median and p90 of `detect`'s own `ms`
(letterbox, run, decode). Cases: WASM on 1 and 2 threads, unthrottled and with the CPU throttled ×4 (CDP
`Emulation.setCPUThrottlingRate`), and WebGPU where this Chromium offers an adapter (`gpu:1`; it takes WebGPU
even on a software adapter, which the page would not). Threads need the page cross-origin isolated, as the app
serves it (api/security.py). The peer, in the same run between cases: Python's Recogniser.localise (onnxruntime,
1 thread) on the same frame. `--models DIR` reads another models folder as the base version (e.g. a 320 px localiser).

    .venv/bin/python benchmarks/live_localiser.py [--photo FILE] [--frames 20] [--models DIR] [--cases 1:1,2:4]

Prints one JSON line per case, with the load average (1 min) before and after it.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import uvicorn
from playwright import sync_api

from fanshot.api.app import create_app
from fanshot.vision.config import VisionFile
from fanshot.vision.image import load_photo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser

CHROMIUM = Path("/usr/bin/chromium")
PHOTOS = Path(__file__).resolve().parents[2] / "shared/data/chinese-mahjong-detection/valid/images"

# In the page: the photo as a cover-scaled width×height frame, the localiser loaded as asked, `frames` detects.
PAGE_RUN = """async ({photo, width, height, threads, gpu, frames}) => {
  const bytes = Uint8Array.from(atob(photo), (c) => c.charCodeAt(0));
  const image = await createImageBitmap(new Blob([bytes], {type: "image/jpeg"}));
  const canvas = new OffscreenCanvas(width, height);
  const scale = Math.max(width / image.width, height / image.height);
  const [w, h] = [width / scale, height / scale];
  canvas.getContext("2d").drawImage(image, (image.width - w) / 2, (image.height - h) / 2, w, h, 0, 0, width, height);
  const frame = canvas.getContext("2d").getImageData(0, 0, width, height);
  const { loadLocaliser } = await import("/static/live/localiser.js");
  const localiser = await loadLocaliser({ versionId: "base", threads, gpu });
  for (let i = 0; i < 3; i++) await localiser.detect(frame);
  const ms = [];
  let tiles = 0;
  for (let i = 0; i < frames; i++) {
    const found = await localiser.detect(frame);
    ms.push(found.ms);
    tiles = found.boxes.length;
  }
  return { ms, tiles, backend: localiser.backend, threads: localiser.threads, isolated: crossOriginIsolated,
           inputSize: localiser.inputSize };
}"""


def serve(app) -> tuple[str, uvicorn.Server]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def python_peer(models: Path, frame: np.ndarray, runs: int) -> float:
    """Median ms of the Python single look (Recogniser.localise) on the frame, its localiser on one thread."""
    recogniser = Recogniser.load(models)
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    localiser = VisionFile.read(models).localiser.file
    one = replace(recogniser, localiser=ort.InferenceSession(str(models / localiser), options,
                                                             providers=["CPUExecutionProvider"]))
    one.localise(frame, one.config.conf)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        one.localise(frame, one.config.conf)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def load() -> float:
    return round(os.getloadavg()[0], 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", type=Path, default=None, help="default: the first photo of the valid split")
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--size", default="1280x720", help="the camera frame, WIDTHxHEIGHT")
    parser.add_argument("--models", type=Path, default=MODELS_DIR)
    parser.add_argument("--cases", default="1:1,2:1,1:4,2:4,gpu:1", help="THREADS:THROTTLE,... ('gpu' for WebGPU)")
    args = parser.parse_args()
    photo = args.photo or sorted(PHOTOS.glob("*.jpg"))[0]
    width, height = (int(side) for side in args.size.split("x"))
    image = load_photo(photo.read_bytes())
    scale = max(width / image.shape[1], height / image.shape[0])
    w, h = width / scale, height / scale
    x0, y0 = (image.shape[1] - w) / 2, (image.shape[0] - h) / 2
    frame = cv2.resize(image[round(y0):round(y0 + h), round(x0):round(x0 + w)], (width, height))

    with tempfile.TemporaryDirectory() as data:
        url, server = serve(create_app(Path(data), base_models=args.models))
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
                "--headless", "--no-sandbox", "--disable-background-networking", "--enable-unsafe-webgpu"])
            for case in args.cases.split(","):
                threads, throttle = case.split(":")
                page = browser.new_page()
                page.goto(url + "/")
                cdp = page.context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": int(throttle)})
                before = load()
                result = page.evaluate(PAGE_RUN, {"photo": base64.b64encode(photo.read_bytes()).decode(),
                                                  "width": width, "height": height, "frames": args.frames,
                                                  "threads": 0 if threads == "gpu" else int(threads),
                                                  "gpu": threads == "gpu"})
                after = load()
                page.close()
                ms = sorted(result["ms"])
                peer = python_peer(args.models, frame, 10)
                print(json.dumps({"case": {"threads": threads, "throttle": int(throttle)},
                                  "backend": result["backend"], "threads_used": result["threads"],
                                  "isolated": result["isolated"],
                                  "input": result["inputSize"], "frame": f"{width}x{height}",
                                  "median_ms": round(statistics.median(ms), 1),
                                  "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1),
                                  "fps": round(1000 / statistics.median(ms), 2), "tiles": result["tiles"],
                                  "python_1_thread_ms": round(peer, 1), "load": [before, after]}), flush=True)
            browser.close()
        server.should_exit = True


if __name__ == "__main__":
    main()
