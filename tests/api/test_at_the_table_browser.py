"""At the table with phones on the home network (issue 49), in headless Debian Chromium on a phone, served by
`fanshot serve` itself under the name fanshot.lan (mapped to 127.0.0.1 inside Chromium): over https with the
server's own CA the page is a secure context, its service worker takes over and the camera opens; over http the
camera button says why it cannot open; a game's QR code, read from a screenshot, opens the game on a second
phone, which follows it live; a Hong Kong phone reads the page in Traditional characters with Cantonese wording
and starts on 香港舊章."""

from __future__ import annotations

import base64
import hashlib
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from tests.api.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.api.test_browser import PHONE, expect, open_page, ready, serve, server, upload  # noqa: F401
from tests.api.test_durability import free_port
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
    expect(page.locator("#manifest")).to_have_attribute("href", "/static/manifest.zh-Hant.json")  # its app's name
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


# ---- fanshot serve under the name fanshot.lan ------------------------------------------------------------------

NAME = "fanshot.lan"


@contextmanager
def fanshot_serve(folder: Path, *options: str) -> Iterator[tuple[int, Path]]:
    """`fanshot serve --allowed-host fanshot.lan OPTIONS` on a free port: the port and the file it printed to."""
    port, printed = free_port(), folder / "printed.txt"
    with printed.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "fanshot", "serve", "--port", str(port), "--data-dir",
                                    str(folder / "data"), "--allowed-host", NAME, *options],
                                   stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert process.poll() is None and time.monotonic() < deadline, printed.read_text()
            time.sleep(0.2)
        yield port, printed
    finally:
        process.terminate()
        process.wait(30)


def chromium(playwright, *extra: str):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1", "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream", *extra])


def served_certificate(port: int) -> x509.Certificate:
    unverified = ssl.create_default_context()
    unverified.check_hostname, unverified.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port)) as raw, unverified.wrap_socket(raw, server_hostname=NAME) as tls:
        return x509.load_der_x509_certificate(tls.getpeercert(binary_form=True))


def spki_hash(cert: x509.Certificate) -> str:
    """What --ignore-certificate-errors-spki-list names: base64 SHA-256 of the key (as a phone trusting the CA)."""
    der = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.mark.server  # a real `fanshot serve` process
def test_https_with_its_own_ca_gives_a_phone_the_camera_and_offline_use(playwright, tmp_path):
    with fanshot_serve(tmp_path, "--https") as (port, printed):
        ca_pem = httpx.get(f"https://127.0.0.1:{port}/ca.pem", verify=False).content
        trusting = ssl.create_default_context(cadata=ca_pem.decode())  # a phone that trusts only the CA
        with socket.create_connection(("127.0.0.1", port)) as raw, trusting.wrap_socket(raw, server_hostname=NAME):
            pass  # the handshake verified the chain, the name constraints and fanshot.lan
        words = printed.read_text()
        assert f"https://{NAME}:{port}/" in words and "▀" in words  # the addresses to open, a QR code

        browser = chromium(playwright, f"--ignore-certificate-errors-spki-list={spki_hash(served_certificate(port))}")
        page = open_page(browser, PHONE)
        try:
            ready(page, f"https://{NAME}:{port}/")
            assert page.evaluate("window.isSecureContext") is True
            expect(page.locator("#camera-insecure")).to_be_hidden()
            page.evaluate("navigator.serviceWorker.ready")
            page.reload()
            page.wait_for_selector("body[data-ready=true]")
            assert page.evaluate("navigator.serviceWorker.controller !== null")  # it took control after a reload
            page.locator("#camera-button").click()
            expect(page.locator("#camera")).to_be_visible()
            page.wait_for_function("() => document.querySelector('#camera-video').readyState >= 2")  # frames arrive
            assert page.evaluate("document.querySelector('#camera-video').videoWidth") > 0
            expect(page.locator("#photo-status")).to_have_text("")
            page.screenshot(path=tmp_path / "https.png")
        finally:
            page.close()
            browser.close()
        assert not page.errors, page.errors


@pytest.mark.server  # a real `fanshot serve` process
def test_over_http_the_camera_button_says_why_and_where_to_go(playwright, tmp_path):
    with fanshot_serve(tmp_path) as (port, _):
        browser = chromium(playwright)
        page = open_page(browser, PHONE)
        try:
            ready(page, f"http://{NAME}:{port}/")
            assert page.evaluate("window.isSecureContext") is False
            expect(page.locator("#camera-button")).to_be_visible()
            expect(page.locator("#camera-insecure")).to_contain_text("opened over https")
            expect(page.locator("#camera-trust")).to_have_attribute("href", "/trust")
            page.locator("#camera-button").click()
            status = page.locator("#photo-status")
            expect(status).to_have_text("The browser gives the camera only to a page opened over https, and this "
                                        "one was opened over http.")
            assert "No camera found" not in page.inner_text("body")
            page.locator("#camera-trust").click()
            page.wait_for_selector("body[data-ready=true]")
            expect(page.locator("#trust-off")).to_contain_text("fanshot serve --https")
        finally:
            page.close()
            browser.close()
        assert not page.errors, page.errors


def read_qr(element) -> str:
    """What a QR code on screen says, read from a screenshot of it as a phone's camera would."""
    png = np.frombuffer(element.screenshot(), np.uint8)
    return cv2.QRCodeDetector().detectAndDecode(cv2.imdecode(png, cv2.IMREAD_GRAYSCALE))[0]


def test_a_games_qr_code_opens_it_on_a_second_phone_which_follows_it_live(server, browser):  # noqa: F811
    first = open_page(browser, PHONE)
    second = open_page(browser, PHONE)  # a context of its own: another phone
    try:
        ready(first, server)
        for i, name in enumerate(["Ann", "Bo", "Cai", "Dee"]):
            first.fill(f"#player-{i}", name)
        first.locator("#start-game").click()
        qr = first.locator("[data-testid=game-qr]")
        expect(qr).to_be_visible()
        first.wait_for_function("() => document.querySelector('[data-testid=game-qr]').naturalWidth > 0")
        box = qr.bounding_box()
        assert min(box["width"], box["height"]) >= 250  # CSS px: big enough to scan across a table
        link = read_qr(qr)
        assert link == first.locator("#share-game").get_attribute("href"), link  # the game's own link

        first.locator("#page-menu summary").click()  # the page's own address, for a phone to open the page itself
        first.wait_for_function("() => document.querySelector('[data-testid=page-qr]').naturalWidth > 0")
        assert read_qr(first.locator("[data-testid=page-qr]")) == f"{server}/"
        first.locator("#page-menu summary").click()  # closed again: open, it covers the sheet that leads the page

        ready(second, link)
        expect(second.locator("#game-title")).to_have_text(first.locator("#game-title").inner_text())
        first.locator("#record-draw").click()  # a hand on the first phone shows on the second
        expect(second.locator("#scoresheet-body tr.detail")).to_have_text("Draw")
    finally:
        first.close()
        second.close()
