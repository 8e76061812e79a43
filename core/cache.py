"""A Redis cache that stops asking a Redis that failed, for a few seconds, instead of waiting on every call.

Short socket timeouts bound one call, but a frozen Redis still costs each request its timeout on every
cache call it makes (two to four on a standings page): under load every worker is soon waiting and the
site stalls (`make chaos`, "Redis frozen"). After a connection error or timeout this backend fails each
call at once for `retry_seconds`, then lets one call through to see whether Redis is back. Callers
already treat any cache error as "no cache" and read the database.
"""
import time
from collections.abc import Callable
from functools import cached_property
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django_prometheus.cache.metrics import (
    django_cache_get_fail_total,
    django_cache_get_total,
    django_cache_hits_total,
    django_cache_misses_total,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


class CacheUnavailable(RedisConnectionError):
    """Raised without touching the network while the breaker is open."""


class Breaker:
    """Open for `seconds` after a failure; `clock` is injectable for tests."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self.open_until = 0.0

    def is_open(self) -> bool:
        return self.clock() < self.open_until

    def check(self) -> None:
        if self.is_open():
            raise CacheUnavailable("Redis failed moments ago; the cache is skipped for a few seconds.")

    def trip(self) -> None:
        self.open_until = self.clock() + self.seconds


class _Guarded:
    """The cache client with each call checked against, and tripping, the breaker."""

    def __init__(self, client: RedisCacheClient, breaker: Breaker) -> None:
        self._client, self._breaker = client, breaker

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        def guarded(*args: Any, **kwargs: Any) -> Any:
            self._breaker.check()
            try:
                return attribute(*args, **kwargs)
            except (RedisConnectionError, RedisTimeoutError):
                self._breaker.trip()
                raise

        return guarded


class FailFastRedisCache(RedisCache):
    """Django's Redis cache with a breaker; OPTIONS["retry_seconds"] sets how long it stays open (default 5)."""

    # Set by Django's RedisCache.__init__ (the stubs leave them out).
    _class: type[RedisCacheClient]
    _servers: list[str]
    _options: dict[str, Any]

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS", {}))
        self.breaker = Breaker(float(options.pop("retry_seconds", 5)))
        super().__init__(server, {**params, "OPTIONS": options})

    @cached_property
    def _cache(self) -> _Guarded:
        return _Guarded(self._class(self._servers, **self._options), self.breaker)

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        """Django's `get`, counted as django-prometheus counts its own Redis backend's (hits, misses, failures)."""
        django_cache_get_total.labels(backend="redis").inc()
        try:
            value = super().get(key, _MISSING, version)
        except Exception:
            django_cache_get_fail_total.labels(backend="redis").inc()
            raise
        if value is _MISSING:
            django_cache_misses_total.labels(backend="redis").inc()
            return default
        django_cache_hits_total.labels(backend="redis").inc()
        return value


_MISSING = object()
