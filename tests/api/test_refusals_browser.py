"""Issue 35 items 4 and 14 on the page, in headless Debian Chromium on the phone and desktop viewports: a hand typed
without a photo, a bad tile in it selected and named, and refusals that name their field and fix (a proxy's 502
page included). Set-up and helpers as in test_browser.py."""

import pytest

from tests.api.test_browser import check_screen, expect, page, ready, serve, server  # noqa: F401

pytestmark = pytest.mark.browser


def type_hand(page, text: str) -> None:  # noqa: F811 - the fixture's name
    page.locator("#hand-text").fill(text)
    page.get_by_role("button", name="Put in the hand").click()


def test_a_typed_hand_scores_without_a_photo_and_a_bad_tile_is_selected(server, page, tmp_path):  # noqa: F811
    ready(page, server)
    type_hand(page, "123m 4x5p")
    expect(page.locator("#type-status")).to_have_text(
        "Typed hand: “x” (character 7) is not a tile: write digits, then a suit letter: m characters, p dots, "
        "s bamboo, z winds and dragons (1-7), e.g. 123m 55z.")
    selected = page.locator("#hand-text").evaluate("input => [input.selectionStart, input.selectionEnd]")
    assert selected == [6, 7]
    page.screenshot(path=tmp_path / "typed-bad-tile.png")

    type_hand(page, "123m456p789s11122z")
    expect(page.locator("#concealed .tile-button")).to_have_count(14)
    expect(page.locator("#type-status")).to_have_text("")
    page.get_by_role("button", name="Score").click()
    expect(page.locator("#result")).to_contain_text("fan")
    check_screen(page, "typed hand")


def test_refusals_name_their_field_and_fix(server, page, tmp_path):  # noqa: F811
    ready(page, server)
    page.locator("#ruleset").select_option("tuidaohu")
    type_hand(page, "123m456p789s11122z")
    page.locator("#horses").fill("1m2m3m4m")
    page.get_by_role("button", name="Score").click()
    expect(page.locator("#result")).to_contain_text("Horses: this hand draws 6 horses; you entered 4.")
    page.screenshot(path=tmp_path / "horses.png", full_page=True)

    page.locator("#horses").fill("15mxy")
    page.get_by_role("button", name="Score").click()
    expect(page.locator("#result")).to_contain_text("Horses: “x” (character 4) is not a tile")

    page.locator("#horses").fill("")
    page.locator("#stake-unit").fill("-1")
    page.get_by_role("button", name="Score").click()
    expect(page.locator("#result")).to_contain_text("Stake per point: enter a number from 0 to 1,000,000,000,000")

    page.route("**/v1/score", lambda route: route.fulfill(status=502, content_type="text/html",
                                                          body="<html><h1>502 Bad Gateway</h1></html>"))
    page.get_by_role("button", name="Score").click()
    expect(page.locator("#result")).to_contain_text("The server, or a proxy in front of it, answered with an error "
                                                    "(HTTP 502)")
    page.locator("#language").select_option("zh-Hans")
    expect(page.locator("#result")).to_contain_text("代理")
