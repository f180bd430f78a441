"""The zh/en switch over the sections beside the photo and the hand, in headless Debian Chromium on a phone and a
desktop viewport: the game's scoresheet and status lines, the waits (POST /v1/analyse) and the money lines of a
qianggang score. In 中文 none of them shows an English word; in English none shows Chinese except the tile
vocabulary's own names (GET /v1/tiles: "东 East", and the faces on the tile pictures). A switch redraws what is
on screen; what comes after it is worded in the new language. Set-up and screen checks as in test_browser.py."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.api.conftest import MISREAD
from tests.api.test_browser import check_screen, expect, page, ready, serve, server, upload  # noqa: F401

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bo", "Cai", "Dee"]
ZH_MAY_SAY = {"CSV", *PLAYERS}  # the scoresheet's file format, and the names the players typed
SECTIONS = ["#game-section", "#waits-section", "#money", "#same-discard-field"]
WORDS = """([selector, skipTiles]) => {
  const root = document.querySelector(selector);
  const shown = (element) => !(skipTiles && element.closest('.tile'));
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (shown(node.parentElement)) texts.push(node.data);
  }
  for (const element of [root, ...root.querySelectorAll('*')]) {
    if (!shown(element)) continue;
    for (const name of ['title', 'aria-label', 'alt']) {
      if (element.getAttribute(name)) texts.push(element.getAttribute(name));
    }
  }
  return texts.join('\\n');
}"""


def english_in(tab, selector: str) -> list[str]:
    """English words in an element's text and its title/aria-label/alt attributes, hidden parts included."""
    words = re.findall(r"[A-Za-z]+", tab.evaluate(WORDS, [selector, False]))
    return [word for word in words if word not in ZH_MAY_SAY]


def chinese_in(tab, selector: str, vocabulary: list[str]) -> list[str]:
    """Chinese in an element's words, but the tile pictures' faces and the vocabulary's names ("东 East")."""
    text = tab.evaluate(WORDS, [selector, True])
    for name in sorted(vocabulary, key=len, reverse=True):
        text = text.replace(name, "")
    return re.findall(r"[\u3400-\u9fff]+", text)


def switch(tab, to: str) -> None:
    tab.locator("#language").select_option(to)
    expect(tab.locator("html")).to_have_attribute("lang", to)


def test_game_waits_and_money_speak_the_chosen_language_only(server, page):  # noqa: F811 - the fixtures
    vocabulary = [tile["zh"] for tile in httpx.get(f"{server}/v1/tiles").json()]
    ready(page, server)
    page.select_option("#ruleset", "qianggang")
    for key, value in (("flower", "1"), ("kong", "2"), ("chicken", "3")):
        page.fill(f"#stake-{key}", value)
    for i, name in enumerate(PLAYERS):
        page.fill(f"#player-{i}", name)
    page.locator("#start-game").click()
    expect(page.locator("#game-status")).to_have_text("Game started: share its link with the table.")
    upload(page)  # 14 tiles that do not win: the waits list the discards
    expect(page.locator("#waits-section .headline")).to_have_text("14 tiles: ready")

    switch(page, "zh-Hans")  # what is on screen is redrawn
    expect(page.locator("#waits-section .headline")).to_have_text("14 张：听牌")
    expect(page.locator("#photo-status")).to_have_text("读到 14 张牌，1 张没把握。")
    expect(page.locator("#game-title")).to_have_text("东风圈 · 第 1 手 · Ann 坐庄")
    expect(page.locator("#game-status")).to_have_text("牌局开始了：把链接发给同桌的人。")
    expect(page.locator("#seat_wind option[value='2z']")).to_contain_text("Bo")  # seats still name the players
    for selector in ("#game-section", "#waits-section"):
        assert english_in(page, selector) == [], selector

    # what comes after the switch: a scored discard win with a flower, added to the game
    page.locator("#suggestions button").first.click()
    page.locator("#flowers .add-tile").click()
    page.locator("#palette .pick[data-code='1f']").click()
    page.locator("input[name=win][value=discard]").check(force=True)
    page.locator("#game-winner label", has_text="Bo").click()
    page.locator("#discarder").select_option("4z")
    page.locator("#score-button").click()
    expect(page.locator("#money")).to_have_text(re.compile(r"花注 1 · 杠注 2 · 鸡胡注 3\s*每家 7 = 番 6 \+ 花 1"))
    page.locator("#add-to-game").click()
    expect(page.locator("#game-status")).to_have_text("第 1 手已记入：Bo 1 番，Dee 放炮。")
    expect(page.locator("#scoresheet-body tr.detail")).to_have_text("Bo 1 番，Dee 放炮")
    expect(page.locator("#same-discard-field")).to_be_visible()
    for selector in SECTIONS:
        assert english_in(page, selector) == [], selector
    check_screen(page, "zh game")

    switch(page, "en")
    expect(page.locator("#game-status")).to_have_text("Hand 1 added: Bo 1 fan on Dee's discard.")
    expect(page.locator("#game-title")).to_have_text("东 East round · hand 2 · Bo deals")
    expect(page.locator("#money")).to_have_text(re.compile(r"Flower stake 1 · Kong stake 2 · Chicken stake 3\s*"
                                                           r"Per payer 7 = hand 6 \+ flowers 1"))
    expect(page.locator("#same-discard-field")).to_have_text(re.compile("Another winner on hand 1's discard"))
    for selector in SECTIONS[:1] + SECTIONS[2:]:
        assert chinese_in(page, selector, vocabulary) == [], selector

    switch(page, "zh-Hans")
    page.locator("#record-draw").click()
    expect(page.locator("#game-status")).to_have_text("第 2 手：流局。")
    page.locator(f".box[data-tile='{MISREAD}']").click()  # out of the hand: 13 tiles wait on 3m
    page.locator("#picker-actions").get_by_role("button", name="移出手牌").click()
    expect(page.locator("#waits-section tr.wait")).to_have_count(1)
    expect(page.locator("#waits-section thead th")).to_have_text(["听", "余", "自摸", "点炮"])
    for selector in ("#game-section", "#waits-section"):
        assert english_in(page, selector) == [], selector
    check_screen(page, "zh waits")

    switch(page, "en")
    expect(page.locator("#waits-section thead th")).to_have_text(["Wait", "Left", "Self-draw", "Discard"])
    expect(page.locator("#scoresheet-body tr.detail").last).to_have_text("Draw")
    for selector in ("#game-section", "#waits-section"):
        assert chinese_in(page, selector, vocabulary) == [], selector


def test_a_game_that_is_gone_is_said_to_be_gone_in_either_language(server, page):  # noqa: F811 - the fixtures
    ready(page, server)
    page.goto(f"{server}/?game={'0' * 32}")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#game-status")).to_have_text("Could not open the game: That game is not on this server any "
                                                      "more: start a new one.")
    switch(page, "zh-Hans")
    expect(page.locator("#game-status")).to_have_text("打不开这一局：服务器上已经没有这一局了：请重新开一局。")


def test_status_lines_and_a_refused_score_are_worded_again_after_a_switch(server, page):  # noqa: F811 - fixtures
    ready(page, server)
    upload(page)
    page.locator("#clear-hand").click()
    page.locator("#score-button").click()
    expect(page.locator("#result .error")).to_have_text("Choose the winning tile (★) among the standing tiles.")
    switch(page, "zh-Hans")
    expect(page.locator("#result .error")).to_have_text("请在立牌里选出胡的那张牌（★）。")
    expect(page.locator("#hand-status")).to_have_text("手牌已清空：牌都在下方的其他牌里。")
    expect(page.locator("#photo-status")).to_have_text("读到 14 张牌，1 张没把握。")
