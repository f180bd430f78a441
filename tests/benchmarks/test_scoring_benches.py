"""The scoring and analysis benchmarks run end to end on a few hands (their figures are for BENCHMARKS.md)."""

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, "--json"], capture_output=True,
                          text=True, timeout=300, check=True)
    return json.loads(done.stdout)


def test_scoring_bench_times_both_races() -> None:
    result = run("scoring_bench.py", "--n", "60", "--runs", "1")
    assert result["standard_hands"] > 0 and result["clock"] == "cpu"
    assert {"fanshot_standard_cold", "mahjong_standard_cold", "mahjong_strings_cold"} <= result["rates"].keys()
    assert result["fair_ratio_cold"] > 0 and result["ratio_cold"] > 0


def test_analysis_bench_times_fourteen_tile_hands() -> None:
    result = run("analysis_bench.py", "--n", "12", "--clock", "wall")
    assert result["n"] == 12 and result["analyse_ms"]["median"] > 0 and result["score_ms_median"] > 0


def test_scoring_bench_parts() -> None:
    result = run("scoring_bench.py", "--parts", "--n", "60", "--runs", "1")
    assert {"fanshot score()", "fanshot evaluation", "mahjong parsing", "mahjong estimate_hand_value"} <= result.keys()
    assert all(us > 0 for us in result.values())


def test_response_digest_covers_answers_and_refusals(tmp_path) -> None:
    """Nine requests per hand, both answers and refusals among them, every line kept; the same seed, the same
    digest."""
    lines = tmp_path / "responses.jsonl"
    result = run("response_digest.py", "--n", "8", "--out", str(lines))
    assert result["requests"] == 72 and result["scored"] > 8 and result["refused"] > 8
    assert len(lines.read_text(encoding="utf-8").splitlines()) == 72
    assert run("response_digest.py", "--n", "8")["sha256"] == result["sha256"]
