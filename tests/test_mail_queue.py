"""The one way the site sends email (core/mail.py): from the job queue after the change commits, with a timeout,
retried with growing delays while the mail server fails, its private contents never in the worker's log lines."""
import smtplib

import pytest
from celery import Task
from django.conf import settings
from django.core import mail
from django.core.mail import get_connection

from core import mail as site_mail
from notices.models import StartTimeNotice
from tests.factories import make_entries, make_tournament

pytestmark = pytest.mark.django_db


def test_an_email_is_queued_when_the_change_commits_not_before(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        site_mail.queue_email("ana@example.com", "Subject", "Body", attachments=(("a.ics", "BEGIN:X", "text/plain"),))
    assert mail.outbox == [] and len(callbacks) == 1  # a rolled-back change sends nothing
    callbacks[0]()
    (sent,) = mail.outbox
    assert (sent.to, sent.subject, sent.body) == (["ana@example.com"], "Subject", "Body")
    assert sent.attachments[0][0] == "a.ics" and sent.extra_headers["Auto-Submitted"] == "auto-generated"


def test_one_attempt_waits_at_most_email_timeout_for_the_server():
    """Issue 22 item 8: the set-password and notice emails were sent inside the request with no timeout."""
    assert settings.EMAIL_TIMEOUT == 10
    assert get_connection("django.core.mail.backends.smtp.EmailBackend").timeout == settings.EMAIL_TIMEOUT


def test_a_failure_on_the_worker_is_tried_again_later_with_growing_delays(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPServerDisconnected("gone")
    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    delays = []

    def retry(*args, countdown=None, **kwargs):
        delays.append(countdown)
        return RuntimeError("retry")
    monkeypatch.setattr(site_mail.send_email, "retry", retry)
    message = {"to": "ana@example.com", "subject": "S", "body": "B", "attachments": [], "record": None}
    for retries in range(site_mail.RETRIES):
        site_mail.send_email.push_request(retries=retries, called_directly=False, is_eager=False)
        try:
            with pytest.raises(RuntimeError):
                site_mail.send_email.run(message)
        finally:
            site_mail.send_email.pop_request()
    assert delays == [30, 60, 120, 240, 480]


def test_the_last_failure_gives_up_and_removes_the_row_that_said_it_went_out(monkeypatch):
    tournament = make_tournament()
    entry = make_entries(tournament, 1)[0]
    notice = StartTimeNotice.objects.create(entry=entry, email="ana@example.com", start="2030-01-01T10:00Z")
    monkeypatch.setattr("django.core.mail.EmailMessage.send", lambda *a, **k: (_ for _ in ()).throw(OSError("down")))
    message = {"to": "ana@example.com", "subject": "S", "body": "B", "attachments": [],
               "record": ["notices.StartTimeNotice", notice.pk]}
    site_mail.send_email.push_request(retries=site_mail.RETRIES, called_directly=False, is_eager=False)
    try:
        assert site_mail.send_email.run(message) is False
    finally:
        site_mail.send_email.pop_request()
    assert not StartTimeNotice.objects.filter(pk=notice.pk).exists()


def test_without_a_worker_it_is_sent_once_here_and_a_failure_is_not_an_error_page(monkeypatch, caplog):
    monkeypatch.setattr("django.core.mail.EmailMessage.send", lambda *a, **k: (_ for _ in ()).throw(OSError("down")))
    message = {"to": "secret-person@example.com", "subject": "S", "body": "https://x/me/SECRET-TOKEN/",
               "attachments": [], "record": None}
    assert site_mail.send_email(message) is False
    logged = caplog.text
    assert "example.com" in logged and "secret-person" not in logged and "SECRET-TOKEN" not in logged


def test_the_worker_never_logs_the_message(monkeypatch):
    """Celery writes a task's arguments in its log lines unless told otherwise: they hold private links."""
    seen = {}

    def queued(self, args=None, kwargs=None, **options):
        seen.update(options, args=args)
    monkeypatch.setattr(Task, "apply_async", queued)
    site_mail.send_email.delay({"to": "a@example.com", "body": "https://x/me/SECRET/"})
    assert seen["argsrepr"] == "(…)" and seen["kwargsrepr"] == "{…}"


def test_without_a_worker_a_slow_mail_server_never_holds_the_request(monkeypatch, django_capture_on_commit_callbacks):
    """core.background's one policy: no broker (eager Celery, as here), so the email goes to the web process's own
    thread; the change that asked for it returns while the mail server is still answering."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Event

    from core import background

    threads = ThreadPoolExecutor(max_workers=1)
    monkeypatch.setattr(background, "executor", threads)
    answering = Event()
    real = site_mail.deliver

    def slow(message):
        assert answering.wait(10)
        real(message)
    monkeypatch.setattr(site_mail, "deliver", slow)
    with django_capture_on_commit_callbacks(execute=True):
        site_mail.queue_email("ana@example.com", "Your table", "Table 3")
    assert mail.outbox == []  # handed over; the server has not answered yet
    answering.set()
    threads.shutdown(wait=True)
    (sent,) = mail.outbox
    assert sent.to == ["ana@example.com"] and sent.subject == "Your table"
