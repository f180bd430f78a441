"""The page at the table (issue 35 items 2, 7 and 13), in headless Debian Chromium on the phone and desktop
viewports: unsaved fixes are kept and Back and Forward move between photos; a game's hand is edited from its row;
the layout keeps Save by Score, folds the waits, uses a desktop's width and marks the tile being fixed. Set-up as
in test_browser.py: the deterministic fake recognizer, a real server, page, API and storage."""

import httpx
import pytest

from tests.api.conftest import MISREAD
from tests.api.test_browser import browser, page, ready, serve, server, stored, sync_api, upload  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser
expect = sync_api.expect
PLAYERS = ["Ann", "Bo", "Cai", "Dee"]
MACHINE = "12m456p3789s11122z"  # the fake recognizer's reading, 3s misread
FIXED = "123m456p789s11122z"
UNSAVED = "Unsaved changes: kept on this device until you save."
RESTORED = "Your unsaved changes to this photo are back: save to keep them."
LEAVING = "() => { const event = new Event('beforeunload', {cancelable: true}); dispatchEvent(event); " \
          "return event.defaultPrevented; }"


def fix_the_misread_tile(tab) -> None:
    tab.locator(f".box[data-tile='{MISREAD}']").click()
    tab.locator("#picker-alternatives .pick[data-code='3m']").click()
    expect(tab.locator("#hand-summary")).to_contain_text(FIXED)


def shows_photo(tab, recognition_id: str, hand: str) -> None:
    expect(tab.locator("#photo-image")).to_have_attribute("src", f"/v1/recognitions/{recognition_id}/image")
    expect(tab.locator("#hand-summary")).to_contain_text(hand)


def test_unsaved_fixes_are_kept_per_photo_and_back_and_forward_move_between_photos(server, page):  # noqa: F811
    # issue 35 item 2: Back left the app, Forward brought back the machine's reading, "Saved ✓" stayed after edits
    game = httpx.post(f"{server}/v1/games", json={"players": PLAYERS}).json()
    ready(page, f"{server}/?game={game['id']}")
    first = upload(page)
    assert page.evaluate("new URLSearchParams(location.search).get('game')") == game["id"]  # it survives a photo
    page.locator("#save-button").click()
    expect(page.locator("#save-status")).to_contain_text("Saved ✓")
    assert not page.evaluate(LEAVING)  # nothing unsaved: leaving asks nothing
    fix_the_misread_tile(page)
    expect(page.locator("#save-status")).to_have_text(UNSAVED)  # not "Saved ✓" any more
    assert page.evaluate(LEAVING)  # leaving now asks first

    second = upload(page)
    assert second != first and page.evaluate("new URLSearchParams(location.search).get('game')") == game["id"]
    expect(page.locator("#hand-summary")).to_contain_text(MACHINE)
    expect(page.locator("#save-status")).to_have_text("")
    page.go_back()  # to the first photo, with its unsaved fix, not out of the app
    assert page.url.endswith(f"#{first}") and f"game={game['id']}" in page.url
    shows_photo(page, first, FIXED)
    expect(page.locator("#photo-status")).to_have_text(RESTORED)
    expect(page.locator("#save-status")).to_have_text(UNSAVED)
    page.go_forward()
    shows_photo(page, second, MACHINE)
    page.evaluate(f"location.hash = '#{first}'")  # a changed #id, as a pasted link gives it
    shows_photo(page, first, FIXED)

    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    page.reload()  # the browser asks before leaving unsaved changes; the draft outlives the page
    page.wait_for_selector("body[data-ready=true]")
    assert asked == ["beforeunload"]
    shows_photo(page, first, FIXED)
    page.locator("#save-button").click()
    expect(page.locator("#save-status")).to_contain_text("Saved ✓")
    assert page.evaluate(f"localStorage.getItem('fanshot-draft-{first}')") is None  # saved: the draft is done
    assert stored(server, first)["confirmation"]["hand"]["concealed"] == FIXED
    assert not page.evaluate(LEAVING)
    page.evaluate(f"location.hash = '#{second}'")
    shows_photo(page, second, MACHINE)  # the other photo never had a fix
