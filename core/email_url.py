"""`EMAIL_URL`, the one setting that says where the site's emails go, read whole: every part the address carries
becomes the Django setting it stands for, and a part this module does not know is refused with its name, never
ignored (a `filemail:///path` whose path nobody read made every email fail).

    smtp://[user:password@]host[:port]          plain SMTP, port 25 by default
    submission://…, smtp+tls://…                STARTTLS, port 587 by default
    smtps://…, smtp+ssl://…                     TLS from the first byte, port 465 by default
    filemail:///absolute/folder                 each message written as a file in that folder
    consolemail://, memorymail://, dummymail:// printed, kept in memory (tests), thrown away

The user and password are percent-decoded (`%40` for "@"). An SMTP address may add `?timeout=SECONDS` (10 by
default: how long one attempt waits for the server), `ssl_certfile=PATH` and `ssl_keyfile=PATH` (a client
certificate). Problems name EMAIL_URL and the part, never the password.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SMTP = "django.core.mail.backends.smtp.EmailBackend"
SMTP_SCHEMES = {  # scheme: (STARTTLS, TLS from the start, default port)
    "smtp": (False, False, 25),
    "submission": (True, False, 587),
    "smtp+tls": (True, False, 587),
    "smtps": (False, True, 465),
    "smtp+ssl": (False, True, 465),
}
OTHER_BACKENDS = {
    "filemail": "django.core.mail.backends.filebased.EmailBackend",
    "consolemail": "django.core.mail.backends.console.EmailBackend",
    "memorymail": "django.core.mail.backends.locmem.EmailBackend",
    "dummymail": "django.core.mail.backends.dummy.EmailBackend",
}
SMTP_OPTIONS = ("timeout", "ssl_certfile", "ssl_keyfile")
DEFAULT_TIMEOUT = 10.0
"""Seconds one attempt waits for the mail server; the queue (core/mail.py) tries again later."""


@dataclass(frozen=True)
class EmailSettings:
    """The Django email settings, by their names in lower case."""

    backend: str
    host: str = "localhost"
    port: int = 25
    host_user: str = ""
    host_password: str = ""
    use_tls: bool = False
    use_ssl: bool = False
    timeout: float = DEFAULT_TIMEOUT
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None
    file_path: str | None = None


def _refuse(problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"EMAIL_URL: {problem}")


def email_settings(url: str) -> EmailSettings:
    """The settings `url` stands for; ImproperlyConfigured naming what is wrong."""
    scheme, separator, _rest = url.partition("://")
    if not separator:
        raise _refuse(f"{url!r} is not an address; e.g. submission://user:password@smtp.example:587.")
    scheme = scheme.lower()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise _refuse(f"the {scheme}:// address has a port that is not a number.") from None
    if scheme in SMTP_SCHEMES:
        return _smtp(scheme, parts, port)
    if scheme not in OTHER_BACKENDS:
        known = ", ".join(f"{name}://" for name in (*SMTP_SCHEMES, *OTHER_BACKENDS))
        raise _refuse(f"{scheme}:// is not a kind of address it knows ({known}).")
    if parts.query or parts.fragment:
        raise _refuse(f"a {scheme}:// address takes no options after '?' or '#'.")
    if scheme == "filemail":
        if parts.netloc or not parts.path.startswith("/"):
            raise _refuse("filemail:// takes the folder's absolute path after three slashes, e.g. "
                          "filemail:///var/mail/catan (what follows two slashes is read as a host).")
        return EmailSettings(OTHER_BACKENDS[scheme], file_path=unquote(parts.path))
    if parts.netloc or parts.path not in ("", "/"):
        raise _refuse(f"a {scheme}:// address takes nothing after the scheme.")
    return EmailSettings(OTHER_BACKENDS[scheme])


def _smtp(scheme: str, parts: SplitResult, port: int | None) -> EmailSettings:
    use_tls, use_ssl, default_port = SMTP_SCHEMES[scheme]
    if not parts.hostname:
        raise _refuse(f"the {scheme}:// address needs the mail server's host, e.g. {scheme}://smtp.example.")
    if parts.path not in ("", "/") or parts.fragment:
        raise _refuse(f"the {scheme}:// address takes nothing after the host and port but ?options.")
    options: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name not in SMTP_OPTIONS:
            raise _refuse(f"unknown option {name!r} (the options are {', '.join(SMTP_OPTIONS)}).")
        options[name] = value
    timeout = DEFAULT_TIMEOUT
    if "timeout" in options:
        try:
            timeout = float(options["timeout"])
        except ValueError:
            timeout = math.nan
        if not (math.isfinite(timeout) and timeout > 0):
            raise _refuse(f"timeout={options['timeout']!r} is not a number of seconds above 0.")
    return EmailSettings(
        SMTP, host=parts.hostname, port=port or default_port, host_user=unquote(parts.username or ""),
        host_password=unquote(parts.password or ""), use_tls=use_tls, use_ssl=use_ssl, timeout=timeout,
        ssl_certfile=options.get("ssl_certfile") or None, ssl_keyfile=options.get("ssl_keyfile") or None)
