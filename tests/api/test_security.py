"""Who may use the server and how its answers may be used: the Host check (DNS rebinding), cross-site writes,
the optional access token, and security headers."""

import httpx
import pytest

from fanshot.api.app import create_app
from fanshot.api.security import Security, host_name, machine_addresses
from tests.api.conftest import fake_recognise, free_port, jpeg, local_client, serve

TOKEN = "s3cret-token"


@pytest.fixture
def guarded(tmp_path):
    return local_client(create_app(tmp_path, recognise=fake_recognise,
                                   security=Security.with_hosts(["mahjong.example"], TOKEN)))


@pytest.mark.parametrize(("host", "status"), [
    ("attacker.example", 421), ("localhost.attacker.example", 421), ("", 421),
    ("localhost", 200), ("localhost:8000", 200), ("127.0.0.1:8000", 200), ("[::1]:8000", 200),
    ("127.0.0.2", 200),
])
def test_only_this_servers_names_are_served(client, host, status):
    response = client.get("/v1/datasets/export", headers={"Host": host})
    assert response.status_code == status
    if status == 421:
        assert response.json()["errors"][0]["code"] == "unknown_host"


def test_configured_names_and_this_machines_addresses_are_served(tmp_path):
    client = local_client(create_app(tmp_path, recognise=fake_recognise,
                                     security=Security.with_hosts(["Mahjong.Example"], None)))
    for host in ["mahjong.example", "mahjong.example:8443", *sorted(machine_addresses())]:
        netloc = f"[{host}]" if ":" in host and not host.startswith("mahjong") else host
        assert client.get("/healthz", headers={"Host": netloc}).status_code == 200, host


def upload(client, **headers):
    return client.post("/v1/recognitions", files={"photo": ("hand.jpg", jpeg(), "image/jpeg")}, headers=headers)


@pytest.mark.parametrize(("headers", "status"), [
    ({"Origin": "https://evil.example"}, 403),
    ({"Origin": "null"}, 403),
    ({"Origin": "http://localhost:9999"}, 403),
    ({"Sec-Fetch-Site": "cross-site"}, 403),
    ({"Origin": "http://localhost"}, 201),
    ({"Sec-Fetch-Site": "same-origin"}, 201),
    ({}, 201),  # curl, scripts: no Origin
])
def test_other_sites_cannot_write(client, headers, status):
    response = upload(client, **headers)
    assert response.status_code == status, response.text
    if status == 403:
        assert response.json()["errors"][0]["code"] == "cross_origin"


def test_cross_site_reads_are_not_refused_but_cannot_be_read_by_the_other_site(client):
    response = client.get("/v1/rulesets", headers={"Origin": "https://evil.example"})
    assert response.status_code == 200 and "access-control-allow-origin" not in response.headers


def test_security_headers(client, recognition):
    page = client.get("/")
    policy = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    # scripts: the page's own, and the localiser's runtime with its WebAssembly, from no other CDN folder
    runtime = "https://cdn.jsdelivr.net/npm/onnxruntime-web@"
    assert "script-src 'self' 'wasm-unsafe-eval' " + runtime in policy and policy.count(runtime) == 2
    assert page.headers["x-content-type-options"] == "nosniff"
    # cross-origin isolated: the localiser's WASM threads need SharedArrayBuffer
    assert page.headers["cross-origin-opener-policy"] == "same-origin"
    assert page.headers["cross-origin-embedder-policy"] == "require-corp"
    image = client.get(f"/v1/recognitions/{recognition['id']}/image")
    assert image.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in client.get("/docs").headers["content-security-policy"]
    assert client.get("/nowhere").headers["x-content-type-options"] == "nosniff"


def test_without_the_token_nothing_but_health_is_served(guarded):
    assert guarded.get("/healthz").status_code == 200
    for path in ["/", "/v1/rulesets", "/openapi.json", "/v1/datasets/export"]:
        response = guarded.get(path)
        assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer", path
    assert guarded.get("/v1/rulesets", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert upload(guarded).status_code == 401


def test_api_clients_send_the_token_as_a_bearer(guarded):
    assert guarded.get("/v1/rulesets", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert upload(guarded, Authorization=f"Bearer {TOKEN}").status_code == 201


def test_the_page_gets_the_token_once_from_its_link(guarded):
    assert guarded.get("/?token=wrong", follow_redirects=False).status_code == 401
    opened = guarded.get(f"/?token={TOKEN}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    cookie = opened.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    assert guarded.get("/").status_code == 200  # the client keeps the cookie
    assert upload(guarded).status_code == 201


@pytest.mark.parametrize(("netloc", "name"), [("Example.org:80", "example.org"), ("[::1]:8000", "::1"),
                                              ("a b", "a b"), ("[::1", "")])
def test_host_name(netloc, name):
    assert host_name(netloc) == name


@pytest.mark.server
def test_serve_takes_allowed_hosts_and_a_token_from_its_options(tmp_path):
    port = free_port()
    server = serve(tmp_path, port, "--allowed-host", "mahjong.example", "--token", TOKEN)
    try:
        url = f"http://127.0.0.1:{port}/v1/rulesets"
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.get(url).status_code == 401
        assert httpx.get(url, headers=bearer).status_code == 200
        assert httpx.get(url, headers={**bearer, "Host": "mahjong.example"}).status_code == 200
        assert httpx.get(url, headers={**bearer, "Host": "attacker.example"}).status_code == 421
    finally:
        server.kill()
        server.wait()
