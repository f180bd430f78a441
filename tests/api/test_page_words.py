"""The page words every error the API can answer, in both of its languages (api/static/i18n.js)."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from scoring.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
# Besides the scorer's codes: the photo's (vision/image.py PhotoError), the API's own, and the page's "network".
OTHER_CODES = {"empty", "not_an_image", "truncated", "too_many_pixels", "not_found", "too_large", "bad_box",
               "model_unavailable", "internal", "network", "not_enough_examples", "busy"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_error_code_has_plain_words_in_english_and_chinese():
    script = "import('./api/static/i18n.js').then(m => console.log(JSON.stringify(m.ERROR_CODES)))"
    worded = json.loads(subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True,
                                       check=True).stdout)
    for language in ("en", "zh"):
        assert set(ERROR_CODES) | OTHER_CODES <= set(worded[language]), language
