"""An invalidation lost while the cache was down is delivered once it answers again (found by `make chaos`).

Otherwise the results version (the public pages' ETag and live poll) stays at its old value after Redis is
back: browsers revalidating get 304 and keep showing the results from before the outage.
"""
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from ranking import standings

TOURNAMENT = 424242


@pytest.fixture(autouse=True)
def nothing_pending():
    standings._lost_invalidations.clear()
    yield
    standings._lost_invalidations.clear()


def refusing(*args, **kwargs):
    raise RedisConnectionError("Connection refused")


def test_a_change_made_while_the_cache_refused_moves_the_version_once_it_is_back(monkeypatch):
    before = standings.results_version(TOURNAMENT)
    with monkeypatch.context() as outage:
        outage.setattr(standings.cache, "set", refusing)
        standings.invalidate_standings(TOURNAMENT)  # a sign-off commits meanwhile; nothing is raised
    assert standings.results_version(TOURNAMENT) != before


def test_while_the_cache_still_refuses_the_invalidation_stays_pending(monkeypatch):
    before = standings.results_version(TOURNAMENT)
    monkeypatch.setattr(standings.cache, "set", refusing)
    standings.invalidate_standings(TOURNAMENT)
    assert standings.results_version(TOURNAMENT) is None  # pages are rendered without an ETag meanwhile
    monkeypatch.undo()
    after = standings.results_version(TOURNAMENT)
    assert after != before and standings.results_version(TOURNAMENT) == after  # delivered once, then steady
