"""Health for load balancers and docker-compose: each dependency, and 200 whenever the database answers.

{"status": "ok", "database": "ok", "cache": "ok"}; a cache that is down makes the status "degraded"
but still 200, since the site then serves everything from the database; a database that is down
makes it "unavailable" and 503.
"""
import logging

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        logger.warning("Health check: the database is down (%r).", error)
        return False
    return True


def _cache_ok() -> bool:
    try:
        cache.get("healthz")  # a round trip; bounded by the cache's socket timeouts
    except Exception as error:
        logger.warning("Health check: the cache is down (%r).", error)
        return False
    return True


@require_GET
@never_cache
def healthz(request):
    database, cache_ = _database_ok(), _cache_ok()
    status = "ok" if database and cache_ else "degraded" if database else "unavailable"
    body = {"status": status, "database": "ok" if database else "down", "cache": "ok" if cache_ else "down"}
    return JsonResponse(body, status=200 if database else 503)
