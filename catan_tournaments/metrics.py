"""`/metrics`: Prometheus's text format, for a scraper holding `METRICS_TOKEN` (`Authorization: Bearer …`) only.

Without the token set the page does not exist (404); a request without it or with another one is refused (401).
What it holds: django-prometheus's request latency by view, database queries and cache calls, and the site's own
counters (`core.metrics`: emails sent, retried and failed), added up over every process that wrote into
`PROMETHEUS_MULTIPROC_DIR` (every gunicorn worker of the host, and the Celery worker); and, read at each scrape,
the Celery queue's length on the broker and the background jobs by kind and state in the database.
"""
import hmac
import os

from django.apps import apps
from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily

from core.jobs import BackgroundJob

from .health import broker_client

QUEUES = ("celery",)
"""The broker's queues (Celery's default one: no task is routed elsewhere)."""


class SiteCollector:
    """Figures read when scraped, not counted: the queue on the broker, the jobs in the database."""

    def collect(self):
        queue = GaugeMetricFamily("catan_celery_queue_length", "Tasks waiting on the broker", labels=["queue"])
        client = broker_client()
        for name in QUEUES:
            try:
                if client is not None:
                    queue.add_metric([name], client.llen(name))
            except Exception:  # a broker that is down has no figure; /healthz says why
                continue
        yield queue
        jobs = GaugeMetricFamily("catan_jobs", "Background jobs by kind and state", labels=["kind", "state"])
        for model in apps.get_models():
            if issubclass(model, BackgroundJob):
                counts = dict(model._default_manager.values_list("status").annotate(n=Count("pk")).order_by())
                for state in BackgroundJob.Status.values:
                    jobs.add_metric([model._meta.label_lower, state], counts.get(state, 0))
        yield jobs


def _authorized(request) -> bool:
    given = request.headers.get("Authorization", "")
    return given.startswith("Bearer ") and hmac.compare_digest(given[7:].encode(), settings.METRICS_TOKEN.encode())


@require_GET
@never_cache
def metrics(request):
    if not settings.METRICS_TOKEN:
        raise Http404("No metrics here.")
    if not _authorized(request):
        response = HttpResponse("A bearer token is needed.", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        counted = CollectorRegistry()
        multiprocess.MultiProcessCollector(counted)
    else:
        counted = REGISTRY
    read = CollectorRegistry()
    read.register(SiteCollector())
    return HttpResponse(generate_latest(counted) + generate_latest(read), content_type=CONTENT_TYPE_LATEST)
