"""Rate limits: at most `limit` events per `window` seconds for one key (a client address, an account).

Counted in the cache (Redis in production, so every worker sees the same counts) in fixed windows:
cheap, one `incr` per event. The keys are hashed, so an email or username typed by anyone never
becomes a cache key as such. When the cache cannot be reached the limit lets the request through
(logged): a Redis outage must not stop staff from working.
"""
import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.core.cache import cache

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RateLimit:
    name: str
    limit: int
    window: int
    """Seconds."""

    def _key(self, key: str, now: float) -> tuple[str, float]:
        start = math.floor(now / self.window) * self.window
        digest = hashlib.sha256(f"{self.name}\0{key}".encode()).hexdigest()[:32]
        return f"ratelimit:{self.name}:{int(start)}:{digest}", start + self.window

    def hit(self, key: str, *, now: float | None = None) -> int:
        """Count one event; 0 if it is within the limit, else the seconds until the window ends."""
        now = time.time() if now is None else now
        cache_key, ends = self._key(key, now)
        try:
            cache.add(cache_key, 0, timeout=self.window + 1)
            count = cache.incr(cache_key)
        except Exception:  # noqa: BLE001 - any cache failure: let the request through rather than refuse staff
            logger.warning("Rate limit %s not counted: the cache is unavailable", self.name)
            return 0
        return 0 if count <= self.limit else max(1, math.ceil(ends - now))

    def used(self, key: str, *, now: float | None = None) -> int:
        """Events counted for the key in the current window (without counting one)."""
        now = time.time() if now is None else now
        try:
            return int(cache.get(self._key(key, now)[0], 0))
        except Exception:  # noqa: BLE001 - as in hit()
            return 0

    def clear(self, key: str, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        try:
            cache.delete(self._key(key, now)[0])
        except Exception:  # noqa: BLE001 - as in hit()
            logger.warning("Rate limit %s not cleared: the cache is unavailable", self.name)
