"""`POST /v1/score` under wrk, against a bare FastAPI route echoing the same JSON (benchmarks/echo_app.py) in the
same run: latency p50 / p99 per connection count, and each server's CPU per request (its processes' user +
system time over the run, from /proc). The HTTP overhead is Fanshot's CPU per request less the scorer's own, set
against the echo's CPU per request. The scorer's own CPU is measured two ways: inside the served workers, each
call timed as it runs there (benchmarks/scorer_clock/), which is what the overhead bar uses; and in this process,
in a tight loop over the same bodies (warmer caches: the lower figure, so the higher overhead).

    .venv/bin/python benchmarks/score_under_wrk.py [--duration 20] [--connections 50 200]

Both servers run with 2 workers on this machine, as does wrk (one thread); runs alternate between the
servers so that drift in the host's speed hits each. The echo runs on uvicorn's defaults (uvloop), the peer of the
bar, and again on asyncio's loop, as `fanshot serve` runs: the difference is the loop's share of the overhead.
Prints one JSON line per run and a Markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_api import cpu_seconds, score_bodies  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCORER_CLOCK = ROOT / "benchmarks" / "scorer_clock"
LUA = ROOT / "benchmarks" / "wrk_score.lua"
ECHO, ECHO_ON_ASYNCIO = "bare FastAPI echo", "bare FastAPI echo, asyncio loop"
UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def start(command: list[str], port: int, env: dict[str, str] | None = None) -> subprocess.Popen:
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=env and {**os.environ, **env})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.post(f"http://127.0.0.1:{port}/v1/score", content=b"{}", timeout=2)
            return server
        except httpx.TransportError:
            time.sleep(0.2)
    server.kill()
    raise TimeoutError(f"{command} did not start")


def wrk(port: int, connections: int, duration: int, bodies: Path) -> dict:
    output = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", "-s", str(LUA),
                             f"http://127.0.0.1:{port}/v1/score", "--", str(bodies)],
                            capture_output=True, text=True, check=True).stdout
    percentiles = {int(q): float(v) * UNITS_MS[unit]
                   for q, v, unit in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)}
    requests = int(re.search(r"(\d+) requests in", output)[1])
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    timeouts = re.search(r"timeout (\d+)", output)
    return {"requests": requests, "p50_ms": percentiles[50], "p99_ms": percentiles[99],
            "non_2xx": int(non_2xx[1]) if non_2xx else 0, "timeouts": int(timeouts[1]) if timeouts else 0}


def scorer_clock_env(folder: Path) -> dict[str, str]:
    """The environment under which a server's processes time their scorer calls into `folder`."""
    folder.mkdir()
    return {"FANSHOT_SCORER_CLOCK": str(folder),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(SCORER_CLOCK), os.environ.get("PYTHONPATH")]))}


def scorer_clock(folder: Path) -> tuple[int, float]:
    """Scorer calls and their CPU seconds so far, over every process that wrote to `folder`."""
    totals = [line.split() for line in (path.read_text() for path in folder.iterdir()) if line]
    return sum(int(calls) for calls, _ in totals), sum(float(seconds) for _, seconds in totals)


def measure(name: str, server: subprocess.Popen, port: int, connections: int, duration: int, bodies: Path,
            clock: Path | None) -> dict:
    wrk(port, connections, 3, bodies)  # warm-up
    before, clock_before = cpu_seconds(server.pid), clock and scorer_clock(clock)
    result = wrk(port, connections, duration, bodies)
    used, clock_after = cpu_seconds(server.pid) - before, clock and scorer_clock(clock)
    measured = {"server": name, "connections": connections, **result, "rps": round(result["requests"] / duration),
                "server_cpu_ms_per_request": round(1000 * used / result["requests"], 3)}
    if clock:
        calls, seconds = (after - before for after, before in zip(clock_after, clock_before, strict=True))
        measured["scorer_cpu_ms_in_worker"] = round(1000 * seconds / calls, 3)
    return measured


def scorer_cpu_ms(bodies: list[bytes], rounds: int = 3) -> float:
    """The scorer's own CPU per request (ms) on these bodies: parse and score, as the route does, after a warm-up."""
    from fanshot import scoring

    requests = [json.loads(body) for body in bodies]
    scoring.warm()

    def score_all() -> None:
        for request in requests:
            with contextlib.suppress(scoring.ScoringError):  # a refusal costs its validation, as in the route
                scoring.score(request)

    score_all()
    start = time.process_time()
    for _ in range(rounds):
        score_all()
    return (time.process_time() - start) * 1000 / (rounds * len(requests))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=20, help="seconds per run")
    parser.add_argument("--connections", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        bodies = Path(scratch) / "bodies.jsonl"
        corpus = score_bodies()
        bodies.write_bytes(b"\n".join(corpus) + b"\n")
        scorer_ms = scorer_cpu_ms(corpus)
        workers = str(args.workers)
        clock = Path(scratch) / "scorer-clock"
        servers = {
            "fanshot": (start([sys.executable, "-m", "fanshot", "serve", "--port", "8811", "--workers", workers,
                               "--data-dir", str(Path(scratch) / "data")], 8811, scorer_clock_env(clock)), 8811),
            **{name: (start([sys.executable, "-m", "uvicorn", "echo_app:app", "--app-dir", "benchmarks", "--port",
                             str(port), "--workers", workers, "--no-access-log", *loop], port), port)
               for name, port, loop in ((ECHO, 8812, []), (ECHO_ON_ASYNCIO, 8813, ["--loop", "asyncio"]))},
        }
        try:
            results = []
            for connections in args.connections:
                for name, (server, port) in servers.items():
                    results.append(measure(name, server, port, connections, args.duration, bodies,
                                           clock if name == "fanshot" else None))
                    print(json.dumps(results[-1]), flush=True)
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait(30)
    print("\n| server | connections | rps | p50 ms | p99 ms | p99 / p50 | non-2xx | timeouts | "
          "server CPU ms / request | the scorer's, in the workers |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['server']} | {r['connections']} | {r['rps']:,} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
              f"{r['p99_ms'] / r['p50_ms']:.1f} | {r['non_2xx']} | {r['timeouts']} | "
              f"{r['server_cpu_ms_per_request']} | {r.get('scorer_cpu_ms_in_worker', '')} |")
    for connections in args.connections:
        ours, peer, same_loop = (next(r for r in results if r["server"] == name and r["connections"] == connections)
                                 for name in servers)
        served = ours["scorer_cpu_ms_in_worker"]
        overhead, overhead_tight = (ours["server_cpu_ms_per_request"] - own for own in (served, scorer_ms))
        print(f"CPU per request at {connections} connections: fanshot / echo = "
              f"{ours['server_cpu_ms_per_request'] / peer['server_cpu_ms_per_request']:.2f}; the scorer's own "
              f"{served:.3f} ms in the served workers ({scorer_ms:.3f} in a tight loop); HTTP overhead "
              f"{overhead:.3f} ms = {overhead / peer['server_cpu_ms_per_request']:.2f} x the echo's CPU per request "
              f"(bar 1.5), {overhead / same_loop['server_cpu_ms_per_request']:.2f} x the echo's on asyncio's loop; "
              f"with the tight loop's scorer {overhead_tight:.3f} ms = "
              f"{overhead_tight / peer['server_cpu_ms_per_request']:.2f} x; "
              f"p99 / the echo's p99 = {ours['p99_ms'] / peer['p99_ms']:.2f} (bar 3 at 200)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
