"""Health for the proxy, the load balancer and docker-compose.

`/livez`: the process answers (no dependency asked), for a supervisor deciding whether to restart it.
`/healthz`: ready to serve, each dependency asked: {"status", "instance", "database", "cache", "broker"}; a cache
or broker that is down makes the status "degraded" but still 200, since the site then serves everything from the
database and runs queued work on its own threads; a database that is down makes it "unavailable" and 503.
`instance` names the replica that answered (`INSTANCE_NAME`, by default the host's name: a container's id).
"""
import logging
from functools import cache as once

import redis
from django.conf import settings
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


@once
def broker_client() -> redis.Redis | None:
    """A client of Celery's broker, kept for the process (its connection pool), when the broker is Redis."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    return redis.Redis.from_url(url, socket_timeout=settings.REDIS_TIMEOUT,
                                socket_connect_timeout=settings.REDIS_TIMEOUT)


def _broker_state() -> str:
    """"ok", "down", or "none" without a broker (background work then runs on the web process's threads)."""
    client = broker_client()
    if client is None:
        return "none"
    try:
        client.ping()
    except redis.RedisError as error:
        logger.warning("Health check: the broker is down (%r).", error)
        return "down"
    return "ok"


@require_GET
@never_cache
def livez(request):
    return JsonResponse({"status": "ok", "instance": settings.INSTANCE_NAME})


@require_GET
@never_cache
def healthz(request):
    database, cache_, broker = _database_ok(), _cache_ok(), _broker_state()
    status = "unavailable" if not database else "ok" if cache_ and broker != "down" else "degraded"
    body = {"status": status, "instance": settings.INSTANCE_NAME, "database": "ok" if database else "down",
            "cache": "ok" if cache_ else "down", "broker": broker}
    return JsonResponse(body, status=200 if database else 503)
