"""At the table (issue 49), in headless Debian Chromium on a phone: a Hong Kong phone reads the page in Traditional
characters with Cantonese wording, and starts on 香港舊章. Set-up as in test_browser.py."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.api.test_browser import PHONE, expect, open_page, ready, serve, server, upload  # noqa: F401
from tests.api.test_language_browser import WORDS

pytestmark = pytest.mark.browser

SIMPLIFIED_ONLY = set("".join(line for line in (Path(__file__).parents[1] / "simplified_only.txt").read_text(
    encoding="utf-8").splitlines() if not line.startswith("#")))
PLAYERS = ["阿明", "阿芬", "阿強", "阿珍"]


@pytest.fixture
def hong_kong_phone(browser):
    page = open_page(browser, {**PHONE, "locale": "zh-HK"})
    yield page
    page.close()
    assert not page.errors, f"JavaScript errors: {page.errors}"


def simplified_on(page) -> list[str]:
    """Simplified-only characters anywhere in the page's words: text, hidden parts, titles, labels and alt texts."""
    return sorted(set(page.evaluate(WORDS, ["body", False])) & SIMPLIFIED_ONLY)


def test_a_hong_kong_phone_reads_traditional_cantonese_throughout(server, hong_kong_phone):  # noqa: F811
    page = hong_kong_phone
    ready(page, server)
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.locator("#ruleset")).to_have_value("hongkong")  # the server lists it: Hong Kong's tables play it
    expect(page.locator("#ruleset option[value=hongkong]")).to_have_text("香港舊章")
    expect(page.locator("#language option")).to_have_text(["English", "简体中文", "繁體中文"])
    assert simplified_on(page) == [], "the first screen"

    page.locator("#ruleset").select_option("jipinghu")
    for i, name in enumerate(PLAYERS):
        page.fill(f"#player-{i}", name)
    page.locator("#start-game").click()
    expect(page.locator("#game-status")).to_have_text("牌局開始了：把連結發給同桌的人。")
    upload(page)  # 14 tiles that do not win: the waits list the discards
    expect(page.locator("#waits-section .headline")).to_have_text("14 隻：叫糊")
    assert simplified_on(page) == [], "the waits"

    page.locator("#suggestions button").first.click()  # the misread tile fixed: the hand wins
    page.locator("#score-button").click()
    expect(page.locator("#result .fan").first).to_contain_text("雞糊")
    page.locator("#add-to-game").click()
    expect(page.locator("#scoresheet-body tr.detail")).to_have_text("阿明 3 番，自摸")
    assert simplified_on(page) == [], "a scored hand and the game sheet"
    vocabulary = httpx.get(f"{server}/v1/tiles").json()
    assert {tile["zh_hant"] for tile in vocabulary} & {"東", "五萬"}
