"""Requests to other people's servers run apart from the other work (issue 33, item 4): ten webhooks × four events
could hold the one pool every championship shares (seating, emails, the refresh). With a worker they go to the
outbound queue, which docker-compose.yml gives a worker of its own; without one, to threads of their own."""
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml
from celery import shared_task

from catan_tournaments.celery import app as celery_app
from core import background
from core.mail import send_email
from results.tasks import send_seating_notices, send_seating_pushes
from tests.test_deployment import ROOT, SERVICES, option
from webhooks.tasks import delivery_task, send_overdue_deliveries

RELEASE = threading.Event()
RAN: list[tuple[str, str]] = []


@shared_task
def held_outbound(name: str) -> None:
    """Stands in for a delivery to a receiver that takes its whole deadline (routed to the outbound queue by the
    test, as the settings route the deliveries)."""
    RAN.append((name, threading.current_thread().name))
    RELEASE.wait(10)


@shared_task
def quick(name: str) -> None:
    RAN.append((name, threading.current_thread().name))


@pytest.fixture
def sent(monkeypatch):
    """The queue each task sent to the broker goes to (what Celery routed it to), instead of sending it."""
    routed: list[tuple[str, str]] = []
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr(celery_app.amqp, "send_task_message",
                        lambda producer, name, message, queue=None, **options: routed.append((name, queue.name)))
    return routed


def test_with_a_worker_deliveries_and_pushes_go_to_the_outbound_queue(sent):
    background.run_in_background(delivery_task, 1)
    background.run_in_background(delivery_task, 1, countdown=60)  # a retry after its backoff
    background.run_in_background(send_seating_pushes, 1)
    background.run_in_background(send_seating_notices, 1)
    background.run_in_background(send_overdue_deliveries)
    background.run_in_background(send_email, {"to": "someone@example.org", "subject": "S", "body": "B"})
    assert sent == [("webhooks.tasks.delivery_task", "outbound"), ("webhooks.tasks.delivery_task", "outbound"),
                    ("results.tasks.send_seating_pushes", "outbound"), ("results.tasks.send_seating_notices", "celery"),
                    ("webhooks.tasks.send_overdue_deliveries", "celery"), ("core.mail.send_email", "celery")]


def test_docker_compose_gives_the_outbound_queue_a_worker_of_its_own():
    """Each declared queue is served, each by one worker; a worker started without --queues serves both."""
    declared = {queue.name for queue in celery_app.conf.task_queues}
    routed = {route["queue"] for route in celery_app.conf.task_routes.values()}
    assert declared == {"celery", background.OUTBOUND_QUEUE} == {celery_app.conf.task_default_queue, *routed}
    served = {name: option(service["command"], "--queues") for name, service in SERVICES.items()
              if "worker" in service.get("command", [])}
    assert served == {"worker": "celery", "worker-outbound": "outbound"}
    outbound = SERVICES["worker-outbound"]
    assert "outbound@$$HOSTNAME" in outbound["healthcheck"]["test"][1]
    assert option(outbound["command"], "--hostname") == "outbound@%h"
    assert yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["worker-outbound"]["depends_on"]


def test_without_a_worker_deliveries_waiting_on_receivers_leave_the_other_work_its_threads(monkeypatch):
    """Both outbound threads held by slow receivers, and more deliveries waiting: an email or a seating plan still
    runs at once, on the other threads."""
    monkeypatch.setattr(background, "has_worker", lambda task: False)
    monkeypatch.setitem(celery_app.conf.task_routes, held_outbound.name, {"queue": background.OUTBOUND_QUEUE})
    monkeypatch.setattr(background, "executor", ThreadPoolExecutor(2, thread_name_prefix="test-default"))
    monkeypatch.setattr(background, "outbound_executor", ThreadPoolExecutor(2, thread_name_prefix="test-outbound"))
    RAN.clear()
    RELEASE.clear()
    try:
        for n in range(5):
            assert background.run_in_background(held_outbound, f"delivery {n}")
        assert background.run_in_background(quick, "email")
        deadline = time.monotonic() + 5
        while len(RAN) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)  # time enough for a third delivery to start, were there a thread for it
        lanes = dict(RAN)
        assert sorted(lanes) == ["delivery 0", "delivery 1", "email"]  # the other deliveries wait their turn
        assert lanes["email"].startswith("test-default")
        assert lanes["delivery 0"].startswith("test-outbound") and lanes["delivery 1"].startswith("test-outbound")
    finally:
        RELEASE.set()
        background.outbound_executor.shutdown(wait=True)
        background.executor.shutdown(wait=True)
    assert len(RAN) == 6
