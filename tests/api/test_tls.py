"""`fanshot serve --https` (issue 49): its own CA, name-constrained to the home network, and the server certificate
it signs; renewed before expiry and when the names change; GET /ca.pem; QR codes. Verified with cryptography's own
X.509 verifier, which checks the name constraints as a browser does."""

from __future__ import annotations

import datetime
import ipaddress
import stat

import cv2
import numpy as np
import pytest
import segno
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from fanshot.api import tls
from fanshot.api.routers.qr import qr_svg

NOW = datetime.datetime(2026, 12, 6, tzinfo=datetime.UTC)
HOME = tls.coverage("kitchen", ["192.168.1.20", "10.0.0.7", "fe80::1%eth0", "8.8.4.4", "127.0.0.1"], ["fanshot.lan"])
PERMITTED = tls.permitted_names("kitchen", ["fanshot.lan"])


def load(path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def verifies(tls_dir, name: x509.GeneralName, leaf: x509.Certificate | None = None) -> bool:
    """Whether the served certificate (or `leaf`) verifies for `name` against the CA alone, as a phone trusting
    only that CA would."""
    leaf = leaf or load(tls_dir / tls.SERVER_FILE)
    verifier = PolicyBuilder().store(Store([load(tls_dir / tls.CA_FILE)])).time(NOW).build_server_verifier(name)
    try:
        verifier.verify(leaf, [])
    except VerificationError:
        return False
    return True


def test_the_certificate_covers_this_machine_and_only_private_addresses():
    assert HOME.names == ("fanshot.lan", "kitchen", "kitchen.local", "localhost")
    assert set(HOME.addresses) == {ipaddress.ip_address(a) for a in ("192.168.1.20", "10.0.0.7", "fe80::1",
                                                                      "127.0.0.1", "::1")}  # not 8.8.4.4
    assert [str(a) for a in tls.lan_addresses(HOME, preferred=["192.168.1.20"])] == ["192.168.1.20", "10.0.0.7"]


def test_the_ca_is_made_once_with_a_private_key_and_name_constraints(tmp_path):
    cert, key, new = tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW)
    assert new and stat.S_IMODE((tmp_path / tls.CA_KEY_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    ca = load(tmp_path / tls.CA_FILE)
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    assert {entry.value for entry in constraints.value.permitted_subtrees} == {
        "localhost", "local", "lan", "kitchen", *tls.PRIVATE_NETWORKS}
    assert tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW)[2] is False  # kept: phones trust it already


@pytest.mark.parametrize("name", [x509.DNSName("fanshot.lan"), x509.DNSName("localhost"),
                                  x509.DNSName("kitchen.local"), x509.IPAddress(ipaddress.ip_address("192.168.1.20"))])
def test_the_served_certificate_verifies_for_each_name_it_covers(tmp_path, name):
    tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW)
    assert verifies(tmp_path, name)


def test_a_leaked_ca_key_cannot_vouch_for_another_site(tmp_path):
    """The CA's key signs a certificate for a public name: a phone that trusts the CA refuses it all the same."""
    tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW)
    ca_key = serialization.load_pem_private_key((tmp_path / tls.CA_KEY_FILE).read_bytes(), password=None)
    ca = load(tmp_path / tls.CA_FILE)
    forged = tls._server_certificate(tls.Coverage(("bank.example.com",), ()), ec.generate_private_key(ec.SECP256R1()),
                                     ca, ca_key, NOW)
    assert not verifies(tmp_path, x509.DNSName("bank.example.com"), forged)
    public = tls._server_certificate(tls.Coverage(("kitchen.local",), (ipaddress.ip_address("8.8.4.4"),)),
                                     ec.generate_private_key(ec.SECP256R1()), ca, ca_key, NOW)
    assert not verifies(tmp_path, x509.IPAddress(ipaddress.ip_address("8.8.4.4")), public)


def test_the_certificate_is_renewed_before_it_expires_and_when_the_addresses_change(tmp_path):
    tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW)
    first, ca = load(tmp_path / tls.SERVER_FILE), load(tmp_path / tls.CA_FILE)
    tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW + datetime.timedelta(days=1))
    assert load(tmp_path / tls.SERVER_FILE).serial_number == first.serial_number  # nothing changed
    moved = tls.coverage("kitchen", ["192.168.1.99"], ["fanshot.lan"])
    tls.ensure_certificate(tmp_path, moved, PERMITTED, NOW + datetime.timedelta(days=1))
    renewed = load(tmp_path / tls.SERVER_FILE)
    assert renewed.serial_number != first.serial_number
    assert ipaddress.ip_address("192.168.1.99") in renewed.extensions.get_extension_for_class(
        x509.SubjectAlternativeName).value.get_values_for_type(x509.IPAddress)
    late = first.not_valid_after_utc - datetime.timedelta(days=10)
    tls.ensure_certificate(tmp_path, moved, PERMITTED, late)
    assert load(tmp_path / tls.SERVER_FILE).not_valid_after_utc > first.not_valid_after_utc
    assert load(tmp_path / tls.CA_FILE) == ca  # the CA stays: the phones trust it already


def test_a_new_allowed_host_makes_a_new_ca_that_permits_it(tmp_path):
    tls.ensure_certificate(tmp_path, HOME, PERMITTED, NOW)
    before = load(tmp_path / tls.CA_FILE).fingerprint(hashes.SHA256())
    named = tls.coverage("kitchen", ["192.168.1.20"], ["mahjong.example.net"])
    assert tls.ensure_certificate(tmp_path, named, tls.permitted_names("kitchen", ["mahjong.example.net"]), NOW)[2]
    assert load(tmp_path / tls.CA_FILE).fingerprint(hashes.SHA256()) != before
    assert verifies(tmp_path, x509.DNSName("mahjong.example.net"))


def test_ca_pem_is_served_where_the_server_has_a_ca(client, tmp_path):
    answer = client.get("/ca.pem")
    assert answer.status_code == 404 and answer.json()["errors"][0]["code"] == "no_certificate_authority"
    tls.ensure_certificate(client.app.state.tls_dir, HOME, PERMITTED)
    answer = client.get("/ca.pem")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/x-x509-ca-cert"
    served = x509.load_pem_x509_certificate(answer.content)
    assert served == load(client.app.state.tls_dir / tls.CA_FILE)
    assert "fanshot-ca.crt" in answer.headers["content-disposition"]
    assert client.get("/trust").status_code == 200


def test_a_qr_code_says_its_text(client):
    link = "https://192.168.1.20:8000/?game=0123456789abcdef0123456789abcdef"
    answer = client.get("/v1/qr", params={"text": link})
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert answer.content == qr_svg(link)
    matrix = np.array(segno.make(link, error="m").matrix, dtype=np.uint8)  # the same symbol, as pixels, decodes
    image = np.pad(np.kron(1 - matrix, np.ones((8, 8), np.uint8)) * 255, 32, constant_values=255)
    assert cv2.QRCodeDetector().detectAndDecode(image)[0] == link
    assert client.get("/v1/qr", params={"text": "x" * 2000}).status_code == 422


@pytest.mark.parametrize(("options", "said"), [(["--cert", "c.pem"], "--cert and --key go together"),
                                               (["--cert", "c.pem", "--key", "k.pem"], "no such file: c.pem, k.pem")])
def test_serve_refuses_half_a_certificate_clearly(tmp_path, monkeypatch, capsys, options, said):
    from fanshot.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--data-dir", str(tmp_path / "data"), *options]) == 2
    assert said in capsys.readouterr().err


def test_a_certificate_of_ones_own_is_served_as_given_and_no_ca_is_made(tmp_path):
    cert, key = tmp_path / "mine.pem", tmp_path / "mine-key.pem"
    cert.write_text("PEM"), key.write_text("PEM")
    settings = tls.https_settings(tmp_path / "data", 8443, ["mahjong.example.net"], cert, key)
    assert (settings.certfile, settings.keyfile, settings.new_ca) == (cert, key, False)
    assert settings.urls[0] == "https://mahjong.example.net:8443/"
    assert not (tmp_path / "data" / tls.TLS_DIR).exists()
