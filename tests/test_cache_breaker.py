"""A frozen Redis must cost the site one timeout now and then, not one per cache call (found by `make chaos`)."""
import json
import subprocess
import sys
import time

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from core.cache import Breaker, CacheUnavailable, FailFastRedisCache, _Guarded
from tests.test_cache_outage import frozen_server  # noqa: F401 (fixture)

TIMEOUT = 0.3


def failed_calls(cache, calls: int) -> int:
    failures = 0
    for _ in range(calls):
        try:
            cache.get("standings-generation:1")
        except RedisConnectionError:
            failures += 1
        except Exception:  # redis' TimeoutError is not a ConnectionError
            failures += 1
    return failures


def test_a_frozen_redis_costs_one_timeout_then_calls_fail_at_once(frozen_server):  # noqa: F811
    cache = FailFastRedisCache(f"redis://{frozen_server}/0", {"OPTIONS": {
        "socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT, "retry_seconds": 30}})
    started = time.monotonic()
    assert failed_calls(cache, 20) == 20
    # Without the breaker: 20 calls x 0.3 s. With it: the first call's timeout, the rest at once.
    assert time.monotonic() - started < 2 * TIMEOUT + 0.5


def test_after_the_pause_one_call_goes_through_again():
    now = [100.0]
    breaker = Breaker(5, clock=lambda: now[0])
    breaker.check()
    breaker.trip()
    with pytest.raises(CacheUnavailable):
        breaker.check()
    now[0] += 5.1
    breaker.check()  # Redis may be back: the next call is tried


class Client:
    def __init__(self, error):
        self.error, self.calls = error, 0

    def get(self, key):
        self.calls += 1
        raise self.error


def test_only_connection_errors_and_timeouts_open_the_breaker():
    breaker = Breaker(5)
    guarded = _Guarded(Client(ValueError("not a connection problem")), breaker)
    with pytest.raises(ValueError):
        guarded.get("k")
    breaker.check()  # still closed
    refused = Client(RedisConnectionError("refused"))
    guarded = _Guarded(refused, breaker)
    with pytest.raises(RedisConnectionError):
        guarded.get("k")
    with pytest.raises(CacheUnavailable):
        guarded.get("k")
    assert refused.calls == 1  # the second call never reached the network


def test_with_redis_url_the_cache_is_the_fail_fast_one():
    from tests.test_settings import ROOT, clean_env

    probe = ("import json, django; django.setup(); from django.conf import settings as s; "
             "print(json.dumps(s.CACHES['default']))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings",
                                          REDIS_URL="redis://127.0.0.1:6379/3"))
    cache = json.loads(result.stdout)
    assert cache["BACKEND"] == "core.cache.FailFastRedisCache"
    assert 0 < cache["OPTIONS"]["retry_seconds"] <= 30
