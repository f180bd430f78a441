"""The page words every error the API can answer, in both of its languages (api/static/i18n.js)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from fanshot.api.errors import HTTP_CODES
from fanshot.scoring.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
# The codes the API and the photo reader raise themselves, read from their source so a new one cannot be missed.
RAISED = re.compile(r"(?:Refusal\(\d+|PhotoError\()\s*,?\s*\"(\w+)\"")
# The server's catch-all ("internal") and the page's own lost connection ("network").
OTHER_CODES = {"internal", "network"}


def raised_codes() -> set[str]:
    sources = [*ROOT.glob("api/**/*.py"), *ROOT.glob("vision/**/*.py")]
    return {code for path in sources for code in RAISED.findall(path.read_text(encoding="utf-8"))}


def test_the_raised_codes_are_found():
    assert {"not_found", "unknown_recognition", "bad_box", "truncated", "too_many_pixels"} <= raised_codes()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_error_code_has_plain_words_in_english_and_chinese():
    script = "import('./api/static/i18n.js').then(m => console.log(JSON.stringify(m.ERROR_CODES)))"
    worded = json.loads(subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True,
                                       check=True).stdout)
    for language in ("en", "zh"):
        missing = (set(ERROR_CODES) | set(HTTP_CODES.values()) | raised_codes() | OTHER_CODES) - set(worded[language])
        assert not missing, language
