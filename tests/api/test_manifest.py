"""The page installs as a home-screen app (issue 49): a web app manifest per language, with its icons."""

import io
import json
import re

import pytest
from PIL import Image

from fanshot.api.routers.page import STATIC

LANGUAGES = ["en", "zh-Hans", "zh-Hant"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_a_standalone_manifest_with_icons_the_server_serves(client, lang):
    answer = client.get(f"/static/manifest.{lang}.json")
    assert answer.status_code == 200
    manifest = answer.json()
    assert (manifest["lang"], manifest["display"], manifest["start_url"]) == (lang, "standalone", "/")
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    for icon in manifest["icons"]:
        image = Image.open(io.BytesIO(client.get(icon["src"]).content))
        assert f"{image.width}x{image.height}" == icon["sizes"]
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}  # what Chrome asks to install


def test_the_names_are_each_languages_and_the_page_links_a_manifest(client):
    names = {lang: json.loads((STATIC / f"manifest.{lang}.json").read_text(encoding="utf-8"))["name"]
             for lang in LANGUAGES}
    assert len(set(names.values())) == 3 and "影相" in names["zh-Hant"]  # Cantonese: 影相, to take a photo
    assert 'rel="manifest" id="manifest" href="/static/manifest.en.json"' in client.get("/").text
