"""PDFs laid out once: stored in the cache under a key naming everything they print, so the same PDF asked
for again is a cache read, not seconds of layout.

Callers build the key: the public PDFs from the tournament's results version, language and paper (anyone may
read them); the organizer's from a digest of their rendered HTML (what they print, including what changes
without a new results version, such as seats swapped in a planned game), in a namespace of their own, behind
the organizer's permission check. Two requests for the same missing PDF lay it out once: the second waits for
the first (a wait costs no CPU, a second layout does), up to WAIT_SECONDS, then lays it out itself.
"""
import hashlib
import logging
import time
from collections.abc import Callable, Iterable

from django.core.cache import cache

logger = logging.getLogger(__name__)

PDF_SECONDS = 1800
"""A PDF stays this long (a new results version makes new keys at once; old ones just age out)."""
LAYOUT_SECONDS = 120
"""How long one request's claim on laying a PDF out holds (a process killed mid-layout frees it then)."""
WAIT_SECONDS = 15.0
"""How long a request waits for a layout another one is doing (well within gunicorn's 30-s timeout)."""
POLL_SECONDS = 0.2


def pdf_key(namespace: str, parts: Iterable[object]) -> str:
    return f"pdf:{namespace}:" + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def _get(key: str) -> bytes | None:
    try:
        data = cache.get(key)
        return data if isinstance(data, bytes) else None
    except Exception as error:  # the cache is an optimisation only
        logger.warning("PDF cache unavailable (%r).", error)
        return None


def cached_pdf(key: str, layout: Callable[[], bytes]) -> bytes:
    """The PDF stored under `key`, laid out by `layout()` (and stored) when it is not there yet."""
    if (data := _get(key)) is not None:
        return data
    claim = key + ":layout"
    try:
        claimed = cache.add(claim, 1, timeout=LAYOUT_SECONDS)
    except Exception:
        claimed = True  # no cache: lay it out, nobody to share with
    if not claimed:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            if (data := _get(key)) is not None:
                return data
    try:
        data = layout()
        try:
            cache.set(key, data, timeout=PDF_SECONDS)
        except Exception as error:
            logger.warning("Could not cache a PDF (%r).", error)
    finally:
        if claimed:
            try:
                cache.delete(claim)
            except Exception as error:
                logger.warning("Could not release a PDF layout claim (%r).", error)
    return data

