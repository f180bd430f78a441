"""Load test of the scaled-out set-up next to the embedded one, in one run on the same machine:

- embedded: one `fanshot serve --workers 2` on its data directory (SQLite + images folder);
- scaled out: two `fanshot serve` instances (one worker each) on one throwaway PostgreSQL cluster, the photos in
  one shared folder (as on a shared volume), the load spread over both in turn.

Each runs benchmarks/load_api.py's three phases (score, recognition with the shipped model, confirmation through
the other instance) with the same sizes, and prints one JSON line per phase with `setup` added.

    .venv/bin/python benchmarks/scale_out.py --score-requests 2000 --recognition-requests 100

Needs the PostgreSQL server binaries (Debian's `postgresql`; as root they run as the `postgres` user).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks import load_api  # noqa: E402
from tests.services import free_port, postgres_bin, postgres_cluster  # noqa: E402


@contextlib.contextmanager
def server(data_dir: Path, *options: str) -> Iterator[tuple[str, int]]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "fanshot", "serve", "--port", str(port), "--data-dir",
                                str(data_dir), *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{url}/readyz", timeout=60).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server on {data_dir} did not start")
            time.sleep(0.2)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(60)


def run_load(setup: str, urls: list[str], pids: list[int], args: argparse.Namespace) -> None:
    phases = load_api.parse_args([
        *(f"--url={url}" for url in urls), f"--score-requests={args.score_requests}",
        f"--score-concurrency={args.score_concurrency}", f"--recognition-requests={args.recognition_requests}",
        f"--recognition-concurrency={args.recognition_concurrency}",
        f"--confirmation-requests={args.confirmation_requests}",
        f"--confirmation-concurrency={args.confirmation_concurrency}"])
    print(json.dumps({"setup": setup, "instances": urls, "pids": pids}), flush=True)
    if asyncio.run(load_api.main(phases)) != 0:
        raise SystemExit(f"{setup}: server errors")


def main(args: argparse.Namespace) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped early: still stop the servers and cluster
    binaries = postgres_bin()
    if binaries is None:
        print("error: the PostgreSQL server binaries are not installed (Debian package postgresql)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="fanshot-scale-") as scratch:
        scratch = Path(scratch)
        with server(scratch / "embedded", "--workers", "2") as (url, pid):
            run_load("embedded (SQLite + folder), 1 server, 2 workers", [url], [pid], args)
        with postgres_cluster(binaries) as database_url:
            subprocess.run([sys.executable, "-m", "fanshot", "db", "upgrade", "--database-url", database_url],
                           check=True)
            shared = [f"--database-url={database_url}", f"--images-url={scratch / 'shared-images'}"]
            with server(scratch / "a", *shared) as (a, pid_a), server(scratch / "b", *shared) as (b, pid_b):
                run_load("scaled out: 2 instances x 1 worker, one PostgreSQL, shared images folder", [a, b],
                         [pid_a, pid_b], args)
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--score-requests", type=int, default=2000)
    parser.add_argument("--score-concurrency", type=int, default=100)
    parser.add_argument("--recognition-requests", type=int, default=100)
    parser.add_argument("--recognition-concurrency", type=int, default=20)
    parser.add_argument("--confirmation-requests", type=int, default=1000)
    parser.add_argument("--confirmation-concurrency", type=int, default=50)
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main(parse_args()))
