"""Web Push (RFC 8030) where the deployment configures it: a message to one browser's push service, encrypted for
that browser alone (RFC 8291, aes128gcm, by pywebpush) and signed with the site's VAPID key (RFC 8292, by
py_vapid), posted through the outbound guard (`core.outbound`) as every request the server makes: a player's
browser gives the endpoint, so it may name anything, and is checked when subscribing and again at each sending.

Configured when `WEBPUSH_VAPID_PUBLIC_KEY` and `WEBPUSH_VAPID_PRIVATE_KEY` are set (`manage.py make_vapid_keys`
makes a pair); without them nothing about push shows or runs. `WEBPUSH_CONTACT` (a mailto: or https: address) is
what push services use to reach whoever runs the site.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from core import outbound

TTL_SECONDS = 6 * 3600
"""How long a push service keeps a message for a phone that is off: a tournament day."""
GONE = frozenset({404, 410})
"""A push service's answer that the subscription no longer exists (the browser unsubscribed or expired it)."""


def configured() -> bool:
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def acceptable_endpoint(url: str) -> bool:
    """The shape of an endpoint a browser's push service gives: https on a named host, https's port, within the
    outbound guard's rules (`core.outbound.check_url`). Where the guard's test seam lets the host be local (a stack's
    own push receiver on loopback), only the guard's rules apply."""
    try:
        outbound.check_url(url, max_length=None)  # the form's field measures it
    except outbound.Refused:
        return False
    parts = urlsplit(url.strip())
    if outbound.local_permitted(parts):
        return True
    host = parts.hostname or ""
    return parts.scheme == "https" and "." in host and outbound.literal(host) is None and parts.port in (None, 443)


def check_endpoint(url: str) -> None:
    """`outbound.Refused` (saying why) unless the endpoint has a push service's shape and its host resolves, now,
    to public addresses only: checked when a browser subscribes; every sending is checked again by the guard."""
    outbound.check_url(url, max_length=None)  # its reason first: a local address says so
    if not acceptable_endpoint(url):
        raise outbound.Refused(_("This browser's notification address cannot be used."))
    outbound.check_destination(url)


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    gone: bool = False
    """The push service says the subscription no longer exists: forget it."""
    problem: str = ""
    """Why it was not delivered, in a few words for the row's `last_error` (never the message itself)."""


def _request(endpoint: str, p256dh: str, auth: str, payload: dict[str, Any],
             now: float) -> tuple[bytes, dict[str, str]]:
    """The push message for one subscription as the push service takes it (RFC 8030): `payload` as JSON encrypted
    for that browser (pywebpush's `WebPusher.encode`, aes128gcm) and the site's VAPID signature for that push
    service (py_vapid's `Vapid.sign`), valid 12 hours. pywebpush and what it brings (aiohttp, requests,
    cryptography: ~24 MB) are imported here, by the worker that sends, not by every web process."""
    from py_vapid import Vapid
    from pywebpush import WebPusher

    subscription = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    body = WebPusher(subscription).encode(json.dumps(payload, ensure_ascii=False).encode(), "aes128gcm")["body"]
    parts = urlsplit(endpoint)
    claims = {"sub": settings.WEBPUSH_CONTACT, "aud": f"{parts.scheme}://{parts.netloc}", "exp": int(now) + 12 * 3600}
    signed = Vapid.from_string(settings.WEBPUSH_VAPID_PRIVATE_KEY).sign(claims)
    return body, {**signed, "Content-Encoding": "aes128gcm", "TTL": str(TTL_SECONDS)}


def send(endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> Outcome:
    """Encrypt `payload` for one subscription and post it to its push service through the outbound guard (public
    addresses only, the guard's deadline and limits, no redirect followed)."""
    from py_vapid import VapidException
    from pywebpush import WebPushException

    try:
        outbound.check_url(endpoint, max_length=None)  # refused before anything is encrypted or signed for it
        body, headers = _request(endpoint, p256dh, auth, payload, time.time())
        answer = outbound.post(endpoint, body, headers)
    except (outbound.Refused, outbound.Failed) as error:
        return Outcome(False, problem=str(error)[:200])
    except (WebPushException, VapidException, ValueError) as error:  # keys or an address no browser gives
        return Outcome(False, problem=type(error).__name__)
    if not 200 <= answer.status < 300:
        return Outcome(False, gone=answer.status in GONE, problem=f"{answer.status} {answer.reason}"[:200])
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
