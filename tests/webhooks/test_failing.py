"""A webhook whose deliveries keep failing is turned off, its organizers are told, and turning it on counts afresh."""
import pytest
from django.core import mail

from audit.models import AuditEntry
from webhooks import services
from webhooks.delivery import MAX_ATTEMPTS
from webhooks.failing import FAILURES_IN_A_ROW
from webhooks.models import Delivery, Event, Webhook

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(local, receiver, cup):
    tournament, organizer, _other = cup
    organizer.email = "hooks@example.org"
    organizer.save()
    return services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)


def deliver(hook, later, run_on_commit, *, fails: bool, receiver) -> Delivery:
    """One test delivery, tried until it is taken or has failed for good."""
    receiver.statuses = [500] * MAX_ATTEMPTS if fails else []
    organizer = hook.created_by
    with run_on_commit(execute=True):
        delivery = services.ping(hook.championship, hook.pk, user=organizer)
    while Delivery.objects.get(pk=delivery.pk).status == Delivery.Status.QUEUED:
        _seconds, task, args = later.pop()
        with run_on_commit(execute=True):
            task(*args)
    return Delivery.objects.get(pk=delivery.pk)


def test_after_five_deliveries_failed_in_a_row_the_webhook_is_turned_off_and_the_organizers_told(
        hook, receiver, later, django_capture_on_commit_callbacks):
    for n in range(FAILURES_IN_A_ROW):
        assert Webhook.objects.get(pk=hook.pk).active, n
        delivery = deliver(hook, later, django_capture_on_commit_callbacks, fails=True, receiver=receiver)
        assert delivery.status == Delivery.Status.FAILED
    hook.refresh_from_db()
    assert not hook.active and hook.turned_off_automatically
    entry = AuditEntry.objects.get(action="webhook.failing_turned_off", object_id=hook.pk)
    assert entry.user is None and entry.reason == "5 deliveries in a row failed."
    [email] = mail.outbox
    assert email.to == ["hooks@example.org"] and hook.url in email.body
    assert f"https://catan.example/organize/championships/{hook.championship.slug}/webhooks/" in email.body
    asked = len(receiver.requests)
    with django_capture_on_commit_callbacks(execute=True):
        services.emit(hook.championship.tournaments.get(), Event.GAME_PUBLISHED, {"game": 1})
    assert len(receiver.requests) == asked  # nothing more is sent


def test_a_delivery_taken_in_between_breaks_the_row(hook, receiver, later, django_capture_on_commit_callbacks):
    for fails in [True] * (FAILURES_IN_A_ROW - 1) + [False] + [True] * (FAILURES_IN_A_ROW - 1):
        deliver(hook, later, django_capture_on_commit_callbacks, fails=fails, receiver=receiver)
    hook.refresh_from_db()
    assert hook.active and not mail.outbox


def test_turned_on_again_the_earlier_failures_no_longer_count(hook, receiver, later,
                                                              django_capture_on_commit_callbacks):
    for _failure in range(FAILURES_IN_A_ROW):
        deliver(hook, later, django_capture_on_commit_callbacks, fails=True, receiver=receiver)
    services.set_active(hook.championship, hook.pk, True, user=hook.created_by)
    hook.refresh_from_db()
    assert hook.active and not hook.turned_off_automatically
    deliver(hook, later, django_capture_on_commit_callbacks, fails=True, receiver=receiver)
    hook.refresh_from_db()
    assert hook.active


def test_the_console_says_why_a_webhook_is_off(client, hook):
    page = f"/organize/championships/{hook.championship.slug}/webhooks/"
    client.force_login(hook.created_by)
    Webhook.objects.filter(pk=hook.pk).update(active=False)
    assert "turned off</span>" in client.get(page).content.decode()
    Webhook.objects.filter(pk=hook.pk).update(turned_off_automatically=True)
    assert "turned off: its deliveries kept failing</span>" in client.get(page).content.decode()
