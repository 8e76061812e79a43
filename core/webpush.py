"""Web Push (RFC 8030) where the deployment configures it: a message to one browser's push service, encrypted for
that browser alone (RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292), through pywebpush.

Configured when `WEBPUSH_VAPID_PUBLIC_KEY` and `WEBPUSH_VAPID_PRIVATE_KEY` are set (`manage.py make_vapid_keys`
makes a pair); without them nothing about push shows or runs. `WEBPUSH_CONTACT` (a mailto: or https: address) is
what push services use to reach whoever runs the site.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

TIMEOUT_SECONDS = 10
"""How long one push service may take to answer: the sending runs in the background, never in a request."""
TTL_SECONDS = 6 * 3600
"""How long a push service keeps a message for a phone that is off: a tournament day."""
GONE = frozenset({404, 410})
"""A push service's answer that the subscription no longer exists (the browser unsubscribed or expired it)."""


def configured() -> bool:
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def acceptable_endpoint(url: str) -> bool:
    """An endpoint a browser's push service gives: an https address on a named host (the server posts to it, so
    no plain http, no bare IP address and no port that is not https's)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return (parts.scheme == "https" and "." in host and not host.replace(".", "").isdigit() and ":" not in host
            and parts.port in (None, 443) and not parts.username and not parts.password)


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    gone: bool = False
    """The push service says the subscription no longer exists: forget it."""
    problem: str = ""
    """Why it was not delivered, in a few words for the row's `last_error` (never the message itself)."""


def send(endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> Outcome:
    """Encrypt `payload` (as JSON) for one subscription and post it to its push service. pywebpush and what it
    brings (aiohttp, requests, cryptography: ~24 MB) are imported here, by the worker that sends, not by every
    web process that loads the URLs."""
    import requests
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    subscription = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    session = requests.Session()
    session.max_redirects = 0  # a push service answers, it never sends the message elsewhere
    try:
        webpush(subscription, json.dumps(payload, ensure_ascii=False),
                vapid_private_key=Vapid.from_string(settings.WEBPUSH_VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.WEBPUSH_CONTACT}, ttl=TTL_SECONDS, timeout=TIMEOUT_SECONDS,
                requests_session=session)
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        return Outcome(False, gone=status in GONE, problem=f"{status} {error.response.reason}"[:200] if status
                       else type(error).__name__)
    except (OSError, ValueError) as error:  # unreachable or timed out (requests' errors are OSErrors), bad keys
        return Outcome(False, problem=type(error).__name__)
    finally:
        session.close()
    return Outcome(True)


def new_keys() -> tuple[str, str]:
    """A new VAPID key pair, (public, private), base64url as the settings take them: the public key is the
    uncompressed P-256 point browsers take as `applicationServerKey`, the private key its 32-byte scalar."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid
    from py_vapid.utils import b64urlencode

    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return str(b64urlencode(public)), str(b64urlencode(private))
