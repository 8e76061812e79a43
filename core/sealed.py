"""Data kept in the database that a copy of the database must not reveal (an email that failed holds a player's
private link): sealed with a key derived from SECRET_KEY (Fernet: AES-128 and an HMAC, from cryptography), opened
with it or with one of SECRET_KEY_FALLBACKS after the key was replaced."""
from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.crypto import salted_hmac

if TYPE_CHECKING:
    from cryptography.fernet import Fernet

SALT = "core.sealed"


def _fernet(secret: str) -> Fernet:
    from cryptography.fernet import Fernet

    key = salted_hmac(SALT, "fernet key", secret=secret, algorithm="sha256").digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(data: object) -> str:
    """`data` (JSON) as text only this site's key opens."""
    return _fernet(settings.SECRET_KEY).encrypt(json.dumps(data).encode()).decode()


def unseal(text: str) -> Any:
    """What `seal` sealed; None when no key of this site opens it (the key was replaced without a fallback)."""
    from cryptography.fernet import InvalidToken, MultiFernet

    keys = MultiFernet([_fernet(secret) for secret in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)])
    try:
        return json.loads(keys.decrypt(text.encode()))
    except (InvalidToken, ValueError):
        return None
