"""What the referees' tablets report as waiting on them (issue 28): results typed without a network, not yet sent.

A tablet reports, whenever it is online, the tables of a tournament whose actions still wait in its queue (an empty
list once everything is sent); the organizer's list of missing results marks those tables, with the time of the
report, so nobody chases a result that is only on a tablet. A report replaces the same user's previous one.
"""
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from championships.models import Tournament
from championships.permissions import require_official
from scheduling.models import Game, Table

from .models import TabletReport

MAX_TABLES = 500
"""More tables than any tournament's game has: a longer report is refused, not stored."""


def report_waiting(tournament: Tournament, user, table_ids: list[int]) -> TabletReport:
    """Record which tables of the tournament have actions waiting on this user's tablet (none: an empty list)."""
    require_official(user, tournament)
    if len(table_ids) > MAX_TABLES:
        raise ValidationError(_("Too many tables in one report."))
    tables = set(Table.objects.filter(pk__in=table_ids, game__tournament=tournament)
                 .exclude(game__status=Game.Status.PLANNED).values_list("pk", flat=True))
    if tables != set(table_ids):
        raise ValidationError(_("Only tables of this tournament's published games can wait on a tablet."))
    report, _created = TabletReport.objects.update_or_create(
        tournament=tournament, user=user, defaults={"tables": sorted(tables), "reported_at": timezone.now()})
    return report


@dataclass(frozen=True)
class Waiting:
    """A table whose result waits on a tablet: who reported it, and when."""

    usernames: list[str]
    reported_at: datetime


def waiting_on_tablets(tournament: Tournament, *, besides=None) -> dict[int, Waiting]:
    """By table id, the tablets that last reported actions waiting for it (besides the given user's own)."""
    found: dict[int, Waiting] = {}
    reports = TabletReport.objects.filter(tournament=tournament).select_related("user").order_by("reported_at")
    for report in reports.exclude(user=besides) if besides is not None else reports:
        for table_id in report.tables:
            earlier = found.get(table_id)
            found[table_id] = Waiting([*(earlier.usernames if earlier else []), report.user.get_username()],
                                      report.reported_at)
    return found
