"""Ready-hand analysis latency: `scoring.analysis.analyse` on seeded random 14-tile hands (every discard, its
waits valued by the scorer, or its useful tiles), with one `scoring.score` call timed in the same run as a floor.

    .venv/bin/python benchmarks/analysis_bench.py [--n 1000] [--seed 1] [--clock cpu|wall] [--json]
    .venv/bin/python benchmarks/analysis_bench.py --before COMMIT [--runs 5]

--before loads scoring/analysis.py as it was at COMMIT (git show) beside the current one, checks that both give
the same answer to every hand, and times whole passes over the hands with each, interleaved, `--runs` times; it
prints each one's fastest pass and their ratio (the speed-up of POST /v1/analyse's work since COMMIT).

Hands come from datasets/synth/hands.py's random_tiles (no four of a kind): half drawn from a shuffled wall, half a
winning shape with 0-3 tiles exchanged, so ready discards are common. Each rule set gets a quarter of them; tuidaohu
hands play with the white-dragon ghost. Caches are cleared before the timed pass (each hand is new). Times are
this process's CPU time by default (steady on a host shared with other jobs), or elapsed time with --clock wall.
The bar (issue 13): median <= 20 ms per 14-tile analysis.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from scoring_bench import CLOCKS  # benchmarks/ is this script's folder

from fanshot.datasets.synth.hands import RULESETS, random_tiles
from fanshot.scoring import analysis, decompose, score
from fanshot.scoring import tiles as t

BAR_MS = 20.0
ROOT = Path(__file__).resolve().parents[1]
FLOOR_REQUEST = {"hand": {"concealed": "123m456p789s555s11z", "winning_tile": "1z"}}


def requests(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    found = []
    for i in range(n):
        ruleset = RULESETS[i % len(RULESETS)]
        tiles = t.to_string(code for code, k in zip(t.PLAYING_TILES, random_tiles(rng, 14), strict=True)
                            for _ in range(k))
        request = {"ruleset": ruleset, "hand": {"concealed": tiles}}
        if ruleset == "tuidaohu":
            request["options"] = {"ghosts": "white"}
        found.append(request)
    return found


def clear_caches(*modules: types.ModuleType) -> None:
    for module in (decompose, analysis, *modules):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _ms(seconds: list[float], quantile: float) -> float:
    ordered = sorted(seconds)
    return round(1000 * ordered[min(len(ordered) - 1, int(quantile * len(ordered)))], 2)


def measure(items: list[dict], clock: Callable[[], float] = time.process_time) -> dict:
    for request in items[:50]:  # warm-up: imports, rule sets loaded
        analysis.analyse(request)
    clear_caches()
    each, ready = [], []
    for request in items:
        start = clock()
        answer = analysis.analyse(request)
        each.append(clock() - start)
        ready.append(answer["discards"][0]["shanten"] <= 0)
    floor = []
    for _ in range(2000):
        start = clock()
        score(FLOOR_REQUEST)
        floor.append(clock() - start)
    with_waits = [s for s, r in zip(each, ready, strict=True) if r]
    median = statistics.median(each)
    return {
        "analyse_ms": {"median": round(1000 * median, 2), "p90": _ms(each, 0.9), "max": _ms(each, 1)},
        "ready_hands": len(with_waits),
        "analyse_ready_ms": {"median": round(1000 * statistics.median(with_waits), 2), "p90": _ms(with_waits, 0.9)},
        "score_ms_median": round(1000 * statistics.median(floor), 3),
        "analyse_over_score": round(median / statistics.median(floor), 1),
    }


def analysis_at(commit: str) -> types.ModuleType:
    """scoring/analysis.py as it was at `commit`, loaded as a module of its own (the rest of the package is today's)."""
    source = subprocess.run(["git", "show", f"{commit}:scoring/analysis.py"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    module = types.ModuleType(f"analysis_at_{commit}")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{commit}:scoring/analysis.py", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module


def compare(items: list[dict], before: types.ModuleType, runs: int,
            clock: Callable[[], float] = time.process_time) -> dict:
    """Fastest whole pass of `before` and of today's analysis over the same hands, interleaved, caches cleared
    before each pass; refuses to time two analyses that answer differently."""
    for request in items:
        if before.analyse(request) != analysis.analyse(request):
            raise SystemExit(f"the two analyses differ on {request}")
    passes: dict[str, list[float]] = {"before": [], "after": []}
    for _ in range(runs):
        for name, module in (("before", before), ("after", analysis)):
            clear_caches(before)
            start = clock()
            for request in items:
                module.analyse(request)
            passes[name].append(clock() - start)
    fastest = {name: min(seconds) for name, seconds in passes.items()}
    return {"fastest_pass_s": {name: round(s, 3) for name, s in fastest.items()},
            "before_over_after": round(fastest["before"] / fastest["after"], 2)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="hands (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=CLOCKS, default="cpu", help="cpu (default) or wall")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--before", metavar="COMMIT", help="time against scoring/analysis.py at COMMIT")
    parser.add_argument("--runs", type=int, default=5, help="passes each with --before (default 5)")
    args = parser.parse_args(argv)
    if args.before:
        result = {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "load_1m": round(os.getloadavg()[0], 2),
                  "n": args.n, "seed": args.seed, "clock": args.clock, "before": args.before, "runs": args.runs,
                  **compare(requests(args.n, args.seed), analysis_at(args.before), args.runs, CLOCKS[args.clock])}
        result["load_1m_after"] = round(os.getloadavg()[0], 2)
        print(json.dumps(result, indent=2))
        return 0
    result = {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "python": platform.python_version(),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "load_1m": round(os.getloadavg()[0], 2),
              "n": args.n, "seed": args.seed, "clock": args.clock,
              **measure(requests(args.n, args.seed), CLOCKS[args.clock])}
    result["load_1m_after"] = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    a, r = result["analyse_ms"], result["analyse_ready_ms"]
    verdict = "meets" if a["median"] <= BAR_MS else "is ABOVE"
    print(f"analysis benchmark, {result['date']}, Python {result['python']}, {result['machine']}, "
          f"load {result['load_1m']} -> {result['load_1m_after']}, {args.clock} clock\n"
          f"14-tile analyse(), {args.n} hands (seed {args.seed}): median {a['median']} ms, p90 {a['p90']} ms, "
          f"max {a['max']} ms\n"
          f"  hands whose best discard is ready ({result['ready_hands']}): median {r['median']} ms, p90 {r['p90']} ms\n"
          f"one score() in the same run: median {result['score_ms_median']} ms; analyse / score = "
          f"{result['analyse_over_score']}x\n"
          f"bar: median <= {BAR_MS} ms: {verdict} the bar")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
