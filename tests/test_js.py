"""The page's JavaScript modules (api/static/*.js) pass their tests (tests/js/, node's own test runner), so that the
one test command covers the page's code too."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.services import unavailable

ROOT = Path(__file__).resolve().parents[1]


def test_the_page_modules_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        unavailable("node (20 or newer)", "apt-get install -y nodejs")
    # the in-page localiser's test compares it with this Python's (tests/js/localiser-python.test.js)
    result = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "FANSHOT_PYTHON": sys.executable})
    report = result.stdout + result.stderr
    assert result.returncode == 0, report[-6000:]
    assert int(re.search(r"^# pass (\d+)$", report, re.M).group(1)) > 0 and "# fail 0" in report, report[-2000:]
