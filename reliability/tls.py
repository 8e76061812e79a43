"""The stack's certificates, made at each start: a local CA and, signed by it, nginx's certificate for the site's
name (and 127.0.0.1, for clients that connect by address and send the name as Host).

A browser trusts the site either by the CA (`ca.pem`, e.g. httpx's `verify=`) or, for Chromium, by the SHA-256 of
the site certificate's public key (`--ignore-certificate-errors-spki-list`, `spki`); the stack's own processes by
`trusted.pem` (the system's CAs and the stack's, as SSL_CERT_FILE): nothing is installed in the system's trust
store. The keys live in the stack's own folder and die with it.
"""
import base64
import datetime
import hashlib
import ipaddress
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

DAYS = 7
"""A stack runs for hours: a week is plenty, and a leaked key is worthless soon."""


@dataclass(frozen=True)
class Certificates:
    ca: Path
    """The CA certificate (PEM) that signed `certificate`."""
    certificate: Path
    key: Path
    trusted: Path
    """The system's CA certificates and the stack's CA: SSL_CERT_FILE for the stack's processes, whose outbound
    requests (Web Push to the stack's receiver) verify certificates as on a deployment."""
    spki: str
    """base64 of the SHA-256 of the site certificate's SubjectPublicKeyInfo, as Chromium's flag takes it."""


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "catan-tournaments make stack")])


def _write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> None:
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    path.chmod(0o600)


def make(folder: Path, names: list[str]) -> Certificates:
    """A new CA and a certificate for `names` (DNS names) and 127.0.0.1, written into `folder`."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("catan.test local CA")).issuer_name(_name("catan.test local CA"))
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=DAYS))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    alternative = [*(x509.DNSName(name) for name in names), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    site = (x509.CertificateBuilder().subject_name(_name(names[0])).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=DAYS))
            .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    paths = Certificates(folder / "ca.pem", folder / "site.pem", folder / "site.key", folder / "trusted.pem",
                         spki(site))
    paths.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    system = Path(os.environ.get("SSL_CERT_FILE") or ssl.get_default_verify_paths().openssl_cafile)
    paths.trusted.write_bytes((system.read_bytes() if system.is_file() else b"") + b"\n" + paths.ca.read_bytes())
    # nginx sends the chain: the site's certificate, then the CA's
    paths.certificate.write_bytes(site.public_bytes(serialization.Encoding.PEM) + paths.ca.read_bytes())
    _write_key(key, paths.key)
    return paths


def spki(certificate: x509.Certificate) -> str:
    der = certificate.public_key().public_bytes(serialization.Encoding.DER,
                                                serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()
