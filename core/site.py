"""The site's address, `SITE_URL`: the one origin every absolute link the site builds starts with (emails and their
calendar files, push messages, QR codes, the API's links, webhook payloads), whether a request or a background job
builds it. A link built from the address one request came in by (a proxy's inside name, a test client's host) would
point wherever that request happened to arrive, so no link is built from a request.

Required with `DEBUG` off: the web and worker entry points refuse to start without it
(`catan_tournaments.production`), and `check --deploy` says so (`catan_tournaments.checks`).
"""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

EXAMPLE = "https://catan.example"


def problem(value: str) -> str | None:
    """What is wrong with `value` as the site's address, in a sentence naming SITE_URL, or None when it is an origin:
    http or https, a host, an optional port, nothing after it but a final slash."""
    if not value:
        return (f"SITE_URL is not set: it is the address players and staff open the site at, e.g. {EXAMPLE} (every "
                "emailed link, calendar file, QR code and API link starts with it).")
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  # raises ValueError for a port that is not a number
    except ValueError:
        return f"SITE_URL {value!r} is not an address, e.g. {EXAMPLE}."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"SITE_URL {value!r} must start with https:// (or http://) and a host name, e.g. {EXAMPLE}."
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        return (f"SITE_URL {value!r} must be the site's origin only (scheme, host and port, e.g. {EXAMPLE}), without "
                "a path, query or user.")
    return None


@lru_cache(maxsize=4)
def _checked(value: str) -> str:
    if wrong := problem(value):
        raise ImproperlyConfigured(wrong)
    return value.rstrip("/")


def origin() -> str:
    """`SITE_URL` without its final slash (`https://catan.example`); ImproperlyConfigured when it is unset or not an
    origin, so no link is ever built relative or on a guessed host."""
    return _checked(settings.SITE_URL)


def absolute(path: str) -> str:
    """The address of `path` (as `reverse` gives it, beginning with "/") as a recipient opens it."""
    return origin() + path


def netloc() -> str:
    """The host and port of the site's address (`catan.example`, `catan.test:8443`)."""
    return urlsplit(origin()).netloc


def is_https() -> bool:
    return origin().startswith("https://")
