"""Progress bars (issue 38): drawn on a terminal's stderr, never on stdout, and not at all when stderr is not a
terminal (a pipe, a log file, CI)."""

from __future__ import annotations

import io
import subprocess
import sys

from fanshot.datasets.progress import progress, shares


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


def test_work_that_knows_its_share_shows_a_bar_with_the_time_left_and_the_step_on_a_terminal(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with shares("adapt") as report:
        report(0.25, "fold 1 of 2: localiser epoch 10 of 40")
        drawn = screen.getvalue()
    assert "adapt" in drawn and "25%" in drawn and "left" in drawn and "localiser epoch 10 of 40" in drawn


def test_without_a_terminal_a_share_is_a_line_at_each_tenth_done(monkeypatch):
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    with shares("adapt") as report:
        for step in range(101):
            report(step / 100, f"step {step}")
    lines = piped.getvalue().splitlines()
    assert lines[0] == "  0% step 0" and lines[-1] == "100% step 100" and len(lines) == 11
    assert "\r" not in piped.getvalue()
