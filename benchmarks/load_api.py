"""Load test of a running Fanshot server: many concurrent clients on POST /v1/score, POST /v1/recognitions and
PUT /v1/recognitions/{id}/confirmation (of the photos the recognition phase uploaded).

    .venv/bin/fanshot serve --port 8000 &
    .venv/bin/python benchmarks/load_api.py --url http://127.0.0.1:8000

Several `--url`s spread the requests over several instances in turn (a round-robin load balancer).

Each phase keeps `concurrency` requests in flight (closed loop) until `requests` have been answered, and prints
throughput, latency p50 / p99 / max and the answers by status. Score bodies are seeded legal winning hands of
all four rule sets (datasets.synth.hands); photos are the shared test split's. Exits 1 on any 5xx or transport
error. The client shares the machine with the server, so the figures are a floor for the server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

from fanshot.datasets.synth.hands import corpus
from fanshot.scoring.tiles import parse

PHOTOS = Path(__file__).resolve().parents[1] / "../shared/data/chinese-mahjong-detection/test/images"


@dataclass
class Phase:
    name: str
    latencies_ms: list[float]
    statuses: Counter
    wall_s: float
    client_cpu_s: float  # CPU time this load generator spent: on a shared machine, taken from the server
    server_cpu_s: float | None  # CPU time the server spent, when its pid is known

    def report(self) -> dict:
        ordered = sorted(self.latencies_ms)
        report = {
            "phase": self.name, "requests": len(ordered), "wall_s": round(self.wall_s, 2),
            "throughput_rps": round(len(ordered) / self.wall_s, 1),
            "p50_ms": round(statistics.median(ordered), 1), "p99_ms": round(percentile(ordered, 99), 1),
            "max_ms": round(ordered[-1], 1), "statuses": {str(s): n for s, n in sorted(self.statuses.items(), key=str)},
        }
        report["client_cpu_ms_per_request"] = round(1000 * self.client_cpu_s / len(ordered), 2)
        if self.server_cpu_s is not None:  # what a request costs the server, whatever else shares the cores
            report["server_cpu_ms_per_request"] = round(1000 * self.server_cpu_s / len(ordered), 2)
        return report


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process and its direct children (uvicorn's workers), from /proc."""
    if pid is None:
        return None
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def run_phase(name: str, client: httpx.AsyncClient, send, concurrency: int, total: int,
                    server_pid: int | None = None) -> Phase:
    """`concurrency` workers share a counter of `total` requests; `send(client, i)` makes request i."""
    counter = itertools.count()
    latencies: list[float] = []
    statuses: Counter = Counter()

    async def worker() -> None:
        while (i := next(counter)) < total:
            start = time.perf_counter()
            try:
                status = (await send(client, i)).status_code
            except httpx.HTTPError as error:
                status = type(error).__name__
            latencies.append((time.perf_counter() - start) * 1000)
            statuses[status] += 1

    cpu_before, client_before = cpu_seconds(server_pid), time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    wall = time.perf_counter() - start
    cpu_after, client_after = cpu_seconds(server_pid), time.process_time()
    return Phase(name, latencies, statuses, wall, client_after - client_before,
                 None if cpu_before is None else cpu_after - cpu_before)


def confirmation_of(recognition: dict) -> dict:
    """The recognition's tiles and proposed hand confirmed as they are; where no winning tile was proposed, the
    last standing tile is chosen (as a player must choose one)."""
    tiles = [{"code": tile["code"], "box": tile["box"]} for tile in recognition["tiles"]]
    hand = recognition["hand"]
    standing = parse(hand["concealed"])
    return {"tiles": tiles, "hand": {**hand, "winning_tile": hand.get("winning_tile") or
                                     (standing[-1] if standing else "1m")}}


def score_bodies() -> list[bytes]:
    """The score requests sent: 500 seeded legal winning hands of all four rule sets."""
    return [json.dumps(request).encode() for request in corpus(500, seed=1)]


async def main(args: argparse.Namespace) -> int:
    bodies = score_bodies()
    if args.write_bodies:  # for benchmarks/wrk_score.lua
        args.write_bodies.write_bytes(b"\n".join(bodies) + b"\n")
        return 0
    photos = [path.read_bytes() for path in sorted(PHOTOS.glob("*.jpg"))[:20]]
    if not photos:
        print(f"no photos in {PHOTOS}", file=sys.stderr)
        return 2

    async def score(client: httpx.AsyncClient, i: int) -> httpx.Response:
        return await client.post(f"{instance(i)}/v1/score", content=bodies[i % len(bodies)],
                                 headers={"content-type": "application/json"})

    recognised: list[dict] = []

    async def recognise(client: httpx.AsyncClient, i: int) -> httpx.Response:
        answer = await client.post(f"{instance(i)}/v1/recognitions",
                                   files={"photo": ("photo.jpg", photos[i % len(photos)])})
        if answer.status_code == 201:
            recognised.append(answer.json())
        return answer

    async def confirm(client: httpx.AsyncClient, i: int) -> httpx.Response:
        recognition = recognised[i % len(recognised)]
        return await client.put(f"{instance(i + 1)}/v1/recognitions/{recognition['id']}/confirmation",
                                json=confirmation_of(recognition))

    def instance(i: int) -> str:  # through another instance than the recognition's, where there are several
        return args.url[i % len(args.url)]

    limits = httpx.Limits(max_connections=max(args.score_concurrency, args.recognition_concurrency,
                                              args.confirmation_concurrency))
    async with httpx.AsyncClient(base_url=args.url[0], limits=limits, timeout=120) as client:
        phases = []
        for name, send, concurrency, total in (
                ("POST /v1/score", score, args.score_concurrency, args.score_requests),
                ("POST /v1/recognitions", recognise, args.recognition_concurrency, args.recognition_requests),
                ("PUT /v1/recognitions/{id}/confirmation", confirm, args.confirmation_concurrency,
                 args.confirmation_requests)):
            if total and (send is not confirm or recognised):  # confirmations need recognitions to confirm
                await run_phase("warm-up", client, send, 2, 4)
                phases.append(await run_phase(name, client, send, concurrency, total, args.server_pid))
    failed = False
    for phase in phases:
        report = phase.report()
        print(json.dumps(report))
        failed |= any(not isinstance(s, int) or s >= 500 for s in phase.statuses)
    return 1 if failed else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", action="append", help="an instance's base URL (repeat for several; default "
                        "http://127.0.0.1:8000)")
    parser.add_argument("--score-concurrency", type=int, default=200)
    parser.add_argument("--score-requests", type=int, default=4000, help="0 skips the phase")
    parser.add_argument("--recognition-concurrency", type=int, default=50)
    parser.add_argument("--recognition-requests", type=int, default=200, help="0 skips the phase")
    parser.add_argument("--confirmation-concurrency", type=int, default=50)
    parser.add_argument("--confirmation-requests", type=int, default=1000,
                        help="0 skips the phase (it confirms the photos the recognition phase uploaded)")
    parser.add_argument("--server-pid", type=int, help="the server's pid, to report its CPU ms per request")
    parser.add_argument("--write-bodies", type=Path, metavar="FILE",
                        help="only write the score bodies, one per line, for benchmarks/wrk_score.lua")
    args = parser.parse_args(argv)
    args.url = args.url or ["http://127.0.0.1:8000"]
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
