"""The page's copy of onnxruntime-web (issue 39): served from node_modules where `npm ci` put it; where it is
absent (a plain pip install) the page takes the same pinned version from jsDelivr, which the page's
Content-Security-Policy allows, and no other folder of the CDN."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanshot.api import app as app_module
from fanshot.api.routers.page import RUNTIME
from fanshot.api.security import PAGE_POLICY, cdn_runtime
from tests.api.test_models import app_client, close_databases  # noqa: F401  (autouse)

ROOT = Path(__file__).resolve().parents[2]


def test_the_policy_allows_the_cdn_folder_of_the_version_package_json_pins():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["onnxruntime-web"]
    assert cdn_runtime() == f"https://cdn.jsdelivr.net/npm/onnxruntime-web@{pinned}/dist/"
    assert f"script-src 'self' 'wasm-unsafe-eval' {cdn_runtime()};" in PAGE_POLICY
    assert f"connect-src 'self' {cdn_runtime()};" in PAGE_POLICY


def test_the_runtime_npm_installed_is_served_as_javascript_and_webassembly(tmp_path):
    if not RUNTIME.is_dir():
        pytest.skip(f"no {RUNTIME}: run `npm ci` first")
    client = app_client(tmp_path)
    for module in ("ort.wasm.min.mjs", "ort.webgpu.min.mjs"):  # runtime.js's two
        answer = client.get(f"/static/vendor/onnxruntime-web/{module}")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    wasm = client.get("/static/vendor/onnxruntime-web/ort-wasm-simd-threaded.wasm")
    assert wasm.status_code == 200 and wasm.headers["content-type"] == "application/wasm"
    assert wasm.content[:4] == b"\0asm"
    assert client.get("/static/app.js").status_code == 200  # the page's own files are still served


def test_without_the_npm_copy_there_is_no_runtime_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(app_module, "RUNTIME", tmp_path / "absent")
    client = app_client(tmp_path / "data")
    answer = client.get("/static/vendor/onnxruntime-web/ort.wasm.min.mjs")
    assert answer.status_code == 404  # runtime.js's HEAD probe fails, and the page takes the CDN's copy
