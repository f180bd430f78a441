"""/docs and /redoc work offline: the pages reference only this server's own assets, and it serves them."""

import re

import pytest

ASSET_TYPES = {".js": "javascript", ".css": "text/css", ".png": "image/png"}


def asset_urls(page: str) -> list[str]:
    return re.findall(r"""(?:src|href)=["']([^"']+)["']""", page)


@pytest.mark.parametrize(("path", "assets"), [
    ("/docs", {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}),
    ("/redoc", {"redoc.standalone.js", "favicon.png"}),
])
def test_docs_pages_load_only_local_assets(client, path, assets):
    response = client.get(path)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert not re.search(r"https?://", page), "the page names another host"
    urls = asset_urls(page)
    assert {url.rsplit("/", 1)[-1] for url in urls} == assets
    for url in urls:
        assert url.startswith("/docs-assets/"), url
        asset = client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 1000, url
        assert ASSET_TYPES[url[url.rindex("."):]] in asset.headers["content-type"], (url, asset.headers)
    assert "'/openapi.json'" in page or '"/openapi.json"' in page
    assert client.get("/openapi.json").status_code == 200


def test_docs_pages_are_not_in_the_schema(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert not {"/docs", "/redoc"} & set(paths) and not any(path.startswith("/docs-assets") for path in paths)
