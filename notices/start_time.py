"""Start-time notices (seed 001 §6: "participants are told the official start time one day before").

`send_start_time_notices` runs every quarter of an hour (Celery beat, or the `send_start_time_notices` command
from cron): within the day before a tournament's official start, every active participant with an email gets
it once, in the language they registered in, with their private link (`championships.links`); if the organizer
moves the start (date or time), the next run sends the new one. Each email is logged as a `StartTimeNotice` row
written before it is queued (unique per entry and start, so two runs at once cannot both send it) and removed again
if the email finally fails (`core.mail`), so a later run tries again.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from championships.links import private_link
from championships.models import ACTIVE_STATUSES, Entry, Tournament
from championships.permissions import personal_details
from core.mail import queue_email
from engines.rulesets import ruleset_for
from scheduling.calendar import official_start

from .models import StartTimeNotice

NOTICE_AHEAD = timedelta(days=1)


def _message(entry: Entry, start: datetime, moved: bool, link: str) -> tuple[str, str]:
    local = timezone.localtime(start)
    values = {"name": entry.player.name, "tournament": entry.tournament.name,
              "date": date_format(local, "DATE_FORMAT"), "time": date_format(local, "TIME_FORMAT"),
              "venue": ", ".join(p for p in (entry.tournament.venue, entry.tournament.city) if p)}
    if moved:
        subject = _("New start time: %(tournament)s") % values
        first = _("The official start of %(tournament)s has moved: it is now at %(time)s on %(date)s.") % values
    else:
        subject = _("Start time: %(tournament)s") % values
        first = _("The official start of %(tournament)s is at %(time)s on %(date)s.") % values
    lines = [_("Hello %(name)s,") % values, "", first]
    if values["venue"]:
        lines.append(_("Venue: %(venue)s.") % values)
    lateness = ruleset_for(entry.tournament.ruleset).lateness  # 001 §6; the world and club rules have none
    if lateness is not None:
        lines += ["", _("Players up to %(minutes)d minutes late lose %(vp)d VP; later arrivals are not admitted.")
                  % {"minutes": lateness.admitted_minutes, "vp": lateness.vp}]
    lines += ["", _("Your tables, games and results, on your phone (this link is yours alone: do not share it):"),
              link]
    return subject, "\n".join(lines)


def due_tournaments(now: datetime) -> list[tuple[Tournament, datetime]]:
    """Tournaments whose official start is within the next day."""
    candidates = Tournament.objects.filter(date__gte=(now - NOTICE_AHEAD).date(), date__lte=(now + NOTICE_AHEAD).date(),
                                           official_start__isnull=False).exclude(
        status__in=[Tournament.Status.FINISHED])
    due = []
    for tournament in candidates:
        start = official_start(tournament)
        if start is not None and now < start <= now + NOTICE_AHEAD:
            due.append((tournament, start))
    return due


def send_start_time_notices(now: datetime | None = None) -> int:
    """Send every notice due now; returns how many emails went out."""
    now = now or timezone.now()
    sent = 0
    for tournament, start in due_tournaments(now):
        entries = (tournament.entries.filter(status__in=ACTIVE_STATUSES).exclude(player__email="")
                   .select_related("player", "tournament"))
        told = set(StartTimeNotice.objects.filter(entry__tournament=tournament).values_list("entry_id", "start"))
        earlier = {entry for entry, _start in told}
        for entry in entries:
            if (entry.pk, start) in told:
                continue
            sent += _send(entry, start, moved=entry.pk in earlier)
    return sent


def _send(entry: Entry, start: datetime, moved: bool) -> int:
    """Queue the notice (1), or nothing if another run has already (0)."""
    try:
        with transaction.atomic():
            notice = StartTimeNotice.objects.create(entry=entry, email=entry.player.email, start=start, moved=moved)
            with translation.override(entry.player.language or settings.LANGUAGE_CODE):
                subject, body = _message(entry, start, moved, private_link(entry.player))
            queue_email(entry.player.email, subject, body, record=notice, about=[entry.tournament])
    except IntegrityError:  # another run sent it meanwhile
        return 0
    return 1


@dataclass(frozen=True)
class NoticeSummary:
    start: datetime | None
    notified: list[StartTimeNotice]
    """The notices of the current official start, by name."""
    waiting: int
    """Active participants with an email not yet told the current start."""
    without_email: int


def notice_summary(tournament: Tournament, user) -> NoticeSummary:
    """What the console shows: who was told the current start (each with the email the user may read,
    `permissions.personal_details`), who is still to be told, who has no email."""
    start = official_start(tournament)
    active = tournament.entries.filter(status__in=ACTIVE_STATUSES)
    notified = list(StartTimeNotice.objects.filter(entry__tournament=tournament, start=start)
                    .select_related("entry__player").annotate(**personal_details(user, tournament, "entry__player__"))
                    .order_by("entry__player__sort_key", "pk")) if start else []
    with_email = active.exclude(player__email="").count()
    return NoticeSummary(start, notified, max(with_email - len(notified), 0), active.count() - with_email)
