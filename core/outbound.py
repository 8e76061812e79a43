"""Requests the server makes to an address someone typed (an organizer's webhook): never into its own network.

An organizer's URL must not make the server reach what only it can reach (server-side request forgery): its
loopback, the private network, the cloud's metadata address. `check_url` refuses a URL that is not https or that
carries a user or password; `post` resolves the host, refuses it if any address it resolves to is not public
(loopback, private, link-local, shared, reserved, multicast), and connects to the checked address itself, so the
name cannot resolve elsewhere between the check and the connection (DNS rebinding). Redirects are never followed,
each step is bounded by `TIMEOUT_SECONDS` and only the first `KEEP_BYTES` of the answer are read.

`OUTBOUND_LOCAL_ALLOWED` (a setting, off unless set: tests and a developer's machine) permits plain http and local
addresses. The PDFs have the same concern answered differently: WeasyPrint fetches nothing but shipped files
(`core.pdf`).
"""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3
from django.conf import settings
from django.utils.translation import gettext as _

TIMEOUT_SECONDS = 5.0
"""The connection, and the whole answer's wait: a receiver answers at once and does its work afterwards."""
KEEP_BYTES = 2048
"""The answer's first bytes kept to show the organizer; the rest is never read."""
URL_MAX = 500


class Refused(ValueError):
    """The URL or the address it resolves to may not be contacted; the message says why, for the organizer."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: str


def local_allowed() -> bool:
    return bool(getattr(settings, "OUTBOUND_LOCAL_ALLOWED", False))


def check_url(url: str) -> str:
    """The URL stripped, or `Refused`: https (http only where local addresses are allowed), a host, no user or
    password, at most `URL_MAX` characters."""
    url = url.strip()
    parts = urlsplit(url)
    schemes = ("https", "http") if local_allowed() else ("https",)
    if len(url) > URL_MAX:
        raise Refused(_("An address has at most %(max)d characters.") % {"max": URL_MAX})
    if parts.scheme not in schemes or not parts.hostname:
        raise Refused(_("Give an https:// address."))
    if parts.username or parts.password:
        raise Refused(_("An address with a user name or password is not accepted: use the signing secret."))
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when asked
    except ValueError:
        raise Refused(_("That address's port is not a number.")) from None
    return url


def _public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int) -> str:
    """One address of `host` the server may connect to; `Refused` when it does not resolve or any of its addresses
    is not public (a name that also points inside is refused whole)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(_("The host %(host)s was not found.") % {"host": host}) from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    if not addresses:
        raise Refused(_("The host %(host)s was not found.") % {"host": host})
    if not local_allowed() and not all(_public(address) for address in addresses):
        raise Refused(_("The host %(host)s is a local or private address; only public addresses are contacted.")
                      % {"host": host})
    return str(addresses[0])


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST `body` to the checked address of `url`; `Refused` for a refused URL or address, `OSError` subclasses
    (urllib3's errors) for a connection that fails or times out."""
    parts = urlsplit(check_url(url))
    host = parts.hostname or ""
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    address = resolve(host, port)
    timeout = urllib3.Timeout(connect=TIMEOUT_SECONDS, read=TIMEOUT_SECONDS, total=TIMEOUT_SECONDS)
    pool: urllib3.HTTPConnectionPool
    if https:
        pool = urllib3.HTTPSConnectionPool(address, port, timeout=timeout, retries=False, server_hostname=host,
                                           assert_hostname=host, maxsize=1)
    else:
        pool = urllib3.HTTPConnectionPool(address, port, timeout=timeout, retries=False, maxsize=1)
    host_header = host if parts.port is None else f"{host}:{port}"
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    try:
        response = pool.urlopen("POST", path, body=body, headers={**headers, "Host": host_header}, redirect=False,
                                preload_content=False, assert_same_host=False)
        try:
            kept = response.read(KEEP_BYTES, decode_content=False)
        finally:
            response.release_conn()
    except urllib3.exceptions.HTTPError as error:
        raise ConnectionError(type(error).__name__) from error
    finally:
        pool.close()
    return Answer(response.status, kept.decode("utf-8", errors="replace"))
