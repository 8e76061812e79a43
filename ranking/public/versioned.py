"""Values computed once per results version of a tournament and kept in the cache."""

import contextlib

from django.conf import settings
from django.core.cache import cache

from championships.models import Tournament
from ranking.standings import results_version


def per_version(tournament: Tournament, name: str, compute):
    """`compute()`, cached under the tournament's results version; computed afresh without a version or cache."""
    version = results_version(tournament.pk)
    if version is None:
        return compute()
    key = f"{name}:{tournament.pk}:{version}"
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        if (found := cache.get(key)) is not None:
            return found
    value = compute()
    with contextlib.suppress(Exception):
        cache.set(key, value, timeout=settings.STANDINGS_CACHE_SECONDS)
    return value
