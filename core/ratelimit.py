"""Rate limits: at most `limit` events per `window` seconds for one key (a client address, an account), and
concurrency limits: at most `limit` of something under way at once for one key (`ConcurrencyLimit`).

A limit per client (`hit_client`) counts the client's address and, for IPv6, its /48 as well (`core/clients.py`).
Counted in the cache (Redis in production, so every worker sees the same counts) in fixed windows:
cheap, one `incr` per event. The keys are hashed, so an email or username typed by anyone never
becomes a cache key as such. When the cache cannot be reached the limit lets the request through
(logged): a Redis outage must not stop staff from working.
"""
import hashlib
import logging
import math
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

from .clients import NETWORK_PREFIX, NETWORK_SHARE, client_address, client_network

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
        except Exception:  # any cache failure: let the request through rather than refuse staff
            logger.warning("Rate limit %s not counted: the cache is unavailable", self.name)
            return 0
        return 0 if count <= self.limit else max(1, math.ceil(ends - now))

    def used(self, key: str, *, now: float | None = None) -> int:
        """Events counted for the key in the current window (without counting one)."""
        now = time.time() if now is None else now
        try:
            return int(cache.get(self._key(key, now)[0], 0))
        except Exception:  # as in hit()
            return 0

    def _network(self) -> "RateLimit":
        return RateLimit(f"{self.name}/{NETWORK_PREFIX}", self.limit * NETWORK_SHARE, self.window)

    def _client_keys(self, request: HttpRequest) -> list[tuple["RateLimit", str]]:
        keys = [(self, client_address(request) or "unknown")]
        if network := client_network(request):
            keys.append((self._network(), network))
        return keys

    def hit_client(self, request: HttpRequest, *, now: float | None = None) -> int:
        """Count one event for the client who sent the request, by its address, then (IPv6) its /48; 0 if within
        both limits, else the seconds until the window ends. What the address's limit refuses is not counted
        against the /48, so one /64 hammering away does not use up its neighbours' allowance."""
        for limit, key in self._client_keys(request):
            if wait := limit.hit(key, now=now):
                return wait
        return 0

    def client_wait(self, request: HttpRequest, *, now: float | None = None) -> int:
        """Without counting: 0 while the client is within both limits, else the seconds until it may try again."""
        now = time.time() if now is None else now
        return max((max(1, math.ceil(limit._key(key, now)[1] - now)) for limit, key in self._client_keys(request)
                    if limit.used(key, now=now) >= limit.limit), default=0)

    def clear(self, key: str, *, now: float | None = None) -> None:
        now = time.time() if now is None else now
        try:
            cache.delete(self._key(key, now)[0])
        except Exception:  # as in hit()
            logger.warning("Rate limit %s not cleared: the cache is unavailable", self.name)


class Busy(Exception):  # what the caller is told: the limit's slots are all taken
    """Every slot of a concurrency limit is taken; try again in `retry_after` seconds."""

    def __init__(self, limit: "ConcurrencyLimit", retry_after: int):
        super().__init__(f"{limit.name}: all {limit.limit} slots taken")
        self.limit, self.retry_after = limit, retry_after


@dataclass(frozen=True)
class ConcurrencyLimit:
    """At most `limit` at once for one key: each one holds a slot, a cache key added atomically (Redis `SET NX`)
    and deleted when it is done. A slot also expires after `hold` seconds, so a process killed while holding one
    (a worker past its timeout) frees it."""

    name: str
    limit: int
    hold: int
    """Seconds: longer than anything holding a slot may last."""
    retry_after: int
    """What a refused caller is told to wait (seconds)."""

    def _slot(self, key: str, n: int) -> str:
        digest = hashlib.sha256(f"{self.name}\0{key}".encode()).hexdigest()[:32]
        return f"concurrency:{self.name}:{digest}:{n}"

    @contextmanager
    def slot(self, key: str) -> Iterator[None]:
        """Hold one of the key's slots for the block; `Busy` when they are all taken."""
        taken = self._take(key)
        try:
            yield
        finally:
            if taken is not None:
                try:
                    cache.delete(taken)
                except Exception:  # the slot expires after `hold` seconds anyway
                    logger.warning("Concurrency limit %s: a slot could not be freed", self.name)

    def _take(self, key: str) -> str | None:
        """The cache key of the slot taken; None when the cache cannot be reached (the work goes ahead)."""
        token = uuid.uuid4().hex
        try:
            for n in range(self.limit):
                if cache.add(self._slot(key, n), token, timeout=self.hold):
                    return self._slot(key, n)
        except Exception:  # as in RateLimit.hit(): a cache outage must not stop the work
            logger.warning("Concurrency limit %s not held: the cache is unavailable", self.name)
            return None
        raise Busy(self, self.retry_after)
