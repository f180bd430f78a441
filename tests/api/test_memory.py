"""No request can push the server's memory past 900 MB: the largest photos it accepts, several at once, with the
real recogniser, measured as the server process's peak resident size (VmHWM)."""

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import free_port, jpeg, serve
from tests.vision.test_image import png_of_zeros

pytestmark = [pytest.mark.server, pytest.mark.model]

MODELS = Path(__file__).resolve().parents[2] / "models"
LIMIT_MB = 900


def peak_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmHWM")).split()[1]) / 1024


@pytest.mark.skipif(not any(MODELS.glob("*.onnx")), reason="no ONNX model in models/")
def test_the_largest_photos_at_once_stay_under_900_mb(tmp_path):
    photos = {
        "rgb-49mp.png": png_of_zeros(7000, 7000),  # accepted: the largest PNG
        "grey16-49mp.png": png_of_zeros(7000, 7000, colour_type=0, depth=16),  # accepted
        "rgba16-49mp.png": png_of_zeros(7000, 7000, colour_type=6, depth=16),  # accepted: the costliest PNG
        "thin-49mp.png": png_of_zeros(1, 49_000_000),  # refused from its header
        "small.jpg": jpeg(),
    }
    port = free_port()
    server = serve(tmp_path, port)
    try:
        def upload(name: str) -> int:
            return httpx.post(f"http://127.0.0.1:{port}/v1/recognitions", files={"photo": (name, photos[name])},
                              timeout=300).status_code

        with ThreadPoolExecutor(8) as clients:
            statuses = list(clients.map(upload, [*photos, *photos]))
        assert statuses == [201, 201, 201, 422, 201] * 2
        peak = peak_mb(server.pid)
        print(f"server peak resident size: {peak:.0f} MB")
        assert peak < LIMIT_MB
    finally:
        server.kill()
        server.wait()
