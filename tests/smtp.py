"""A real SMTP server on loopback (aiosmtpd, in a thread of the test), as a mail provider is reached: plain, with
STARTTLS or TLS from the first byte, with a user and password, refusing the recipients it is told to refuse."""
import datetime
import socket
import ssl
from contextlib import contextmanager
from email import message_from_bytes
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

PORTS = range(18150, 18200)
"""This helper's share of the machine's ports."""


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS}")


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost (the name the tests connect to) and its key, as PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "smtp-cert.pem", folder / "smtp-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


class Inbox:
    """aiosmtpd's handler: keeps each message accepted; refuses the addresses in `refused` with a 550."""

    def __init__(self, refused=()):
        self.messages, self.refused, self.logins = [], set(refused), []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return f"550 5.1.1 <{address}>: no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(message_from_bytes(envelope.content))
        return "250 Message accepted"

    def authenticate(self, user: str, password: str):
        def check(server, session, envelope, mechanism, auth_data):
            good = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
                user.encode(), password.encode())
            if good:
                self.logins.append(auth_data.login.decode())
            return AuthResult(success=good)
        return check


@contextmanager
def smtp_server(folder: Path, *, tls: str = "", login: tuple[str, str] | None = None, refused=()):
    """Yields (inbox, port, certificate file); `tls`: "" (plain), "starttls" or "implicit"."""
    inbox, port = Inbox(refused), free_port()
    cert, key = certificate(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    options = {}
    if tls == "starttls":
        options.update(tls_context=context, require_starttls=True)
    if tls == "implicit":
        options.update(ssl_context=context)
    if login is not None:  # aiosmtpd counts only STARTTLS as TLS for AUTH: on an implicit-TLS socket, it is one too
        options.update(authenticator=inbox.authenticate(*login), auth_required=True,
                       auth_require_tls=tls != "implicit")
    controller = Controller(inbox, hostname="127.0.0.1", port=port, server_hostname="localhost", **options)
    controller.start()
    try:
        yield inbox, port, cert
    finally:
        controller.stop()
