"""Work asked for later (a retry's backoff) through the one dispatcher, `core.background`: the worker's countdown,
or this process's timer handing it to the threads without one."""
import threading

from celery import shared_task

from core import background


@shared_task
def noted(value: str) -> None:
    NOTES.append((value, threading.current_thread().name))


NOTES: list[tuple[str, str]] = []


def test_with_a_worker_the_countdown_goes_to_the_broker(monkeypatch):
    sent = []
    monkeypatch.setattr(background, "has_worker", lambda task: True)
    monkeypatch.setattr(noted, "apply_async", lambda args, countdown: sent.append((args, countdown)))
    assert background.run_in_background(noted, "a", countdown=60)
    assert sent == [(("a",), 60)]


def test_without_a_worker_a_timer_hands_it_to_the_threads_when_due(monkeypatch):
    threads = background.ThreadPoolExecutor(max_workers=1, thread_name_prefix="background-test")
    monkeypatch.setattr(background, "executor", threads)
    monkeypatch.setattr(background, "has_worker", lambda task: False)
    NOTES.clear()
    assert background.run_in_background(noted, "b", countdown=0.2)
    assert NOTES == []  # not yet
    timer = next(t for t in threading.enumerate() if isinstance(t, threading.Timer))
    assert timer.daemon
    timer.join(5)
    threads.shutdown(wait=True)
    [(value, thread)] = NOTES
    assert value == "b" and thread.startswith("background-test")
