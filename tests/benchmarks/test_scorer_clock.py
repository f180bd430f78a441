"""benchmarks/scorer_clock: a process started under score_under_wrk.py's clock environment times its scorer calls
(the overhead bar of issue 36 sets Fanshot's CPU per request against the scorer's own, timed in the workers)."""

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from load_api import score_bodies  # noqa: E402
from score_under_wrk import SCORER_CLOCK, scorer_clock, scorer_clock_env  # noqa: E402

FLUSH_CALLS = runpy.run_path(str(SCORER_CLOCK / "sitecustomize.py"))["FLUSH_CALLS"]  # inert here: no clock set


def run_scorer(calls: int, env: dict[str, str]) -> None:
    body = json.loads(score_bodies()[0])
    code = f"from fanshot import scoring\nfor _ in range({calls}): scoring.score({body!r})"
    subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, check=True, timeout=120)


def test_each_process_under_the_clock_times_its_scorer_calls(tmp_path):
    clock = tmp_path / "clock"
    env = scorer_clock_env(clock)
    run_scorer(FLUSH_CALLS, env)
    run_scorer(2 * FLUSH_CALLS, env)
    calls, seconds = scorer_clock(clock)
    assert calls == 3 * FLUSH_CALLS and len(list(clock.iterdir())) == 2
    assert 0 < seconds / calls < 0.05  # a score takes about 0.1 ms


def test_without_the_clock_nothing_is_timed(tmp_path):
    clock = tmp_path / "clock"
    scorer_clock_env(clock)
    run_scorer(FLUSH_CALLS, {})
    assert scorer_clock(clock) == (0, 0.0)
