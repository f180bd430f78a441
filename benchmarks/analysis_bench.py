"""Ready-hand analysis latency: `scoring.analysis.analyse` on seeded random 14-tile hands (every discard, its
waits valued by the scorer, or its useful tiles), with one `scoring.score` call timed in the same run as a floor.

    .venv/bin/python benchmarks/analysis_bench.py [--n 1000] [--seed 1] [--clock cpu|wall] [--json]

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
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from scoring_bench import CLOCKS  # benchmarks/ is this script's folder

from fanshot.datasets.synth.hands import RULESETS, random_tiles
from fanshot.scoring import analysis, decompose, score
from fanshot.scoring import tiles as t

BAR_MS = 20.0
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


def clear_caches() -> None:
    for module in (decompose, analysis):
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="hands (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=CLOCKS, default="cpu", help="cpu (default) or wall")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
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
