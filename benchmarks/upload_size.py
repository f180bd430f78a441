"""The camera mode's smaller upload (issue 39 item 3): bytes and time at 60 KB/s of today's upload of a photo
(photo.js `preparePhoto`: the photo shrunk to 2,000 px on its long side) against the camera shot of the same photo
(camera.js `shotOf`: the region of the tiles the in-page localiser finds, plus a margin, at 1,600 px). Both are made
by the page itself in Debian Chromium and POSTed to /v1/recognitions with the upload throttled to 60 KB/s by the
DevTools protocol (Network.emulateNetworkConditions), timed in the page from the request to the answer; the server's
recogniser reads nothing, so the time is the upload's. The shipped recogniser then reads both uploads in Python:
the tiles it reads in each say whether the smaller upload changes the reading, and where the photo has a label, how
many it reads right.

Photos: `12mp`, vision_latency's 12 MP copies of the first shared test photos (a 640 px photo upscaled to fill
3000×3000 of a 4000×3000 frame: the tiles fill most of it), and with `--small DIR` the photos of `fanshot evalsets
--big N --out OUT` (OUT/small-12mp/images: a row of tiles 2-4 % of a 4000×3000 frame wide, as a hand shot from
across the table). Usage:

    .venv/bin/python benchmarks/upload_size.py [--photos 3] [--small OUT/small-12mp/images]
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np
import uvicorn
from playwright.sync_api import sync_playwright

from fanshot.api.app import create_app
from fanshot.datasets.classes import CLASSES
from fanshot.vision.image import RECOGNITION_MAX_SIDE, Original, load_photo
from fanshot.vision.recogniser import shipped

sys.path.insert(0, str(Path(__file__).parent))
from vision_latency import DEFAULT as SHARED_TEST  # noqa: E402
from vision_latency import write_12mp

THROUGHPUT = 60 * 1024  # bytes a second: a table's Wi-Fi (issue 39)
# In the page: both uploads of one photo, each made as the page makes it and sent throttled.
BOTH = """async (photo) => {
  const bytes = Uint8Array.from(atob(photo), (c) => c.charCodeAt(0));
  const file = new File([bytes], "photo.jpg", { type: "image/jpeg" });
  const { preparePhoto } = await import("/static/photo.js");
  const { shotOf } = await import("/static/camera.js");
  const { startAnalyser } = await import("/static/live/analyser.js");
  const analyser = await startAnalyser("active");
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  const live = analyser.config.recogniser.live;
  const uploads = { today: await preparePhoto(file), camera: await shotOf(bitmap, analyser, live) };
  const result = {};
  for (const [name, blob] of Object.entries(uploads)) {
    const form = new FormData();
    form.append("photo", blob, "photo.jpg");
    const start = performance.now();
    const response = await fetch("/v1/recognitions", { method: "POST", body: form });
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    const seconds = (performance.now() - start) / 1000;
    const data = new Uint8Array(await blob.arrayBuffer());
    let binary = "";
    for (let i = 0; i < data.length; i += 8192) binary += String.fromCharCode(...data.subarray(i, i + 8192));
    result[name] = { bytes: blob.size, seconds, photo: btoa(binary) };
  }
  return result;
}"""


def reads_nothing(image: np.ndarray, models_dir: Path | None = None, original: object = None) -> dict:
    height, width = image.shape[:2]
    return {"image": {"width": width, "height": height}, "tiles": [], "groups": [],
            "hand": {"concealed": "", "melds": [], "flowers": ""}, "hand_tiles": {"concealed": [], "melds": [],
                                                                               "flowers": []},
            "suggestions": [], "timing_ms": {"total": 0.0}}


def serve(data_dir: Path, port: int = 8765) -> str:
    app = create_app(data_dir, recognise=reads_nothing)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}"


def codes(photo: bytes) -> Counter[str]:
    read = shipped()(load_photo(photo, max_side=RECOGNITION_MAX_SIDE), Original(photo))
    return Counter(tile["code"] for tile in read.tiles)


def labelled(photo: Path) -> Counter[str] | None:
    """The codes of a photo's YOLO label (an evaluation set's labels/ beside images/), if it has one."""
    label = photo.parent.parent / "labels" / f"{photo.stem}.txt"
    if not label.is_file():
        return None
    return Counter(CLASSES[int(line.split()[0])] for line in label.read_text().splitlines() if line.strip())


def measure(page, case: str, photo: Path) -> dict:
    both = page.evaluate(BOTH, base64.b64encode(photo.read_bytes()).decode())
    row = {"case": case, "photo": photo.name}
    read = {name: codes(base64.b64decode(upload.pop("photo"))) for name, upload in both.items()}
    truth = labelled(photo)
    for name, upload in both.items():
        row[name] = {"kB": round(upload["bytes"] / 1000, 1), "s": round(upload["seconds"], 2),
                     "tiles": read[name].total()}
        if truth is not None:  # tiles read right: the codes the read and the label share
            row[name]["right"] = (read[name] & truth).total()
    if truth is not None:
        row["labelled"] = truth.total()
    row["same_reading"] = read["today"] == read["camera"]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=3)
    parser.add_argument("--small", type=Path, help="a folder of 12 MP photos of small tiles (fanshot evalsets --big)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        url = serve(Path(scratch) / "data")
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                      "uploadThroughput": THROUGHPUT})
        cases = [("12mp", path) for path in write_12mp(sorted(SHARED_TEST.glob("*.jpg"))[:args.photos],
                                                       Path(scratch) / "12mp")]
        cases += [("small-12mp", path) for path in sorted(args.small.glob("*.jpg"))[:args.photos]] if args.small else []
        for case, photo in cases:
            print(json.dumps(measure(page, case, photo)), flush=True)
        browser.close()


if __name__ == "__main__":
    main()
