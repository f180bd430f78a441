"""/sw.js, the page's service worker (api/routers/page.py): served as a script the browser re-checks on every
visit, naming this deploy's page files in a cache whose name changes whenever any of them does."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from fastapi.testclient import TestClient

from fanshot.api.routers.page import STATIC, worker_script


def build(script: str) -> dict:
    return json.loads(re.search(r"startWorker\(self, (\{.*\})\);", script, re.S).group(1))


def test_the_worker_is_a_script_the_browser_checks_on_every_visit(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.text.startswith('import { startWorker } from "/static/serviceworker.js";')
    precache = build(answer.text)["precache"]
    for path in precache[1:]:  # every file it names is served
        assert client.get(path).status_code == 200, path
    assert precache[0] == "/"
    assert {"/static/app.js", "/static/outbox.js", "/static/style.css"} <= set(precache)
    assert len(precache) == 1 + sum(1 for path in STATIC.rglob("*") if path.is_file())


def test_a_deploy_that_changes_any_page_file_names_a_new_cache(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    before = build(worker_script(static))
    assert build(worker_script(static)) == before  # the same files: the same worker, nothing reinstalled
    (static / "style.css").write_text((static / "style.css").read_text() + "\n/* a fix */\n")
    changed = build(worker_script(static))
    assert changed["version"] != before["version"]
    (static / "later").mkdir()
    (static / "later" / "module.js").write_text("export const x = 1;\n")
    added = build(worker_script(static))
    assert added["version"] != changed["version"]
    assert "/static/later/module.js" in added["precache"]
