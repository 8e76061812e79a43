"""Issue 34 item 5: what an operator expects of each replica. `/livez` answers without asking any dependency,
`/healthz` asks the database, the cache and the broker and names the replica; `/metrics` (Prometheus) answers only
the bearer of METRICS_TOKEN and holds the requests by view, database queries, cache calls, emails, the Celery
queue's length and the jobs by state; every response and log line carries the request's id, into Celery tasks."""
import logging
from types import SimpleNamespace

import pytest
from django.db import DatabaseError
from django.http import HttpResponse
from django.test import RequestFactory

from catan_tournaments import health
from core import request_id
from core.mail import send_email
from scheduling.models import PlanningJob
from tests.factories import make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_livez_answers_without_the_database(client, settings, monkeypatch):
    settings.INSTANCE_NAME = "web-7"

    def broken(*args, **kwargs):
        raise DatabaseError("down")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", broken)
    assert client.get("/livez").json() == {"status": "ok", "instance": "web-7"}
    assert client.get("/healthz").status_code == 503


def test_healthz_names_the_replica_and_a_broker_that_is_down_degrades_it(client, settings):
    settings.INSTANCE_NAME = "web-2"
    health.broker_client.cache_clear()
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # nothing listens on port 9
    try:
        body = client.get("/healthz").json()
    finally:
        health.broker_client.cache_clear()
    assert body["instance"] == "web-2" and body["broker"] == "down" and body["status"] == "degraded"


def test_without_a_broker_the_health_says_none_and_stays_ok(client, settings):
    health.broker_client.cache_clear()
    settings.CELERY_BROKER_URL = "memory://"
    try:
        body = client.get("/healthz").json()
    finally:
        health.broker_client.cache_clear()
    assert body["broker"] == "none" and body["status"] == "ok"


def test_metrics_do_not_exist_without_a_token_and_refuse_any_other_bearer(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    settings.METRICS_TOKEN = "s3cret-token"
    for header in ({}, {"HTTP_AUTHORIZATION": "Bearer wrong"}, {"HTTP_AUTHORIZATION": "s3cret-token"},
                   {"HTTP_AUTHORIZATION": "Basic czNjcmV0LXRva2Vu"}):
        response = client.get("/metrics", **header)
        assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")
        assert b"django_http" not in response.content


def test_metrics_hold_requests_by_view_queries_cache_emails_queue_and_jobs(client, settings, mailoutbox):
    settings.METRICS_TOKEN = "s3cret-token"
    tournament = make_tournament(slug="metered")
    PlanningJob.objects.create(stage=tournament.stages.get(), seed=1, players=8, estimate_seconds=1,
                               requested_by=make_user("metrics-organizer"))
    assert client.get("/t/metered/").status_code == 200
    send_email({"to": "p@example.com", "subject": "Hello", "body": "Hi", "attachments": [], "record": None})

    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert 'django_http_requests_latency_seconds_by_view_method_count{method="GET",view="public-tournament"}' in text
    assert 'django_db_execute_total{alias="default",vendor=' in text
    assert 'catan_emails_total{outcome="sent"}' in text
    assert 'catan_jobs{kind="scheduling.planningjob",state="queued"} 1.0' in text
    assert 'catan_jobs{kind="printing.printjob",state="failed"} 0.0' in text
    assert "# HELP catan_celery_queue_length" in text


def test_the_cache_counts_its_hits_and_misses_as_django_prometheus_does(settings):
    from django.core.cache.backends.redis import RedisCache
    from django_prometheus.cache.metrics import django_cache_hits_total, django_cache_misses_total

    from core.cache import FailFastRedisCache

    cache = FailFastRedisCache("redis://127.0.0.1:9/0", {})
    values = iter(["kept", None])
    original = RedisCache.get
    RedisCache.get = lambda self, key, default=None, version=None: next(values) or default
    try:
        hits, misses = (django_cache_hits_total.labels(backend="redis")._value.get(),
                        django_cache_misses_total.labels(backend="redis")._value.get())
        assert cache.get("a") == "kept" and cache.get("b", "none") == "none"
    finally:
        RedisCache.get = original
    assert django_cache_hits_total.labels(backend="redis")._value.get() == hits + 1
    assert django_cache_misses_total.labels(backend="redis")._value.get() == misses + 1


def test_a_request_id_from_the_proxy_is_sent_back_and_on_every_log_line_of_the_request():
    lines = []

    def view(request):
        record = logging.LogRecord("catan", logging.WARNING, __file__, 1, "signed off", None, None)
        request_id.RequestIdFilter().filter(record)
        lines.append(request_id.JsonFormatter().format(record))
        return HttpResponse("ok")

    middleware = request_id.RequestIdMiddleware(view)
    response = middleware(RequestFactory().get("/", HTTP_X_REQUEST_ID="from-nginx-42"))
    assert response["X-Request-ID"] == "from-nginx-42"
    assert '"request_id": "from-nginx-42"' in lines[0] and '"message": "signed off"' in lines[0]
    made = middleware(RequestFactory().get("/", HTTP_X_REQUEST_ID="not valid; " + "x" * 80))["X-Request-ID"]
    assert len(made) == 32 and made.isalnum()
    assert request_id.current.get() == "-"  # nothing left for the thread's next request


def test_a_task_queued_during_a_request_runs_under_its_id():
    headers = {}
    token = request_id.current.set("abc-123")
    try:
        request_id._send_request_id(headers=headers)
    finally:
        request_id.current.reset(token)
    assert headers == {"request_id": "abc-123"}

    task = SimpleNamespace(request=SimpleNamespace(is_eager=False, request_id="abc-123"))
    request_id._run_under_request_id(task=task)
    assert request_id.current.get() == "abc-123"
    request_id._forget_request_id(task=task)
    assert request_id.current.get() == "-"
