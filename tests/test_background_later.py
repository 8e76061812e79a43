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


def test_a_broker_that_failed_is_not_asked_again_for_a_few_seconds(monkeypatch):
    """Redis down: the first enqueue pays its timeouts and trips the breaker; the next ones go straight to the
    threads (a sign-off queues several kinds of work) until `REDIS_RETRY_SECONDS` have passed."""
    from kombu.exceptions import OperationalError

    from core.cache import Breaker

    now = [100.0]
    monkeypatch.setattr(background, "broker", Breaker(5, clock=lambda: now[0]))
    monkeypatch.setattr(background, "has_worker", lambda task: True)
    asked = []

    def down(*args):
        asked.append(args)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(noted, "delay", down)
    NOTES.clear()
    for value in ("c", "d", "e"):
        assert background.run_in_background(noted, value)  # the inline executor of the tests runs it here
    assert asked == [("c",)] and [value for value, _thread in NOTES] == ["c", "d", "e"]
    now[0] += 5
    assert background.run_in_background(noted, "f")
    assert asked == [("c",), ("f",)]  # asked again once the seconds have passed


def test_work_queued_while_the_interpreter_exits_runs_on_this_thread(monkeypatch):
    """A management command's last thread queuing more work (seed_demo's notices and their emails) as the
    interpreter exits: the executor refuses new work then, and the work runs here instead of being lost."""
    class Exiting:
        def submit(self, fn, *args):
            raise RuntimeError("cannot schedule new futures after interpreter shutdown")

    monkeypatch.setattr(background, "executor", Exiting())
    monkeypatch.setattr(background, "has_worker", lambda task: False)
    NOTES.clear()
    assert background.run_in_background(noted, "g")
    assert [(value, thread) for value, thread in NOTES] == [("g", threading.current_thread().name)]
