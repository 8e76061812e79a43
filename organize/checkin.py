"""The tournament day's door: check players in, apply the lateness rule, record no-shows and withdrawals.

Lateness follows seed 001 §6 through `results.penalties.record_lateness` (up to 15 minutes: 1 VP;
later: not admitted). Once anyone is checked in, seating is generated from checked-in players only
(`scheduling.selectors.seatable_entries`). A withdrawal after the seating was generated re-plans the
games not yet published (published and finished games are history and stay as they are).
"""
from dataclasses import dataclass, field
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import record_change
from championships.models import Entry, Stage, Tournament
from championships.permissions import require_organizer
from results.limits import length_errors
from results.penalties import MAX_MINUTES_LATE, record_lateness
from results.signals import announce_after_commit
from scheduling.models import Game, Seat
from scheduling.services import generate_seating

from .notices import official_start

SEARCH_MAX = 100


def _locked(entry_id: int, tournament: Tournament) -> Entry:
    entry = (Entry.objects.select_for_update(of=("self",)).select_related("player", "tournament")
             .filter(pk=entry_id, tournament=tournament).first())
    if entry is None:
        raise ValidationError(_("This player is not entered in %(tournament)s.") % {"tournament": tournament.name})
    return entry


def games_started(tournament: Tournament) -> bool:
    return Game.objects.filter(tournament=tournament).exclude(status=Game.Status.PLANNED).exists()


@dataclass(frozen=True)
class CheckIn:
    entry: Entry
    not_admitted: bool = False
    penalised: bool = False


def check_in(tournament: Tournament, entry_id: int, *, user, minutes_late: int = 0) -> CheckIn:
    """Check a player in; late ones get the rule's penalty, or are not admitted after 15 minutes.

    Checking in twice is the same check-in (a double tap); a withdrawn or not-admitted player is refused.
    """
    require_organizer(user, tournament)
    if not 0 <= minutes_late <= MAX_MINUTES_LATE:
        raise ValidationError({"minutes_late": _("Give the minutes late as a number from 0 to %(max)d.")
                               % {"max": MAX_MINUTES_LATE}})
    with transaction.atomic():
        entry = _locked(entry_id, tournament)
        if entry.status == Entry.Status.CHECKED_IN:
            return CheckIn(entry)
        if entry.status != Entry.Status.REGISTERED:
            raise ValidationError(_("%(player)s is %(status)s and cannot be checked in.")
                                  % {"player": entry.player.name, "status": entry.get_status_display()})
        lateness = None
        if minutes_late:
            lateness = record_lateness(entry.pk, minutes_late, user=user)
            if lateness.not_admitted:
                return CheckIn(lateness.entry, not_admitted=True)
            entry.refresh_from_db(fields=["minutes_late"])
        entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, timezone.now()
        entry.save(update_fields=["status", "checked_in_at"])
        record_change(user, tournament.pk, "entry.checked_in", entry, before={"status": Entry.Status.REGISTERED},
                      after={"player": entry.player.name, "status": entry.status, "minutes_late": minutes_late})
        announce_after_commit(tournament.pk)
    return CheckIn(entry, penalised=lateness is not None)


@transaction.atomic
def undo_check_in(tournament: Tournament, entry_id: int, *, user) -> Entry:
    """A check-in tapped by mistake, before any game is published; a late arrival's penalty is not undone here."""
    require_organizer(user, tournament)
    entry = _locked(entry_id, tournament)
    if entry.status != Entry.Status.CHECKED_IN:
        return entry
    if entry.minutes_late:
        raise ValidationError(_("%(player)s arrived late and was penalised: withdraw the penalty on the penalties "
                                "page instead.") % {"player": entry.player.name})
    if games_started(tournament):
        raise ValidationError(_("The first game is published: check-in can no longer be undone."))
    entry.status, entry.checked_in_at = Entry.Status.REGISTERED, None
    entry.save(update_fields=["status", "checked_in_at"])
    record_change(user, tournament.pk, "entry.check_in_undone", entry, before={"status": Entry.Status.CHECKED_IN},
                  after={"player": entry.player.name, "status": entry.status})
    return entry


@transaction.atomic
def mark_no_show(tournament: Tournament, entry_ids: list[int], *, user) -> int:
    """Registered players who did not come, before the first game is published; returns how many were marked."""
    require_organizer(user, tournament)
    if games_started(tournament):
        raise ValidationError(_("The first game is published: a player who has not come now withdraws instead."))
    entries = list(Entry.objects.select_for_update(of=("self",)).select_related("player")
                   .filter(tournament=tournament, pk__in=entry_ids, status=Entry.Status.REGISTERED).order_by("pk"))
    for entry in entries:
        entry.status = Entry.Status.NO_SHOW
        record_change(user, tournament.pk, "entry.no_show", entry, before={"status": Entry.Status.REGISTERED},
                      after={"player": entry.player.name, "status": entry.status})
    Entry.objects.bulk_update(entries, ["status"])
    if entries:
        announce_after_commit(tournament.pk)
    return len(entries)


@dataclass
class Withdrawal:
    entry: Entry
    replanned: list[str] = field(default_factory=list)
    """What was re-planned, in words ("Qualifier: games 2, 3")."""
    to_do: list[str] = field(default_factory=list)
    """What the organizer must still do by hand, in words."""


def withdraw(tournament: Tournament, entry_id: int, *, user, reason: str) -> Withdrawal:
    """A player leaves; the games not yet published that seat them are planned again without them.

    Re-planning runs after the withdrawal is saved (it may take a second or two); when it cannot be
    done (a seeded stage, too few players, another planning under way), the result says what to do.
    """
    require_organizer(user, tournament)
    reason = reason.strip()
    errors = length_errors(reason=reason)
    if not reason:
        errors["reason"] = [_("Give the reason for the withdrawal.")]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        entry = _locked(entry_id, tournament)
        if entry.status == Entry.Status.WITHDRAWN:
            return Withdrawal(entry)
        if entry.status not in (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN):
            raise ValidationError(_("%(player)s is %(status)s and cannot withdraw.")
                                  % {"player": entry.player.name, "status": entry.get_status_display()})
        before = {"status": entry.status}
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
        record_change(user, tournament.pk, "entry.withdrawn", entry, before=before,
                      after={"player": entry.player.name, "status": entry.status}, reason=reason)
        announce_after_commit(tournament.pk)
    return _replan(Withdrawal(entry), user)


def _replan(withdrawal: Withdrawal, user) -> Withdrawal:
    seats = (Seat.objects.filter(entry=withdrawal.entry, game__status=Game.Status.PLANNED)
             .select_related("game__stage").order_by("game__number"))
    stages: dict[int, tuple[Stage, list[int]]] = {}
    for seat in seats:
        stages.setdefault(seat.game.stage_id, (seat.game.stage, []))[1].append(seat.game.number)
    for stage, numbers in stages.values():
        games = ", ".join(str(n) for n in numbers)
        if stage.seating != Stage.Seating.SCHEDULED:
            withdrawal.to_do.append(_("%(stage)s, game %(games)s still seats %(player)s: seat it again from the "
                                      "qualification page.") % {"stage": stage.name, "games": games,
                                                                 "player": withdrawal.entry.player.name})
            continue
        try:
            generate_seating(stage.pk, user=user)
        except ValidationError as error:
            withdrawal.to_do.append(_("%(stage)s, games %(games)s still seat %(player)s and could not be planned "
                                      "again: %(why)s Generate them again on the seating page.")
                                    % {"stage": stage.name, "games": games, "player": withdrawal.entry.player.name,
                                       "why": " ".join(error.messages)})
        else:
            withdrawal.replanned.append(_("%(stage)s: games %(games)s planned again without %(player)s.")
                                        % {"stage": stage.name, "games": games,
                                           "player": withdrawal.entry.player.name})
    return withdrawal


@dataclass(frozen=True)
class CheckInCounts:
    registered: int
    checked_in: int
    late: int
    not_admitted: int
    withdrawn: int
    no_show: int

    @property
    def waiting(self) -> int:
        return self.registered - self.checked_in - self.not_admitted - self.withdrawn - self.no_show


def counts(tournament: Tournament) -> CheckInCounts:
    """One query: everyone entered, and how many are in, late, refused, gone."""
    status = Entry.Status
    data = Entry.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk", filter=~Q(status=status.DISQUALIFIED)),
        checked_in=Count("pk", filter=Q(status=status.CHECKED_IN)),
        late=Count("pk", filter=Q(status=status.CHECKED_IN, minutes_late__gt=0)),
        not_admitted=Count("pk", filter=Q(status=status.NOT_ADMITTED)),
        withdrawn=Count("pk", filter=Q(status=status.WITHDRAWN)),
        no_show=Count("pk", filter=Q(status=status.NO_SHOW)),
    )
    return CheckInCounts(**data)


def entries(tournament: Tournament, query: str = "", status: str = ""):
    """The tournament's entries for the check-in list, filtered by name or email and status, by name."""
    rows = Entry.objects.filter(tournament=tournament).select_related("player__country").order_by("player__name")
    query = query.strip()[:100]
    if query:
        rows = rows.filter(Q(player__name__icontains=query) | Q(player__email__icontains=query))
    if status in Entry.Status.values:
        rows = rows.filter(status=status)
    return rows


def suggested_minutes_late(tournament: Tournament, now: datetime | None = None) -> int:
    """Minutes since the official start, on the tournament's day (0 before it, or without a start time)."""
    start = official_start(tournament)
    now = timezone.localtime(now or timezone.now())
    if start is None or now.date() != tournament.date:
        return 0
    return max(0, min(MAX_MINUTES_LATE, int((now - start).total_seconds() // 60)))
