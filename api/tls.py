"""`fanshot serve --https`: TLS a home network can use, from a small certificate authority of the server's own.

Browsers give a page the camera and a service worker on https only (or on localhost), so four phones opening the
server at 192.168.x.y need a certificate they can trust. The CA is made once and kept in DATA_DIR/tls (its key
readable by the server's user only); a phone trusts it once (GET /ca.pem, the /trust page). It is name-constrained
(RFC 5280 NameConstraints) to private addresses, localhost, .local and .lan names and the --allowed-host names, so
that a phone trusting it can be fooled about no other site even if its key leaks. The server certificate it signs
covers every name and private address the server answers to, and is made again before it expires and whenever
those change (checked at each start).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

TLS_DIR = "tls"
CA_FILE, CA_KEY_FILE = "ca.pem", "ca-key.pem"
SERVER_FILE, SERVER_KEY_FILE = "server.pem", "server-key.pem"
CA_DAYS = 10 * 365
SERVER_DAYS = 397  # Apple's limit for a server certificate: 398 days
RENEW_BEFORE = datetime.timedelta(days=30)
PRIVATE_NETWORKS = tuple(ipaddress.ip_network(net) for net in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16", "fc00::/7", "fe80::/10",
    "::1/128"))
LOCAL_DOMAINS = ("localhost", "local", "lan")  # a DNS constraint covers the name and every name under it

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Coverage:
    """What the server certificate names: host names and IP addresses."""
    names: tuple[str, ...]
    addresses: tuple[Address, ...]


def is_private(address: Address) -> bool:
    return any(address in network for network in PRIVATE_NETWORKS if network.version == address.version)


def permitted_names(host_name: str, allowed_hosts: Iterable[str]) -> tuple[str, ...]:
    """The DNS names the CA may vouch for: the local domains, this machine's name where it is a bare one (no dots:
    no site on the internet) and each --allowed-host name (not an address) outside them."""
    names = {host.lower() for host in allowed_hosts if not _is_address(host)}
    bare = host_name.lower().rstrip(".")
    if bare and "." not in bare:
        names.add(bare)
    return (*LOCAL_DOMAINS, *sorted(name for name in names if not _under(name, LOCAL_DOMAINS)))


def coverage(host_name: str, addresses: Iterable[str], allowed_hosts: Iterable[str]) -> Coverage:
    """The names and addresses the server certificate covers: localhost, the host name (bare and as NAME.local),
    every --allowed-host name, and every private address (a public one is outside the CA's constraints; a browser
    would refuse the whole certificate)."""
    permitted = permitted_names(host_name, allowed_hosts)
    host = host_name.lower().rstrip(".")
    wanted = {"localhost", f"{host.split('.')[0]}.local", host, *(name.lower() for name in allowed_hosts)}
    names = {name for name in wanted if name and not _is_address(name) and _under(name, permitted)}
    found = {ipaddress.ip_address(address.split("%")[0]) for address in [*addresses, *allowed_hosts]
             if _is_address(address)}
    private = sorted((address for address in found | {ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")}
                      if is_private(address)), key=lambda address: (address.version, int(address)))
    return Coverage(tuple(sorted(names)), tuple(private))


def interface_addresses() -> list[str]:
    """Every address of every network interface of this machine."""
    import psutil

    families = (socket.AF_INET, socket.AF_INET6)
    return [entry.address for entries in psutil.net_if_addrs().values() for entry in entries
            if entry.family in families]


def lan_addresses(covered: Coverage, preferred: Iterable[str] = ()) -> list[Address]:
    """The addresses a phone on the home network opens: private, not loopback or link-local; those in `preferred`
    (the one this machine reaches its network by) first, then IPv4 before IPv6."""
    first = {ipaddress.ip_address(address.split("%")[0]) for address in preferred if _is_address(address)}
    found = [address for address in covered.addresses if not (address.is_loopback or address.is_link_local)]
    return sorted(found, key=lambda address: (address not in first, address.version, int(address)))


def ensure_certificate(tls_dir: Path, covered: Coverage, permitted: tuple[str, ...],
                       now: datetime.datetime | None = None) -> tuple[Path, Path, bool]:
    """The server certificate and key files for `covered`, made (with the CA, on first use) where missing, within
    RENEW_BEFORE of expiry or covering other names; and whether the CA is new (phones must trust it again)."""
    now = now or datetime.datetime.now(datetime.UTC)
    tls_dir.mkdir(parents=True, exist_ok=True)
    ca, ca_key, new_ca = _certificate_authority(tls_dir, permitted, now)
    server_file, key_file = tls_dir / SERVER_FILE, tls_dir / SERVER_KEY_FILE
    if new_ca or not _still_good(server_file, now, lambda cert: _covers(cert, covered, ca)):
        key = ec.generate_private_key(ec.SECP256R1())
        _write_key(key_file, key)
        server_file.write_bytes(_server_certificate(covered, key, ca, ca_key, now).public_bytes(
            serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM))
    return server_file, key_file, new_ca


def _certificate_authority(tls_dir: Path, names: tuple[str, ...],
                           now: datetime.datetime) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey, bool]:
    ca_file, key_file = tls_dir / CA_FILE, tls_dir / CA_KEY_FILE
    if key_file.is_file() and _still_good(ca_file, now, lambda cert: _permits(cert) == set(names)):
        key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
        return x509.load_pem_x509_certificate(ca_file.read_bytes()), key, False
    key = ec.generate_private_key(ec.SECP256R1())
    _write_key(key_file, key)
    subject = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Fanshot"),
                         x509.NameAttribute(NameOID.COMMON_NAME, f"Fanshot at {socket.gethostname()[:40]}")])
    constraints = x509.NameConstraints(
        permitted_subtrees=[*(x509.DNSName(name) for name in names), *map(x509.IPAddress, PRIVATE_NETWORKS)],
        excluded_subtrees=None)
    cert = (_builder(subject, subject, key.public_key(), now, CA_DAYS)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(constraints, critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    ca_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert, key, True


def _server_certificate(covered: Coverage, key: ec.EllipticCurvePrivateKey, ca: x509.Certificate,
                        ca_key: ec.EllipticCurvePrivateKey, now: datetime.datetime) -> x509.Certificate:
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, covered.names[0])])
    names = [*(x509.DNSName(name) for name in covered.names), *map(x509.IPAddress, covered.addresses)]
    return (_builder(subject, ca.subject, key.public_key(), now, SERVER_DAYS)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))


def _builder(subject: x509.Name, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey,
             now: datetime.datetime, days: int) -> x509.CertificateBuilder:
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=days)))


def _still_good(path: Path, now: datetime.datetime, fits) -> bool:
    """Whether the certificate in `path` exists, is not within RENEW_BEFORE of expiry, and `fits`."""
    if not path.is_file():
        return False
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    return cert.not_valid_after_utc - RENEW_BEFORE > now and fits(cert)


def _permits(ca: x509.Certificate) -> set[str]:
    subtrees = ca.extensions.get_extension_for_class(x509.NameConstraints).value.permitted_subtrees or []
    return {entry.value for entry in subtrees if isinstance(entry, x509.DNSName)}


def _covers(cert: x509.Certificate, covered: Coverage, ca: x509.Certificate) -> bool:
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return (cert.issuer == ca.subject and tuple(sorted(san.get_values_for_type(x509.DNSName))) == covered.names
            and set(san.get_values_for_type(x509.IPAddress)) == set(covered.addresses))


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """The key in PEM, readable and writable by this user only from its first byte."""
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return False
    return True


def _under(name: str, domains: Iterable[str]) -> bool:
    return any(name == domain or name.endswith(f".{domain}") for domain in domains)


@dataclass(frozen=True)
class HttpsSettings:
    """How `fanshot serve` serves TLS: uvicorn's certificate and key files, the addresses to open, the names the
    server answers to besides its usual ones, and whether phones must trust a new CA."""
    certfile: Path
    keyfile: Path
    urls: tuple[str, ...]
    hosts: tuple[str, ...]
    new_ca: bool = False


def https_settings(data_dir: Path, port: int, allowed_hosts: Iterable[str], cert: Path | None = None,
                   key: Path | None = None, preferred: Iterable[str] = ()) -> HttpsSettings:
    """The user's own certificate (`cert`, `key`), else one from the server's CA in DATA_DIR/tls, made or renewed
    now for this machine's names and the addresses of its interfaces at this moment."""
    allowed = list(allowed_hosts)
    covered = coverage(socket.gethostname(), interface_addresses(), allowed)
    lan = [str(address) if address.version == 4 else f"[{address}]" for address in lan_addresses(covered, preferred)]
    if cert and key:
        urls = [f"https://{host}:{port}/" for host in [*allowed, *lan] or ["localhost"]]
        return HttpsSettings(cert, key, tuple(urls), tuple(str(address) for address in covered.addresses))
    certfile, keyfile, new_ca = ensure_certificate(data_dir / TLS_DIR, covered,
                                                   permitted_names(socket.gethostname(), allowed))
    urls = [f"https://{host}:{port}/" for host in [*lan, *(name for name in covered.names if name != "localhost")]]
    return HttpsSettings(certfile, keyfile, tuple(urls or [f"https://localhost:{port}/"]),
                         tuple(str(address) for address in covered.addresses), new_ca)
