"""Self check-in by the QR code of a time box (attendance/checkin.py): the code changes at each window, a player is
checked in on time or late by the rule from the clock, never "not admitted" without the desk."""
from datetime import datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from attendance import checkin, self_checkin
from attendance.models import CheckInWindow
from audit.models import AuditEntry
from championships.models import Entry, StaffRole
from results.models import Penalty
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db

START = (timezone.localtime() - timedelta(hours=1)).replace(second=0, microsecond=0)
"""The official start an hour ago, at the venue: the times these tests check in at (up to 40 minutes after it) are
all in the past, so a window opened now covers them at any hour of the day (a fixed 10:00 did not after 20:00 UTC,
past midnight at the venue)."""
DAY = START.date()


@pytest.fixture
def door():
    tournament = make_tournament(date=DAY, official_start=START.time())
    entries = make_entries(tournament, 3)
    return tournament, entries, make_official(tournament, "organizer")


def at(minutes_after_start: float):
    return timezone.make_aware(datetime.combine(DAY, START.time())) + timedelta(minutes=minutes_after_start)


def test_a_window_has_its_own_code_and_a_new_one_ends_the_old(door):
    tournament, entries, organizer = door
    first = self_checkin.open_window(tournament, user=organizer, minutes=10)
    second = self_checkin.open_window(tournament, user=organizer, minutes=5)
    assert first.code != second.code and len(second.code) >= 16
    assert self_checkin.current_window(tournament) == second
    with pytest.raises(ValidationError, match="expired"):  # a photo of the first code
        self_checkin.self_check_in(tournament, first.code, player=entries[0].player)
    assert Entry.objects.get(pk=entries[0].pk).status == "registered"
    with pytest.raises(ValidationError):
        self_checkin.open_window(tournament, user=organizer, minutes=7)
    with pytest.raises(PermissionDenied):
        self_checkin.open_window(tournament, user=make_official(tournament, "referee"))
    assert AuditEntry.objects.filter(action="entry.self_check_in_opened").count() == 2


def test_a_code_works_only_in_its_window_and_its_tournament(door):
    tournament, entries, organizer = door
    window = self_checkin.open_window(tournament, user=organizer, minutes=5)
    other = make_tournament(date=DAY, official_start=START.time())
    Entry.objects.create(tournament=other, player=entries[0].player)
    with pytest.raises(ValidationError, match="expired"):
        self_checkin.self_check_in(other, window.code, player=entries[0].player)
    with pytest.raises(ValidationError, match="expired"):
        self_checkin.self_check_in(tournament, window.code, player=entries[0].player, now=window.closes_at)
    self_checkin.close_window(tournament, user=organizer)
    with pytest.raises(ValidationError, match="expired"):
        self_checkin.self_check_in(tournament, window.code, player=entries[0].player)
    assert not Entry.objects.filter(status="checked_in").exists()


def test_on_time_and_late_by_the_rule_marked_as_by_themselves(door):
    tournament, entries, organizer = door
    window = self_checkin.open_window(tournament, user=organizer, minutes=60)
    on_time = self_checkin.self_check_in(tournament, window.code, player=entries[0].player, now=at(-3))
    assert on_time.entry.status == "checked_in" and on_time.entry.checked_in_by_self and not on_time.penalised
    late = self_checkin.self_check_in(tournament, window.code, player=entries[1].player, now=at(9.5))
    assert late.penalised and late.entry.minutes_late == 9
    penalty = Penalty.objects.get(entry=entries[1])
    assert penalty.vp == 1 and penalty.recorded_by == organizer and "by themselves" in penalty.reason
    logged = AuditEntry.objects.filter(action="entry.checked_in").order_by("pk")
    assert [(e.user, e.player, e.after["self"]) for e in logged] == [(None, entries[0].player, True),
                                                                   (None, entries[1].player, True)]
    again = self_checkin.self_check_in(tournament, window.code, player=entries[0].player)  # a double tap
    assert again.entry.status == "checked_in" and logged.count() == 2


def test_never_not_admitted_from_a_phone_the_player_is_sent_to_the_desk(door):
    tournament, entries, organizer = door
    window = self_checkin.open_window(tournament, user=organizer, minutes=60)
    with pytest.raises(self_checkin.SentToDesk, match="16 minutes late"):
        self_checkin.self_check_in(tournament, window.code, player=entries[0].player, now=at(16))
    entry = Entry.objects.get(pk=entries[0].pk)
    assert entry.status == "registered" and not Penalty.objects.exists()
    Entry.objects.filter(pk=entries[1].pk).update(status="withdrawn")
    with pytest.raises(self_checkin.SentToDesk):
        self_checkin.self_check_in(tournament, window.code, player=entries[1].player)
    stranger = make_entries(make_tournament(), 1)[0].player
    with pytest.raises(self_checkin.SentToDesk):
        self_checkin.self_check_in(tournament, window.code, player=stranger)


def test_without_a_lateness_rule_everyone_is_on_time(door):
    tournament = make_tournament(ruleset="cwc-2025", date=DAY, official_start=START.time())
    entry = make_entries(tournament, 1)[0]
    window = self_checkin.open_window(tournament, user=make_official(tournament, "organizer"))
    done = self_checkin.self_check_in(tournament, window.code, player=entry.player, now=at(40))
    assert done.entry.status == "checked_in" and done.entry.minutes_late == 0 and not Penalty.objects.exists()


def test_a_window_dies_with_its_openers_role_and_undo_clears_the_mark(door):
    tournament, entries, organizer = door
    window = self_checkin.open_window(tournament, user=organizer)
    self_checkin.self_check_in(tournament, window.code, player=entries[0].player, now=at(-1))
    checkin.undo(tournament, entries[0].pk, user=organizer, reason="Scanned for a friend")
    entry = Entry.objects.get(pk=entries[0].pk)
    assert entry.status == "registered" and not entry.checked_in_by_self
    StaffRole.objects.filter(user=organizer).delete()
    assert self_checkin.current_window(tournament) is None
    assert not CheckInWindow.objects.filter(closed_at__isnull=False).exists()
