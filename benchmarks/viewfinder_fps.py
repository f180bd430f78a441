"""The camera mode's analysed frames per second (issue 50): the app is served, Debian's Chromium films a fake camera
(a y4m video made from a real photo of a row of tiles: near, far or motion-blurred, as the browser tests make it),
the page's camera mode runs as a person would use it (localiser, guide, boxes drawn), and the page's own marks
("fanshot-frame-analysed", one per analysed frame) are counted over `--seconds`, unthrottled and with the CPU
throttled ×4 (CDP `Emulation.setCPUThrottlingRate`). The guide's steady time is set out of reach, so no shot ends
the run. The peer, in the same run: Python's Recogniser.localise (1 thread) on the same frame, as frames a second.

    .venv/bin/python benchmarks/viewfinder_fps.py [--seconds 10] [--views near,far,blurred] [--throttles 1,4]

Prints one JSON line per case, with the load average (1 min) before and after it.
"""

from __future__ import annotations

import argparse
import json
import os
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


def out_of_reach(route) -> None:
    meta = route.fetch().json()
    meta["recogniser"]["live"]["steady_ms"] = 1e9
    route.fulfill(json=meta)


def fps(playwright, server: str, video: Path, throttle: int, seconds: float) -> float:
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
        page.wait_for_timeout(1000)
        start = page.evaluate(ANALYSED)
        page.wait_for_timeout(seconds * 1000)
        return (page.evaluate(ANALYSED) - start) / seconds
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
                before = os.getloadavg()[0]
                rate = fps(playwright, server, video, throttle, args.seconds)
                print(json.dumps({"view": view, "size": list(frame.size), "throttle": throttle,
                                  "analysed_fps": round(rate, 2), "python_localise_fps": round(1000 / peer_ms, 1),
                                  "load": [round(before, 2), round(os.getloadavg()[0], 2)]}), flush=True)
    running.should_exit = True


if __name__ == "__main__":
    main()
