"""Players check themselves in from their own phones, with the QR code of a check-in window the desk opens.

A window has a random code and closes after a few minutes, so a photo of its code does not work for long; a code
checks in only while its window is open and its opener still organizes the tournament (the late arrivals it records
are in their name). The desk's own steps, and every undo, are `checkin`'s.
"""
import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Entry, Tournament
from championships.permissions import is_organizer, require_organizer
from results.penalties import MAX_MINUTES_LATE, lateness_rule
from scheduling.calendar import official_start

from .checkin import CheckIn, admit
from .models import CheckInWindow

WINDOW_MINUTES = (5, 10, 15, 30, 60)
"""How long a check-in window may stay open; a short one keeps a photo of its code from working for long."""
DEFAULT_WINDOW_MINUTES = 10


def current_window(tournament: Tournament, now=None) -> CheckInWindow | None:
    """The window players can check in through now: the latest, not closed, not ended, opened by someone who still
    organizes the tournament (its late arrivals are recorded in their name)."""
    now = now or timezone.now()
    window = (CheckInWindow.objects.select_related("opened_by").filter(tournament=tournament)
              .order_by("-opened_at", "-pk").first())
    if window is None or window.closed_at is not None or now >= window.closes_at:
        return None
    if not is_organizer(window.opened_by, tournament):
        return None
    return window


def open_window(tournament: Tournament, *, user, minutes: int = DEFAULT_WINDOW_MINUTES) -> CheckInWindow:
    """Open a check-in window with a new random code for `minutes`; the one open before ends now."""
    require_organizer(user, tournament)
    if minutes not in WINDOW_MINUTES:
        raise ValidationError({"minutes": _("Choose how long the window stays open: %(choices)s minutes.")
                               % {"choices": ", ".join(map(str, WINDOW_MINUTES))}})
    now = timezone.now()
    with transaction.atomic():
        Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament.pk).first()
        CheckInWindow.objects.filter(tournament=tournament, closed_at__isnull=True, closes_at__gt=now).update(
            closed_at=now)
        window = CheckInWindow.objects.create(tournament=tournament, code=secrets.token_urlsafe(12), opened_by=user,
                                              closes_at=now + timedelta(minutes=minutes))
        record_change(user, tournament.pk, Action.ENTRY_SELF_CHECK_IN_OPENED, window,
                      after={"until": timezone.localtime(window.closes_at).strftime("%H:%M"), "minutes": minutes})
    return window


def close_window(tournament: Tournament, *, user) -> None:
    """End the open window now: its code no longer checks anyone in."""
    require_organizer(user, tournament)
    with transaction.atomic():
        window = current_window(tournament)
        if window is None:
            return
        CheckInWindow.objects.filter(pk=window.pk).update(closed_at=timezone.now())
        record_change(user, tournament.pk, Action.ENTRY_SELF_CHECK_IN_CLOSED, window)


def minutes_after_start(tournament: Tournament, now=None) -> int:
    """Whole minutes since the official start (0 before it, or with no start set)."""
    start = official_start(tournament)
    if start is None:
        return 0
    return max(int(((now or timezone.now()) - start).total_seconds() // 60), 0)


class SentToDesk(ValidationError):
    """The player must see the desk: only the desk decides what the phone may not (not admitted, undo…)."""


def self_check_in(tournament: Tournament, code: str, *, player, now=None) -> CheckIn:
    """A player checks themselves in with the code of the open window, from their own phone.

    On time, or late by the ruleset's rule with the minutes since the official start (the moment it happens is
    the arrival: moving the start later changes nothing already recorded). Never "not admitted": a player later
    than the rule admits, or whom the desk has already dealt with, is sent to the desk and nothing is written.
    A code of another tournament, or of a window that ended, checks nobody in."""
    now = now or timezone.now()
    window = current_window(tournament, now)
    if window is None or not secrets.compare_digest(window.code.encode(), str(code).encode()):
        raise ValidationError(_("This check-in code has expired. Scan the code shown now, or go to the desk."))
    entry = Entry.objects.select_related("player").filter(tournament=tournament, player=player).first()
    if entry is None:
        raise SentToDesk(_("You are not entered in %(tournament)s: go to the desk.") % {"tournament": tournament.name})
    if entry.status == Entry.Status.CHECKED_IN:
        return CheckIn(entry)
    if entry.status != Entry.Status.REGISTERED:
        raise SentToDesk(_("You are %(status)s in %(tournament)s: go to the desk.")
                         % {"status": entry.get_status_display(), "tournament": tournament.name})
    rule = lateness_rule(tournament)
    minutes = min(minutes_after_start(tournament, now), MAX_MINUTES_LATE) if rule is not None else 0
    if rule is not None and minutes and not rule.admits(minutes):
        raise SentToDesk(_("You are %(minutes)d minutes late, more than the %(admitted)d the rules admit: go to the "
                           "desk.") % {"minutes": minutes, "admitted": rule.admitted_minutes})
    reason = _("Checked in by themselves with the QR code, %(minutes)d minutes after the official start.") % {
        "minutes": minutes}
    return admit(tournament, entry.pk, minutes, user=window.opened_by, player=player, reason=reason)
