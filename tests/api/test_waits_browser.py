"""Waits on the page, in headless Debian Chromium: the misread photo of tests/api/conftest.py gives 14 tiles that
do not win, so the page lists the discards (3s first, leaving 12m waiting on 3m); fixed, the hand wins and the
list goes; one tile removed, the 13 tiles show their wait with its value from POST /v1/analyse. Set-up, helpers
and the screen checks (axe-core, 44 px targets) as in test_browser.py."""

import httpx
import pytest

from tests.api.conftest import MISREAD
from tests.api.test_browser import check_screen, expect, phone, ready, serve, server, upload  # noqa: F401

pytestmark = pytest.mark.browser


def test_discards_then_waits_follow_the_hand(server, phone):  # noqa: F811 - the fixtures
    page = phone
    ready(page, server)
    upload(page)

    section = page.locator("#waits-section")
    expect(section).to_be_visible()
    expect(section.locator(".headline")).to_have_text("14 tiles: ready")
    best = section.locator(".discards li").first
    expect(best).to_have_attribute("data-code", "3s")
    expect(best.locator(".palette .pick")).to_have_count(1)
    expect(best.locator(".palette .pick")).to_have_attribute("data-code", "3m")
    check_screen(page, "discards")

    misread = page.locator(f".box[data-tile='{MISREAD}']")
    misread.click()
    page.locator("#picker-alternatives .pick[data-code='3m']").click()
    expect(section).to_be_hidden()  # 123m456p789s11122z wins: the Score button answers it

    misread.click()
    page.locator("#picker-actions").get_by_role("button", name="Out of the hand").click()  # into the tray
    expect(section).to_be_visible()
    expect(section.locator(".headline")).to_have_text("13 tiles: ready")
    request = {"ruleset": "jipinghu", "hand": {"concealed": "12m456p789s11122z"},
               "context": {"seat_wind": "1z", "prevalent_wind": "1z"}}
    wait = httpx.post(f"{server}/v1/analyse", json=request).json()["waits"][0]
    row = section.locator("tr.wait")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-code", "3m")
    expect(row.locator("td").nth(1)).to_have_text(str(wait["remaining"]))
    self_draw = wait["self_draw"]
    expect(row.locator("td").nth(2)).to_have_text(f"{self_draw['fan_total']} fan · {self_draw['points']} pts")
    check_screen(page, "waits")


def test_a_flower_under_a_rule_set_without_flowers_is_left_out_quietly(server, phone):  # noqa: F811 - the fixtures
    # issue 35: any hand with a flower under 鸡平胡 put a red error in the Waits panel
    page = phone
    ready(page, server)
    upload(page)
    misread = page.locator(f".box[data-tile='{MISREAD}']")
    misread.click()
    page.locator("#picker-actions").get_by_role("button", name="Out of the hand").click()  # 13 tiles
    page.locator("#flowers .add-tile").click()
    page.locator("#palette .pick[data-code='1f']").click()
    section = page.locator("#waits-section")
    expect(section.locator(".headline")).to_have_text("13 tiles: ready")
    expect(section.locator(".status")).to_have_text("Counted without the flowers: this rule set plays none.")
    expect(section.locator(".error")).to_have_count(0)
    expect(section.locator("tr.wait")).to_have_count(1)
