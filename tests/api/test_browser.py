"""End to end in headless Debian Chromium: upload a real photo, fix the uncertain tile, score, save.

The recognizer is the deterministic fake (tests/api/conftest.py), so the fix and the score are known; the
photo, its upload and decoding, the page, the API and the storage are real."""

import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from api.app import create_app
from tests.api.conftest import MISREAD, fake_recognize, real_photo
from tests.api.test_durability import free_port

sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (its browser download is "
                               "not needed: the test drives Debian's chromium)")
CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture
def server(tmp_path):
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(tmp_path, recognize=fake_recognize), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def page():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--headless", "--no-sandbox", "--disable-background-networking", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page
        browser.close()
        assert not errors, f"JavaScript errors: {errors}"


def test_upload_fix_score_save(server, page):
    page.goto(server)
    page.wait_for_selector("#ruleset option[value=jipinghu]", state="attached")
    page.set_input_files("#photo-input", real_photo())
    uncertain = page.locator(f".box[data-tile='{MISREAD}']")
    sync_api.expect(uncertain).to_have_class("box low")
    uncertain.click()
    page.locator("#picker-alternatives .pick[data-code='3m']").click()  # its most likely alternative
    sync_api.expect(uncertain).to_have_class("box edited")
    sync_api.expect(page.locator("#hand-summary")).to_contain_text("123m456p789s11122z")

    page.locator("#score-button").click()
    sync_api.expect(page.locator("#result .fan")).to_have_count(4)
    sync_api.expect(page.locator("#result")).to_contain_text("自摸")
    sync_api.expect(page.locator("#result")).to_contain_text("Self-draw")
    sync_api.expect(page.locator("#result .payments li")).to_have_count(4)
    sync_api.expect(page.locator("#result .payments li.winner")).to_contain_text("+24")

    page.locator("#save-button").click()
    sync_api.expect(page.locator("#save-status")).to_contain_text("Saved")
    recognition_id = page.evaluate("location.hash.slice(1)")
    stored = httpx.get(f"{server}/v1/recognitions/{recognition_id}").json()["confirmation"]
    assert stored["tiles"][MISREAD]["code"] == "3m"
    assert stored["hand"]["concealed"] == "123m456p789s11122z"


def test_suggestion_applied_and_a_missed_tile_marked_on_the_photo(server, page):
    page.goto(server)
    page.set_input_files("#photo-input", real_photo())
    sync_api.expect(page.locator(".box")).to_have_count(14)
    page.locator("#suggestions button", has_text="Apply").click()
    sync_api.expect(page.locator("#hand-summary")).to_contain_text("123m456p789s11122z")
    sync_api.expect(page.locator("#suggestions-section")).to_be_hidden()
    page.locator("#flowers .add-tile").click()
    page.locator("#palette .pick[data-code='1f']").click()
    page.locator("#flowers .tile-button").click()
    page.get_by_role("button", name="□ Mark it on the photo").click()
    photo = page.locator("#photo-image").bounding_box()
    page.mouse.move(photo["x"] + 10, photo["y"] + 10)
    page.mouse.down()
    page.mouse.move(photo["x"] + 40, photo["y"] + 50, steps=3)
    page.mouse.up()
    sync_api.expect(page.locator(".box")).to_have_count(15)
    page.locator("#save-button").click()
    sync_api.expect(page.locator("#save-status")).to_contain_text("15 labelled tiles")
    recognition_id = page.evaluate("location.hash.slice(1)")
    stored = httpx.get(f"{server}/v1/recognitions/{recognition_id}").json()["confirmation"]
    [flower] = [tile for tile in stored["tiles"] if tile["code"] == "1f"]
    assert flower["box"][2] - flower["box"][0] > 5 and stored["hand"]["flowers"] == "1f"


def test_qianggang_shows_the_stake_numbers_and_the_parts_of_the_payment(server, page):
    # RULES.md rule set 4 at stake 1 2 3: the dealer's self-drawn 123m456p789s 111z 22z is 鸡胡 + 自摸 + 门风 + 圈风
    # = 3 番, 3 x 8 = 24 from each; one flower adds the flower stake, 1
    page.goto(server)
    page.wait_for_selector("#ruleset option[value=qianggang]", state="attached")
    page.set_input_files("#photo-input", real_photo())
    page.locator("#suggestions button", has_text="Apply").click()
    page.locator("#flowers .add-tile").click()
    page.locator("#palette .pick[data-code='1f']").click()
    page.select_option("#ruleset", "qianggang")
    sync_api.expect(page.locator("label", has=page.locator("input[value=multi_win]"))).to_be_hidden()  # 截胡
    for key, value in (("flower", "1"), ("kong", "2"), ("chicken", "3")):
        page.fill(f"#stake-{key}", value)
    page.locator("#score-button").click()
    sync_api.expect(page.locator("#money")).to_contain_text("Stake 花 flower 1 · 杠 kong 2 · 鸡胡 chicken 3")
    sync_api.expect(page.locator("#money")).to_contain_text("Per payer 25 = hand 番 24 + flowers 花 1")
    sync_api.expect(page.locator("#result .payments li.winner")).to_contain_text("+75")
