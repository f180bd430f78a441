"""The camera journey offline (issue 39, "Done when"): opened once online, the camera mode opens with no network
(the page, the localiser's model and the runtime from the service worker's cache), counts the tiles, and the shot it
takes by itself waits on the device until the server is back, then is read. Fixtures and helpers of
test_camera_browser.py (the fake camera) and test_offline_browser.py (offline: no network, an empty HTTP cache)."""

from __future__ import annotations

import re

import pytest

from tests.api.test_browser import PHONE, expect, serve  # noqa: F401 - fixtures
from tests.api.test_camera_browser import RUNTIME, camera_browser, live_count, open_page  # noqa: F401
from tests.api.test_offline_browser import go_offline, kept_shots, open_and_keep, reopen

pytestmark = pytest.mark.browser


@pytest.mark.skipif(not RUNTIME.is_dir(), reason="onnxruntime-web is not installed: npm ci")
def test_the_camera_mode_opens_offline_and_its_shot_waits_for_the_server(serve, camera_browser):  # noqa: F811
    server = serve()
    page = open_page(camera_browser, PHONE, permissions=["camera"])
    open_and_keep(page, server)
    page.get_by_test_id("camera").click()  # once online: the model and the runtime are cached as they are used
    expect(page.locator("#save-button")).to_be_enabled(timeout=60_000)  # the shot taken by itself, and read

    go_offline(page)
    reopen(page)
    page.get_by_test_id("camera").click()
    expect(page.get_by_test_id("live-count")).to_have_text(re.compile(r"^\d+ "), timeout=60_000)
    assert live_count(page) > 0
    expect(page.locator("#photo-status")).to_contain_text("cannot be reached", timeout=60_000)  # the shot waits
    expect(page.locator("#camera")).to_be_hidden()
    assert kept_shots(page) == 1

    page.context.set_offline(False)
    page.locator("#retry-photo").click()
    expect(page.locator("#boxes .box")).to_have_count(14)
    assert kept_shots(page) == 0
    assert not page.errors, page.errors
