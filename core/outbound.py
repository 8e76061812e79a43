"""Every request the server makes to an address someone typed or a browser gave (an organizer's webhook, a player's
push subscription): never into its own network, and never for long.

Such a URL must not make the server reach what only it can reach (server-side request forgery): its loopback, the
private network, the cloud's metadata address. `check_url` refuses, without asking DNS, a URL that is not https,
that carries a user or password, whose host is a special-use name (`localhost`, `*.internal`, …) or an address
that is not public, written in any form the resolver reads (`2130706433`, `0177.0.0.1`, `[::ffff:127.0.0.1]`).
`check_destination` adds what DNS says now (a push subscription is checked so when it is made). `post` checks the
URL, resolves the host, refuses it if any address it resolves to is not public (`public`: loopback, private,
link-local, shared, reserved; IPv6 forms that carry such an IPv4 address inside, NAT64, 6to4, IPv4-compatible and
-translated; site-local and Teredo), and connects to the checked address itself, so the name cannot resolve
elsewhere between the check and the connection (DNS rebinding). Redirects are never followed.

One attempt has `DEADLINE_SECONDS` in all, from connecting to the answer's last byte kept (a timeout per read let a
receiver that sent a header line a second hold a worker for hours); the answer's headers may be `HEADERS_MAX` lines
and `HEADER_BYTES_MAX` bytes, and only the first `KEEP_BYTES` of its body are read. Resolving the name is bounded
by the system's resolver (its own timeout and attempts), not by the deadline.

A test seam, off unless set and refused by `check --deploy` with DEBUG off (`catan_tournaments/checks.py`):
`OUTBOUND_LOCAL_ALLOWED` permits plain http and local addresses for every URL (tests, a developer's machine);
`OUTBOUND_LOCAL_HOSTS` permits them only for the hosts it lists (`host` or `host:port`), so a stack on loopback
reaches its own push receiver while every other address stays guarded. The PDFs have the same concern answered
differently: WeasyPrint fetches nothing but shipped files (`core.pdf`).
"""
from __future__ import annotations

import http.client
import io
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

DEADLINE_SECONDS = 10.0
"""One attempt in all: connecting (and TLS), sending, the answer's headers and the body kept."""
HEADERS_MAX = 50
"""Header lines of an answer; a receiver sends a dozen."""
HEADER_BYTES_MAX = 16 * 1024
"""The answer's status line and headers together, in bytes."""
KEEP_BYTES = 2048
"""The answer's first bytes kept to show the organizer; the rest is never read."""
BODY_READ_MAX = 64 * 1024
"""What may be received after the headers while the kept bytes are read (chunk framing included)."""
URL_MAX = 500
SPECIAL_NAMES = ("localhost", "local", "internal", "localdomain", "home.arpa")
"""Names that are never on the internet (RFC 6761, 6762, 8375; ICANN's .internal; resolvers' own localdomain),
refused with their subdomains."""

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: an IPv4 address in the last 32 bits
_REFUSED_V6 = tuple(ipaddress.ip_network(net) for net in (
    "::/96",            # IPv4-compatible (RFC 4291, deprecated): ::7f00:1 is 127.0.0.1
    "::ffff:0:0:0/96",  # IPv4-translated (RFC 2765, SIIT)
    "64:ff9b:1::/48",   # local-use NAT64 (RFC 8215)
    "fec0::/10",        # site-local (RFC 3879, deprecated but still routed inside some networks)
    "2001::/32",        # Teredo: the IPv4 address inside is obfuscated and the tunnel may end anywhere
))


class Refused(ValueError):
    """The URL or the address it resolves to may not be contacted; the message says why, for the organizer."""


class Failed(ConnectionError):
    """The attempt reached no usable answer (refused, timed out, past a limit, not HTTP); the message says which."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    reason: str = ""


def _listed(host: str, port: int) -> bool:
    hosts = {entry.lower() for entry in getattr(settings, "OUTBOUND_LOCAL_HOSTS", ())}
    return host in hosts or f"{host}:{port}" in hosts


def local_permitted(parts: SplitResult) -> bool:
    """Whether the test seam lets this URL be plain http and local (never on a public site, `core/checks.py`)."""
    if getattr(settings, "OUTBOUND_LOCAL_ALLOWED", False):
        return True
    host = (parts.hostname or "").rstrip(".")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return False
    return _listed(host, port)


def public(address: IPAddress) -> bool:
    """Whether the server may connect to this address: a global unicast address, judged by the IPv4 address an
    IPv6 form carries (mapped, NAT64, 6to4) and never one of the IPv6 ranges that lead back inside."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            return public(embedded) and (address.ipv4_mapped is not None or address.is_global)
        if any(address in network for network in _REFUSED_V6):
            return False
    return address.is_global and not address.is_multicast


def literal(host: str) -> IPAddress | None:
    """The address a host names by itself, in any form the resolver reads as one (dotted, decimal, octal, hex,
    shortened, IPv6), without asking DNS; None for a name."""
    try:
        found = socket.getaddrinfo(host, None, flags=socket.AI_NUMERICHOST, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):
        return None
    return ipaddress.ip_address(str(found[0][4][0]).split("%")[0])


def _not_public(host: str) -> Refused:
    return Refused(_("The host %(host)s is a local or private address; only public addresses are contacted.")
                   % {"host": host})


def check_url(url: str, *, max_length: int | None = URL_MAX) -> str:
    """The URL stripped, or `Refused`: https (http only where the seam permits), a host that is not a special-use
    name nor an address other than a public one, no user or password, no space, at most `max_length` characters
    (None: the field that keeps it measured it)."""
    url = url.strip()
    parts = urlsplit(url)
    if max_length is not None and len(url) > max_length:
        raise Refused(_("An address has at most %(max)d characters.") % {"max": max_length})
    local = local_permitted(parts)
    if parts.scheme not in (("https", "http") if local else ("https",)) or not parts.hostname:
        raise Refused(_("Give an https:// address."))
    if any(char <= " " or char == "\x7f" for char in url):
        raise Refused(_("An address has no spaces or control characters."))
    if parts.username or parts.password:
        raise Refused(_("An address with a user name or password is not accepted: use the signing secret."))
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when asked
    except ValueError:
        raise Refused(_("That address's port is not a number.")) from None
    host = parts.hostname.rstrip(".")
    if local:
        return url
    if any(host == name or host.endswith("." + name) for name in SPECIAL_NAMES):
        raise _not_public(host)
    address = literal(host)
    if address is not None and not public(address):
        raise _not_public(host)
    return url


def lookup(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to now (the system's resolver): the one place the guard asks DNS, so a test
    can stand in for it."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def resolve(host: str, port: int, *, local: bool = False) -> str:
    """One address of `host` the server may connect to; `Refused` when it does not resolve or any of its addresses
    is not public (a name that also points inside is refused whole). `local`: the seam permits local ones."""
    try:
        found = lookup(host, port)
    except (OSError, UnicodeError):  # socket.gaierror is an OSError
        raise Refused(_("The host %(host)s was not found.") % {"host": host}) from None
    addresses = [ipaddress.ip_address(address.split("%")[0]) for address in found]
    if not addresses:
        raise Refused(_("The host %(host)s was not found.") % {"host": host})
    if not local and not all(public(address) for address in addresses):
        raise _not_public(host)
    return str(addresses[0])


def _destination(url: str) -> tuple[SplitResult, str, int]:
    """The checked URL's parts, and the checked address and port to connect to."""
    parts = urlsplit(check_url(url, max_length=None))
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts, resolve(parts.hostname or "", port, local=local_permitted(parts)), port


def check_destination(url: str) -> str:
    """`check_url`, then what DNS says of its host now (`Refused` if not found or not public): for an address given
    once and posted to later, such as a browser's push endpoint."""
    _destination(url)
    return url.strip()


class _Budget(io.RawIOBase):
    """The answer as read from the socket, within the attempt's deadline (each read may wait only what is left of
    it) and a number of bytes: the headers' allowance (and `HEADERS_MAX` lines, counted up to the empty line that
    ends them) until `headers_read`, then the body's."""

    def __init__(self, sock: socket.socket, until: float):
        super().__init__()
        self.sock, self.until = sock, until
        self.allowance, self.in_headers = HEADER_BYTES_MAX, True
        self.lines, self.line_empty, self.counting = 0, False, True

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.allowance <= 0:
            raise Failed(_("The answer's headers exceed %(max)d bytes.") % {"max": HEADER_BYTES_MAX}
                         if self.in_headers else _("The answer is too long."))
        self.sock.settimeout(_left(self.until))
        view = memoryview(buffer)[:self.allowance]
        received = self.sock.recv_into(view)
        self.allowance -= received
        if self.counting:
            self._count(view[:received])
        return received

    def _count(self, data: memoryview) -> None:
        """Lines up to the first empty one (the status line's and the headers'): at most `HEADER_BYTES_MAX` bytes
        are looked at."""
        for byte in data:
            if byte == 10:  # \n
                if self.line_empty:
                    self.counting = False
                    return
                self.lines, self.line_empty = self.lines + 1, True
                if self.lines > HEADERS_MAX + 1:
                    raise Failed(_("The answer has more than %(max)d headers.") % {"max": HEADERS_MAX})
            elif byte != 13:  # \r
                self.line_empty = False

    def headers_read(self) -> None:
        self.allowance, self.in_headers, self.counting = BODY_READ_MAX, False, False


def _left(until: float) -> float:
    left = until - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


class _Socket:
    """What http.client uses of its socket: sending within the deadline, and the answer read through `_Budget`."""

    def __init__(self, sock: socket.socket, until: float):
        self.sock, self.until = sock, until
        self.budget = _Budget(sock, until)

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(_left(self.until))  # sendall's timeout bounds the whole send (Python ≥ 3.5)
        self.sock.sendall(data)

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(self.budget)

    def close(self) -> None:
        """Nothing: http.client closes its socket once it has read the headers of an answer that ends the
        connection, before the body is read; `post` closes the real one when it is done."""


class _Connection(http.client.HTTPConnection):
    """http.client's request and answer over a socket already connected to the checked address."""

    def __init__(self, host: str, port: int, sock: _Socket):
        super().__init__(host, port)
        self.bounded = sock

    def connect(self) -> None:
        self.sock = self.bounded


def _connect(parts: SplitResult, address: str, port: int, until: float) -> socket.socket:
    sock = socket.create_connection((address, port), timeout=_left(until))
    if parts.scheme != "https":
        return sock
    try:
        sock.settimeout(_left(until))  # the TLS handshake, in all (CPython's ssl counts its timeout as a deadline)
        return ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
    except BaseException:
        sock.close()
        raise


def post(url: str, body: bytes, headers: dict[str, str], *, deadline: float | None = None) -> Answer:
    """POST `body` to the checked address of `url` within `deadline` seconds (`DEADLINE_SECONDS`); `Refused` for a
    refused URL or address, `Failed` when no usable answer came (with the reason)."""
    parts, address, port = _destination(url)
    seconds = DEADLINE_SECONDS if deadline is None else deadline
    until = time.monotonic() + seconds
    host = parts.hostname or ""
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    name = f"[{host}]" if ":" in host else host
    try:
        raw = _connect(parts, address, port, until)
        try:
            sock = _Socket(raw, until)
            connection = _Connection(host, port, sock)
            connection.request("POST", path, body=body,
                               headers={**headers, "Host": name if parts.port is None else f"{name}:{port}"})
            response = connection.getresponse()
            sock.budget.headers_read()
            kept = response.read(KEEP_BYTES)
            connection.close()
        finally:
            raw.close()
    except Failed:
        raise
    except TimeoutError:  # socket.timeout is TimeoutError
        raise Failed(_("No answer within %(seconds)s seconds.") % {"seconds": f"{seconds:g}"}) from None
    except ssl.SSLError as error:
        raise Failed(_("The secure connection failed (%(error)s).") % {"error": error.reason or error}) from None
    except http.client.HTTPException as error:
        raise Failed(_("The answer is not HTTP (%(error)s).") % {"error": str(error)[:100] or type(error).__name__}
                     ) from None
    except OSError as error:
        raise Failed(_("No answer (%(error)s).") % {"error": error.strerror or type(error).__name__}) from None
    return Answer(response.status, kept.decode("utf-8", errors="replace"), response.reason)
