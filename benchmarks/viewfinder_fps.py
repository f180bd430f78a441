"""The camera mode's analysed frames per second (issue 50): the app is served, Debian's Chromium films a fake camera
(a y4m video made from a real photo of a row of tiles: near, far or motion-blurred, as the browser tests make it),
the page's camera mode runs as a person would use it (localiser, guide, boxes drawn), and the page's own marks
("fanshot-frame-analysed", one per analysed frame) are counted over `--seconds`, unthrottled and with the CPU
throttled ×4 (CDP `Emulation.setCPUThrottlingRate`). The guide's steady time is set out of reach, so no shot ends
the run. The peer, in the same run: Python's Recogniser.localise (1 thread) on the same frame, as frames a second.

The page analyses its frames in a dedicated worker (api/static/live/worker.js), which CDP cannot throttle
(Emulation.setCPUThrottlingRate on a worker answers "Operation is only supported for pages, not workers"). So each
throttled case runs twice: `worker_throttle` 1, the page's main thread alone throttled (what CDP does), and
`worker_throttle` N, the worker slowed N× too: after each frame it works (N - 1) times as long again (a busy wait
of the frame's own measured time, set from here by Playwright; the page's code is unchanged), as a phone N× slower
in every thread would. `worker_ms`: the median of the worker's own time per frame (letterbox, localiser, blur
measure), as the page's marks carry it.

    .venv/bin/python benchmarks/viewfinder_fps.py [--seconds 10] [--views near,far,blurred] [--throttles 1,4]

Prints one JSON line per case, with the load average (1 min) before and after it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

import numpy as np
from live_localiser import python_peer, serve
from PIL import Image
from playwright import sync_api

from fanshot.api.app import create_app
from fanshot.vision.recogniser import MODELS_DIR
from tests.api.conftest import CHROMIUM, CHROMIUM_ARGS, real_photo
from tests.api.test_camera_blur_browser import motion_blurred, y4m
from tests.api.test_camera_browser import far, near

VIEWS = {"near": lambda photo: near(photo), "far": far, "blurred": lambda photo: motion_blurred(near(photo))}
ANALYSED = "performance.getEntriesByName('fanshot-frame-analysed').length"
WORKER_MS = ("(from) => performance.getEntriesByName('fanshot-frame-analysed').slice(from)"
             ".map((mark) => mark.detail?.workerMs)")
# In the analysis worker: each frame's answer held back until the worker has worked `rate` times as long as it did
# (its own `ms` for the frame; a frame waiting in its queue is not counted).
SLOW_WORKER = """(rate) => {
  const post = self.postMessage.bind(self);
  self.postMessage = (message, transfer) => {
    const until = performance.now() + (rate - 1) * (message.answer?.ms ?? 0);
    while (performance.now() < until); // busy: the thread is occupied, as a slower CPU's would be
    post(message, transfer);
  };
}"""


def out_of_reach(route) -> None:
    meta = route.fetch().json()
    meta["recogniser"]["live"]["steady_ms"] = 1e9
    route.fulfill(json=meta)


def fps(playwright, server: str, video: Path, throttle: int, worker_throttle: int, seconds: float) -> dict:
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                   permissions=["camera"], service_workers="block").new_page()
        page.route("**/files/vision.json", out_of_reach)
        page.goto(server)
        page.wait_for_selector("body[data-ready=true]")
        page.get_by_test_id("camera").click()
        while page.evaluate(ANALYSED) < 3:  # the localiser loaded and warm (the page's CSP forbids string scripts)
            page.wait_for_timeout(200)
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        if worker_throttle > 1:
            [analyser] = [worker for worker in page.workers if worker.url.endswith("/live/worker.js")]
            analyser.evaluate(SLOW_WORKER, worker_throttle)
        page.wait_for_timeout(1000)
        start = page.evaluate(ANALYSED)
        page.wait_for_timeout(seconds * 1000)
        worker_ms = [ms for ms in page.evaluate(WORKER_MS, start) if ms is not None]
        return {"analysed_fps": round((page.evaluate(ANALYSED) - start) / seconds, 2),
                "worker_ms": round(statistics.median(worker_ms)) if worker_ms else None}
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--views", default="near,far,blurred")
    parser.add_argument("--throttles", default="1,4")
    args = parser.parse_args()
    photo = Image.open(real_photo())
    server, running = serve(create_app(Path(tempfile.mkdtemp())))
    with tempfile.TemporaryDirectory() as folder, sync_api.sync_playwright() as playwright:
        for view in args.views.split(","):
            frame = VIEWS[view](photo)
            video = y4m(frame, Path(folder) / f"{view}.y4m")
            peer_ms = python_peer(MODELS_DIR, np.asarray(frame.convert("RGB")), runs=20)
            for throttle in map(int, args.throttles.split(",")):
                for worker_throttle in sorted({1, throttle}):
                    before = os.getloadavg()[0]
                    rates = fps(playwright, server, video, throttle, worker_throttle, args.seconds)
                    print(json.dumps({"view": view, "size": list(frame.size), "throttle": throttle,
                                      "worker_throttle": worker_throttle, **rates,
                                      "python_localise_fps": round(1000 / peer_ms, 1),
                                      "load": [round(before, 2), round(os.getloadavg()[0], 2)]}), flush=True)
    running.should_exit = True


if __name__ == "__main__":
    main()
