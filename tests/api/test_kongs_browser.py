"""Every kong on the sheet (issue 50): a draw and a win carry the other players' kongs, entered under the sheet or in
the hand editor, in either language; the sheet shows their money apart; a rule set that pays no kongs offers no
control. Set-up as in test_browser.py: the deterministic fake recogniser, a real server, page, API and storage."""

import re

import httpx
import pytest

from tests.api.test_browser import expect, phone, ready, serve, server, shots  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser
PLAYERS = ["Ann", "Bo", "Cai", "Dee"]


def new_game(server: str, ruleset: str) -> str:  # noqa: F811 - the fixture's value
    return httpx.post(f"{server}/v1/games", json={"players": PLAYERS, "ruleset": ruleset}).json()["id"]


def switch_to_chinese(tab, script: str = "zh-Hans") -> None:
    tab.locator("#language").select_option(script)
    expect(tab.locator("html")).to_have_attribute("lang", script)


def add_kong(tab, where: str, player: str, kind: str, fed_by: str | None = None) -> None:
    tab.locator(f"#{where}-kong-add").click()
    row = tab.locator(f"#{where}-kongs .kong").last
    row.locator("select").nth(0).select_option(label=player)
    row.locator("select").nth(1).select_option(kind)
    if fed_by:
        row.locator("select").nth(2).select_option(label=fed_by)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_draw_carries_each_player_s_kongs_and_the_sheet_shows_their_money(server, phone, language):  # noqa: F811
    # issue 50: "Draw" recorded a plain draw at once, and the editor offered no kongs
    game_id = new_game(server, "tuidaohu")
    ready(phone, f"{server}/?game={game_id}")
    if language == "zh":
        switch_to_chinese(phone)
    expect(phone.locator("#next-kongs-field")).to_be_visible()
    phone.locator("#next-kongs-field summary").click()
    add_kong(phone, "next", "Bo", "concealed")
    add_kong(phone, "next", "Dee", "exposed", fed_by="Cai")
    fed_by = phone.locator("#next-kongs .kong").last.locator("select").nth(2)
    assert "Dee" not in fed_by.locator("option").all_inner_texts()  # nobody feeds their own kong
    phone.locator("#record-draw").click()
    row = phone.locator("#scoresheet-body tr[data-hand='1'] td")
    expect(row).to_have_text(["-2", "+6", "-5", "+1"])  # 暗杠 2 from each; 点杠 3 from Cai
    money = {"en": "Kongs: Ann -2, Bo +6, Cai -5, Dee +1", "zh": "杠钱：Ann -2、Bo +6、Cai -5、Dee +1"}[language]
    expect(phone.locator("#scoresheet-body tr.detail .kong-money")).to_have_text(money)
    expect(phone.locator("#next-kongs .kong")).to_have_count(0)  # the next hand starts with none
    hand = httpx.get(f"{server}/v1/games/{game_id}").json()["hands"][0]
    assert hand["kongs"] == [{"player": 1, "kind": "concealed"}, {"player": 3, "kind": "exposed", "from": 2}]

    phone.locator("#scoresheet-body tr.detail").first.click()  # the editor: the kongs as recorded, to change
    expect(phone.locator("#edit-kongs .kong")).to_have_count(2)
    phone.locator("#edit-kongs .kong .remove-kong").first.click()
    add_kong(phone, "edit", "Ann", "added")
    phone.locator("#edit-save").click()
    expect(phone.locator("#hand-editor")).to_be_hidden()
    expect(row).to_have_text(["+3", "-1", "-4", "+2"])
    hand = httpx.get(f"{server}/v1/games/{game_id}").json()["hands"][0]
    assert hand["kongs"] == [{"player": 3, "kind": "exposed", "from": 2}, {"player": 0, "kind": "added"}]
    if language == "zh":
        assert not re.search(r"[A-Za-z]{3,}", phone.locator("#edit-kongs-field").inner_text().replace("Ann", "")
                             .replace("Bo", "").replace("Cai", "").replace("Dee", ""))


def test_a_rule_set_that_pays_no_kongs_offers_no_kong_control(server, phone):  # noqa: F811
    game_id = new_game(server, "jipinghu")
    httpx.post(f"{server}/v1/games/{game_id}/hands", json={"kind": "draw"}).raise_for_status()
    ready(phone, f"{server}/?game={game_id}")
    expect(phone.locator("#scoresheet-body tr.detail")).to_have_count(1)
    expect(phone.locator("#next-kongs-field")).to_be_hidden()
    phone.locator("#scoresheet-body tr.detail").first.click()
    expect(phone.locator("#hand-editor")).to_be_visible()
    expect(phone.locator("#edit-kongs-field")).to_be_hidden()
    phone.keyboard.press("Escape")
    phone.locator("#record-draw").click()  # a draw without kongs, as before
    expect(phone.locator("#scoresheet-body tr.detail")).to_have_count(2)


def test_kong_payments_are_not_run_together(server, phone):  # noqa: F811
    # issue 50: the result's kong payments read "West-3", the seat and the amount run together
    ready(phone, server)
    phone.evaluate("""async () => {
      const { renderResult } = await import('/static/result.js');
      renderResult({ fans: [], fan_total: 1, points: 2, stake: { unit: 1 }, per_payer: 3,
        per_payer_parts: { hand: 2, kongs: 1 }, payments: { '1z': 6, '2z': -2, '3z': -2, '4z': -2 },
        kong_payments: { '2z': 1, '3z': 1, '4z': 1 } }, '1z');
    }""")
    items = phone.locator("#result .kong-payments li")
    expect(items).to_have_count(4)
    text = items.nth(2).text_content()
    assert re.fullmatch(r"\S.* [+-]\d+", text), text  # "West 西 -1", not "West 西-1"
    name, amount = items.nth(2).locator("span"), items.nth(2).locator("b")
    gap = amount.bounding_box()["x"] - (name.bounding_box()["x"] + name.bounding_box()["width"])
    assert gap >= 8, gap  # laid out apart, as the hand's payments are


def test_one_fed_by_for_a_kong_and_its_refusal_points_at_it(server, phone):  # noqa: F811
    # issue 50: two "fed by" controls (Liability's and the meld's), and the errors pointed at the wrong one
    ready(phone, server)
    expect(phone.locator("#kong_fed_by")).to_have_count(0)  # Liability keeps only the liable seat
    phone.locator("#ruleset").select_option("tuidaohu")  # the discarder pays an exposed kong: name them
    phone.locator("#hand-text").fill("123m456p789s11z [7777z]")
    phone.get_by_role("button", name="Put in the hand").click()
    phone.get_by_role("button", name="Score").click()
    expect(phone.locator("#result")).to_contain_text("Meld 1, fed by: this rule set makes the discarder pay")
    fed_by = phone.locator("#melds .meld .fed-by")
    expect(fed_by).to_have_count(1)
    expect(fed_by).to_be_focused()
    expect(fed_by).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("language", ["en", "zh", "zh-Hant"])
def test_the_game_flow_on_a_phone_for_a_person_to_look_at(server, phone, shots, language):  # noqa: F811
    """FANSHOT_SCREENSHOTS=1 pytest tests/api/test_kongs_browser.py -k flow redraws docs/game-{en,zh,zh-Hant}-*.png."""
    game_id = new_game(server, "tuidaohu")
    win = {"kind": "win", "discarder": None, "wins": [{"winner": 1, "request": {
        "hand": {"concealed": "111m222m333m444m55m", "winning_tile": "5m"}}}]}
    httpx.post(f"{server}/v1/games/{game_id}/hands", json=win).raise_for_status()
    ready(phone, f"{server}/?game={game_id}")
    if language != "en":
        switch_to_chinese(phone, {"zh": "zh-Hans"}.get(language, language))
    section = phone.locator("#game-section")
    phone.locator("#next-kongs-field summary").click()
    add_kong(phone, "next", "Cai", "exposed", fed_by="Ann")
    section.screenshot(path=shots / f"game-{language}-1-kongs.png", scale="css")
    phone.locator("#record-draw").click()
    expect(phone.locator("#scoresheet-body tr.detail .kong-money")).to_have_count(1)
    section.screenshot(path=shots / f"game-{language}-2-sheet.png", scale="css")
    phone.locator("#scoresheet-body tr.detail").nth(1).click()
    expect(phone.locator("#edit-kongs .kong")).to_have_count(1)
    phone.locator("#hand-editor").screenshot(path=shots / f"game-{language}-3-editor.png", scale="css")
