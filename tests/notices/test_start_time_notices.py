"""Start-time notices (seed 001 §6): each participant with an email is told the official start once, within the
day before, and again when it moves; the organizer sees who was told."""
import re
from datetime import date, datetime, time, timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from championships.models import Entry, Player, Tournament
from notices import start_time
from notices.models import StartTimeNotice
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db

DAY = date(2026, 6, 11)


@pytest.fixture
def send_start_time_notices(django_capture_on_commit_callbacks):
    """Each notice is queued once its row commits (core/mail.py); a test's transaction never commits, so the queued
    emails go out at the end of each run here."""
    def send(now=None):
        with django_capture_on_commit_callbacks(execute=True):
            return start_time.send_start_time_notices(now)
    return send


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


@pytest.fixture
def event():
    tournament = make_tournament(slug="notice-cup", name="Notice Cup", date=DAY, official_start=time(10, 0),
                                 city="Dubai")
    entries = make_entries(tournament, 4)
    for n, entry in enumerate(entries[:3]):
        Player.objects.filter(pk=entry.player_id).update(email=f"player{n}@example.com", name=f"Notified {n}")
    Entry.objects.filter(pk=entries[2].pk).update(status=Entry.Status.WITHDRAWN)
    return tournament, entries


def test_sent_once_within_the_day_before(event, send_start_time_notices):
    tournament, entries = event
    assert send_start_time_notices(at(DAY - timedelta(days=2), 9)) == 0  # too early
    assert send_start_time_notices(at(DAY - timedelta(days=1), 10, 15)) == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["player0@example.com", "player1@example.com"]
    assert mail.outbox[0].subject == "Start time: Notice Cup"
    assert "is at 10 a.m. on June 11, 2026." in mail.outbox[0].body and "lose 1 VP" in mail.outbox[0].body
    assert send_start_time_notices(at(DAY - timedelta(days=1), 10, 30)) == 0  # never twice
    call_command("send_start_time_notices")  # the command (now: long after the start) sends nothing either
    assert len(mail.outbox) == 2 and StartTimeNotice.objects.count() == 2


def test_a_moved_start_is_sent_again(event, send_start_time_notices):
    tournament, entries = event
    send_start_time_notices(at(DAY - timedelta(days=1), 12))
    Tournament.objects.filter(pk=tournament.pk).update(official_start=time(11, 30))
    assert send_start_time_notices(at(DAY - timedelta(days=1), 12, 15)) == 2
    moved = mail.outbox[2:]
    assert all(m.subject == "New start time: Notice Cup" and "has moved" in m.body and "11:30 a.m." in m.body
               for m in moved)
    assert StartTimeNotice.objects.filter(moved=True).count() == 2


def test_a_failed_email_is_tried_again(event, monkeypatch, send_start_time_notices):
    """The email job gives up (here at once: no worker to retry later) and removes the notice's row, so the next run
    queues it again."""
    tournament, entries = event

    def refuse(*args, **kwargs):
        raise OSError("mail server down")
    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    assert send_start_time_notices(at(DAY, 8)) == 2 and not StartTimeNotice.objects.exists()
    monkeypatch.undo()
    assert send_start_time_notices(at(DAY, 8, 15)) == 2 and len(mail.outbox) == 2


def test_the_organizer_sees_who_was_told(event, send_start_time_notices):
    tournament, entries = event
    send_start_time_notices(at(DAY, 8))
    client = Client()
    client.force_login(make_official(tournament, "organizer"))
    page = client.get(reverse("organize-tournament", args=[tournament.slug])).content.decode()
    assert "2 participants told this start." in page and "0 still to be told." in page
    assert "Notified 0" in page and "player1@example.com" in page and "1 has no email" in page


def test_the_lateness_sentence_is_the_ruleset_registrys(event, monkeypatch, send_start_time_notices):
    """001 §6: participants are told the official start, and the national rules deduct for lateness; 004 (world
    championship) has no lateness penalty, so its notice threatens none. The registry says which rules have one
    and what it costs: nothing compares a ruleset's name."""
    import dataclasses

    from engines.rulesets import RULESETS, LatenessRule

    world = make_tournament(slug="world-notice", name="World Notice", ruleset="cwc-2025", date=DAY,
                            official_start=time(10, 0))
    player = make_entries(world, 1)[0].player
    Player.objects.filter(pk=player.pk).update(email="world@example.com")
    monkeypatch.setitem(RULESETS, "cnc-2022", dataclasses.replace(
        RULESETS["cnc-2022"], lateness=LatenessRule(vp=2, admitted_minutes=10)))
    send_start_time_notices(at(DAY, 8))
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert "up to 10 minutes late lose 2 VP; later arrivals are not admitted" in bodies["player0@example.com"]
    world_text = re.sub(r"https?://\S+", "", bodies["world@example.com"])  # a link's token may spell anything
    assert "late" not in world_text and "VP" not in world_text
