"""The page words every error the API can answer, in every one of its languages (api/static/i18n.js)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from fanshot.api.errors import HTTP_CODES
from fanshot.scoring.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
# The codes the API and the photo reader raise themselves, read from their source so a new one cannot be missed:
# Refusal(422, "code", ...), PhotoError("code", ...), the guard's refusal(401, "code", ...), {"code": "code", ...}.
RAISED = re.compile(r"(?:Refusal\(\d+|refusal\(\d+|PhotoError\()\s*,?\s*\"(\w+)\"|\"code\": \"(\w+)\"")
# The reasons the scorer gives in an error's detail (docs/API.md "Errors"): reason="..." or _at(field, "...").
REASONS = re.compile(r"reason=\"(\w+)\"|_at\(field, \"(\w+)\"")
# The server's catch-all ("internal"), the page's own lost connection ("network") and an answer that is not the
# API's (a proxy's 502 page: "not_json", api/static/api.js).
OTHER_CODES = {"internal", "network", "not_json"}


def found(pattern: re.Pattern[str], sources: list[Path]) -> set[str]:
    return {name for path in sources for match in pattern.findall(path.read_text(encoding="utf-8"))
            for name in match if name}


def raised_codes() -> set[str]:
    return found(RAISED, [*ROOT.glob("api/**/*.py"), *ROOT.glob("vision/**/*.py")])


def scorer_reasons() -> set[str]:
    return found(REASONS, [*ROOT.glob("scoring/**/*.py")])


def test_the_raised_codes_and_reasons_are_found():
    assert {"not_found", "unknown_recognition", "bad_box", "truncated", "too_many_pixels", "unauthorized",
            "cross_origin", "unknown_host", "storage_unavailable"} <= raised_codes()
    assert {"count", "range", "needs_win", "not_a_tile", "no_suit", "size"} <= scorer_reasons()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_error_code_has_plain_words_in_english_and_chinese():
    for language, worded in page_error_keys().items():
        missing = (set(ERROR_CODES) | set(HTTP_CODES.values()) | raised_codes() | OTHER_CODES) - set(worded)
        assert not missing, language


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_reason_the_scorer_gives_has_its_own_words_in_english_and_chinese():
    """Issue 35: a refusal names its fix, so each reason (a fix of its own) is worded: `code#reason` or
    `code@field#reason` among the page's error words."""
    for language, worded in page_error_keys().items():
        reasons = {key.rsplit("#", 1)[1] for key in worded if "#" in key}
        assert not scorer_reasons() - reasons, language


def page_error_keys() -> dict[str, list[str]]:
    script = "import('./api/static/i18n.js').then(m => console.log(JSON.stringify(m.ERROR_CODES)))"
    return json.loads(subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True,
                                     check=True).stdout)
