"""The ratings version: a token replaced whenever the ratings pages may show something new (a ratings update, a
player's name, country or listing changed). The pages' ETag and cache keys are made from it, as the tournament
pages' are from their results version (`ranking.live`)."""
import logging
import uuid

from django.core.cache import cache

logger = logging.getLogger(__name__)
KEY = "ratings-version"


def ratings_version() -> str | None:
    """The current token; None while the cache is unreachable (pages are then simply rendered)."""
    try:
        return cache.get_or_set(KEY, uuid.uuid4().hex, timeout=None)
    except Exception as error:  # any backend's connection or timeout error
        logger.warning("Ratings version unavailable (%r).", error)
        return None


def new_ratings_version() -> None:
    """Replace the token; runs after a change committed, so it never fails the request."""
    try:
        cache.set(KEY, uuid.uuid4().hex, timeout=None)
    except Exception as error:
        logger.warning("Could not replace the ratings version (%r); cached ratings pages expire on their own.",
                       error)
