"""Progress bars (issue 38): drawn on a terminal's stderr, never on stdout, and not at all when stderr is not a
terminal (a pipe, a log file, CI)."""

from __future__ import annotations

import io
import subprocess
import sys

from fanshot.datasets.progress import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_count_and_the_items_come_through_unchanged(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert list(progress(iter(range(5)), "eval set", total=5)) == [0, 1, 2, 3, 4]
    assert "eval set" in screen.getvalue() and "0/5" in screen.getvalue()  # drawn at once; cleared when done


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch):
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    assert list(progress(range(3), "eval set")) == [0, 1, 2]
    assert piped.getvalue() == ""


def test_a_long_command_writes_no_bar_into_a_log(tmp_path):
    done = subprocess.run([sys.executable, "-m", "fanshot", "synth", "--n", "2", "--seed", "1", "--workers", "1",
                           "--out", str(tmp_path / "s"), "--art-cache", str(tmp_path / "none")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "it/s" not in done.stderr and "items/s" not in done.stderr
