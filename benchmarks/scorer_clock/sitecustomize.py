"""The scorer's own CPU time inside `fanshot serve`'s worker processes, for benchmarks/score_under_wrk.py. With
this folder on PYTHONPATH and FANSHOT_SCORER_CLOCK=FOLDER set, every Python process that starts wraps
`fanshot.scoring.score` (which the /v1/score route calls) so that it adds up the thread CPU time of its calls, and
writes `calls seconds` to FOLDER/PID every `FLUSH_CALLS` calls. The benchmark reads the files before and after a
run: the scorer's CPU per call as it runs in a served worker, among the HTTP code, rather than in a tight loop."""

import os

FOLDER = os.environ.get("FANSHOT_SCORER_CLOCK")
FLUSH_CALLS = 256

if FOLDER:
    import functools
    import time
    from pathlib import Path

    from fanshot import scoring

    untimed = scoring.score
    totals = [0, 0.0]  # calls, seconds
    record = Path(FOLDER) / str(os.getpid())

    @functools.wraps(untimed)
    def timed(*args, **kwargs):
        start = time.thread_time()
        try:
            return untimed(*args, **kwargs)
        finally:
            totals[0] += 1
            totals[1] += time.thread_time() - start
            if totals[0] % FLUSH_CALLS == 0:
                record.write_text(f"{totals[0]} {totals[1]!r}")

    scoring.score = timed
