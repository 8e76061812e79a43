"""The tournament day's door: check players in, record no-shows and withdrawals, and undo any of them.

"On time" is the one-tap default. Lateness exists only where the ruleset has the rule (`Ruleset.lateness`;
seed 001 §6) and goes through `results.penalties.record_lateness`: the organizer types the minutes and
confirms them (`late_step`, then `check_in`), so at the desk nothing derived from the clock becomes a penalty and
moving the official start changes nothing already decided. A player who checks themselves in with the QR code of
an open check-in window (`self_checkin.self_check_in`) arrives when they do: late by the clock, never "not
admitted" (the desk decides that). Every state the desk sets can be undone by an
organizer with a reason, audited (`undo`). Once anyone is checked in, seating is generated from checked-in
players only (`scheduling.selectors.seatable_entries`). A withdrawal after the seating was generated
re-plans the games not yet published (published and finished games are history and stay as they are);
undoing it plans them again with the player.
"""
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.services import record_change
from championships.models import Entry, Stage, Tournament
from championships.permissions import awaiting_player, require_organizer
from championships.waiting_list import place_freed
from core.changes import announce
from core.names import fold
from ranking.public.names import namesake_numbers
from results.limits import length_errors
from results.models import Penalty
from results.penalties import MAX_MINUTES_LATE, admission_closed, lateness_rule, record_lateness, withdraw_penalty
from results.selectors import games_played, played_seats
from scheduling.models import Game, Seat
from scheduling.selectors import seatable_entries
from scheduling.services import generate_seating

SEARCH_MAX = 100


def _locked(entry_id: int, tournament: Tournament) -> Entry:
    entry = (Entry.objects.select_for_update(of=("self",)).select_related("player", "tournament")
             .filter(pk=entry_id, tournament=tournament).first())
    if entry is None:
        raise ValidationError(_("This player is not entered in %(tournament)s.") % {"tournament": tournament.name})
    return entry


def _reason(reason: str, missing: str) -> str:
    """The reason given, stripped; refused when empty (with `missing`) or too long."""
    reason = reason.strip()
    errors = length_errors(reason=reason)
    if not reason:
        errors["reason"] = [missing]
    if errors:
        raise ValidationError(errors)
    return reason


def games_started(tournament: Tournament) -> bool:
    return Game.objects.filter(tournament=tournament).exclude(status=Game.Status.PLANNED).exists()


@dataclass(frozen=True)
class CheckIn:
    entry: Entry
    not_admitted: bool = False
    penalised: bool = False


def check_in(tournament: Tournament, entry_id: int, *, user, minutes_late: int = 0) -> CheckIn:
    """Check a player in: on time (`minutes_late` 0), or late by the minutes the organizer typed and confirmed.

    Late applies the ruleset's rule (001 §6: up to 15 minutes, 1 VP; later, not admitted) and is refused
    where the rules have none. Checking in twice is the same check-in (a double tap); a withdrawn or
    not-admitted player is refused.
    """
    require_organizer(user, tournament)
    if not 0 <= minutes_late <= MAX_MINUTES_LATE:
        raise ValidationError({"minutes_late": _("Give the minutes late as a number from 0 to %(max)d.")
                               % {"max": MAX_MINUTES_LATE}})
    return admit(tournament, entry_id, minutes_late, user=user)


def admit(tournament: Tournament, entry_id: int, minutes_late: int, *, user, player=None, reason: str = "") -> CheckIn:
    """`check_in` once allowed, by the desk or the player. `player`: they checked themselves in
    (`self_checkin.self_check_in`), the audit's actor; `user` is then the organizer whose check-in window applied the
    late-arrival rule, who records its penalty."""
    with transaction.atomic():
        entry = _locked(entry_id, tournament)
        if entry.status == Entry.Status.CHECKED_IN:
            return CheckIn(entry)
        if entry.status != Entry.Status.REGISTERED:
            raise ValidationError(_("%(player)s is %(status)s and cannot be checked in.")
                                  % {"player": entry.player.name, "status": entry.get_status_display()})
        lateness = None
        if minutes_late:
            lateness = record_lateness(entry.pk, minutes_late, user=user, reason=reason)
            if lateness.not_admitted:
                return CheckIn(lateness.entry, not_admitted=True)
            entry.refresh_from_db(fields=["minutes_late"])
        entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, timezone.now()
        entry.checked_in_by_self = player is not None
        entry.save(update_fields=["status", "checked_in_at", "checked_in_by_self"])
        record_change(None if player is not None else user, tournament.pk, Action.ENTRY_CHECKED_IN, entry,
                      before={"status": Entry.Status.REGISTERED}, player=player,
                      after={"player": entry.player.name, "status": entry.status, "minutes_late": minutes_late,
                             **({"self": True} if player is not None else {})})
        announce(tournament.pk, results=True)
    return CheckIn(entry, penalised=lateness is not None)


@dataclass(frozen=True)
class LateStep:
    """What confirming a late check-in will do, shown before anything is written."""

    minutes: int
    admitted: bool
    vp: int
    admitted_minutes: int


def late_step(tournament: Tournament, entry: Entry, minutes) -> LateStep:
    """The confirmation step of a late check-in: checks the typed minutes and says what the rule will do.

    A read: nothing is written until the organizer confirms (`check_in` with the minutes). Refused where the
    ruleset has no lateness rule, for a player who is not waiting to be checked in, and, when the minutes
    mean "not admitted", for a player who has already played (`admission_closed`).
    """
    rule = lateness_rule(tournament)
    if rule is None:
        raise ValidationError(_("The rules of %(tournament)s have no late-arrival penalty: check the player in.")
                              % {"tournament": tournament.name})
    if entry.status != Entry.Status.REGISTERED:
        raise ValidationError(_("%(player)s is %(status)s and cannot be checked in.")
                              % {"player": entry.player.name, "status": entry.get_status_display()})
    if not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES_LATE:
        raise ValidationError(_("Type the minutes late, a number from 1 to %(max)d.") % {"max": MAX_MINUTES_LATE})
    step = LateStep(minutes, rule.admits(minutes), rule.vp, rule.admitted_minutes)
    if not step.admitted and (closed := admission_closed(entry)):
        raise ValidationError(closed)
    return step


@dataclass
class Undone:
    entry: Entry
    said: list[str] = field(default_factory=list)
    """What was undone, in words."""
    to_do: list[str] = field(default_factory=list)
    """What the organizer must still do by hand, in words."""


UNDO_ACTIONS: dict[str, Action] = {
    Entry.Status.CHECKED_IN: Action.ENTRY_CHECK_IN_UNDONE,
    Entry.Status.NOT_ADMITTED: Action.ENTRY_NOT_ADMITTED_UNDONE,
    Entry.Status.NO_SHOW: Action.ENTRY_NO_SHOW_UNDONE,
    Entry.Status.WITHDRAWN: Action.ENTRY_WITHDRAWAL_UNDONE,
}
"""The desk's states an organizer can undo, and the audit action of each."""


def undo(tournament: Tournament, entry_id: int, *, user, reason: str) -> Undone:
    """Undo what the desk recorded for a player, with a reason, audited; the player is waiting again.

    - Checked in: back to registered. A late check-in's penalty is withdrawn through the penalties
      service (its own audit entry; the VP come back). A player who has played stays checked in: only a
      late arrival's penalty can be withdrawn then, and an on-time check-in is refused.
    - Not admitted, did not come: back to registered, the minutes late cleared.
    - Withdrawn: back to checked in (registered if never checked in), and the games not yet published are
      planned again with the player.
    A player returns only if no game was published without them (they would have missed it; 001 §6 "late
    comers cannot participate"): take such a game back to re-plan first. Undoing an undone row changes nothing.
    """
    require_organizer(user, tournament)
    reason = _reason(reason, _("Give the reason for undoing it."))
    with transaction.atomic():
        entry = _locked(entry_id, tournament)
        status, name = entry.status, entry.player.name
        if status == Entry.Status.REGISTERED:
            return Undone(entry)
        if status not in UNDO_ACTIONS:
            raise ValidationError(_("%(player)s is %(status)s: withdraw the penalty on the penalties page instead.")
                                  % {"player": name, "status": entry.get_status_display()})
        before = {"status": status, "minutes_late": entry.minutes_late}
        done = Undone(entry)
        played = games_played(entry.pk)
        if status == Entry.Status.CHECKED_IN:
            late = Penalty.objects.filter(entry=entry, kind=Penalty.Kind.LATENESS, withdrawn_at__isnull=True).first()
            if played and late is None:
                raise ValidationError(ngettext(
                    "%(player)s has played (game %(games)s): the check-in stands. Withdraw the player instead if "
                    "they leave.", "%(player)s has played (games %(games)s): the check-in stands. Withdraw the "
                    "player instead if they leave.", len(played)) % {"player": name, "games": _numbers(played)})
            if late is not None:
                withdraw_penalty(late.pk, user=user, reason=reason)  # audited there; clears the minutes late
                done.said.append(_("The late arrival of %(player)s is withdrawn: the VP come back.") % {"player": name})
            if played:
                done.said.append(_("%(player)s has played, so stays checked in.") % {"player": name})
                entry.refresh_from_db()
                return done
            entry.refresh_from_db(fields=["minutes_late"])
            entry.status, entry.checked_in_at, entry.checked_in_by_self = Entry.Status.REGISTERED, None, False
            done.said.append(_("Check-in of %(player)s undone.") % {"player": name})
        else:
            _refuse_if_missed(entry)
            if status == Entry.Status.WITHDRAWN:
                entry.status = Entry.Status.CHECKED_IN if entry.checked_in_at else Entry.Status.REGISTERED
                done.said.append(_("Withdrawal of %(player)s undone.") % {"player": name})
            else:
                entry.status, entry.minutes_late = Entry.Status.REGISTERED, 0
                done.said.append(_("%(player)s is registered again: check them in when they are here.")
                                 % {"player": name})
        entry.save(update_fields=["status", "checked_in_at", "checked_in_by_self", "minutes_late"])
        record_change(user, tournament.pk, UNDO_ACTIONS[status], entry, before=before,
                      after={"player": name, "status": entry.status, "minutes_late": entry.minutes_late},
                      reason=reason)
        announce(tournament.pk, results=True)
    if status == Entry.Status.WITHDRAWN:
        _replan_with(done, user)
    else:
        _note_planned_games(done)
    return done


def _numbers(numbers) -> str:
    return ", ".join(str(n) for n in numbers)


def _refuse_if_missed(entry: Entry) -> None:
    """A player who missed a published game cannot come back: that game went on without them."""
    missed = sorted(Game.objects.filter(tournament_id=entry.tournament_id).exclude(status=Game.Status.PLANNED)
                    .exclude(seats__entry=entry).values_list("number", flat=True))
    if missed:
        raise ValidationError(ngettext(
            "Game %(games)s was published without %(player)s, so they cannot come back now. If no result is entered "
            "yet, take that game back to re-plan on the seating page first.",
            "Games %(games)s were published without %(player)s, so they cannot come back now. If no result is "
            "entered yet, take those games back to re-plan on the seating page first.",
            len(missed)) % {"games": _numbers(missed), "player": entry.player.name})


def _note_planned_games(done: Undone) -> None:
    """After an undo the seating of games not yet published may no longer match: say which, and what to do."""
    entry = done.entry
    planned = Game.objects.filter(tournament_id=entry.tournament_id, status=Game.Status.PLANNED)
    seated = sorted(planned.filter(seats__entry=entry).values_list("number", flat=True))
    if seated:
        done.to_do.append(ngettext(
            "%(player)s still has a seat in game %(games)s (not yet published): withdraw them or generate the "
            "seating again if they do not come.", "%(player)s still has a seat in games %(games)s (not yet "
            "published): withdraw them or generate the seating again if they do not come.",
            len(seated)) % {"player": entry.player.name, "games": _numbers(seated)})
    elif numbers := sorted(planned.values_list("number", flat=True)):
        done.to_do.append(ngettext(
            "Game %(games)s is planned without %(player)s: once they are checked in, generate the seating again.",
            "Games %(games)s are planned without %(player)s: once they are checked in, generate the seating again.",
            len(numbers)) % {"player": entry.player.name, "games": _numbers(numbers)})


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
        record_change(user, tournament.pk, Action.ENTRY_NO_SHOW, entry, before={"status": Entry.Status.REGISTERED},
                      after={"player": entry.player.name, "status": entry.status})
    Entry.objects.bulk_update(entries, ["status"])
    if entries:
        announce(tournament.pk, results=True)
        place_freed(tournament.pk, user=user)  # a player waiting for a place may be at the door
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
    reason = _reason(reason, _("Give the reason for the withdrawal."))
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
        record_change(user, tournament.pk, Action.ENTRY_WITHDRAWN, entry, before=before,
                      after={"player": entry.player.name, "status": entry.status}, reason=reason)
        announce(tournament.pk, results=True)
        place_freed(tournament.pk, user=user)  # before the first game is published, it goes to the waiting list
    return _replan(Withdrawal(entry), user)


def _replan_with(done: Undone, user) -> None:
    """The player is back: plan the games not yet published again, now with them (seeded ones are the organizer's)."""
    entry = done.entry
    planned = Game.objects.filter(tournament_id=entry.tournament_id, status=Game.Status.PLANNED)
    if not planned.exists():
        return
    if not seatable_entries(entry.tournament_id).filter(pk=entry.pk).exists():
        _note_planned_games(done)
        return
    stages: dict[int, tuple[Stage, list[int]]] = {}
    for game in planned.select_related("stage").order_by("number"):
        stages.setdefault(game.stage_id, (game.stage, []))[1].append(game.number)
    for stage, numbers in stages.values():
        values = {"stage": stage.name, "games": _numbers(numbers), "player": entry.player.name}
        if stage.seating != Stage.Seating.SCHEDULED:
            done.to_do.append(_("%(stage)s, games %(games)s are seated without %(player)s: seat them again from the "
                                "qualification page.") % values)
            continue
        try:
            generate_seating(stage.pk, user=user)
        except ValidationError as error:
            why = " ".join(error.messages)
            done.to_do.append(_("%(stage)s, games %(games)s could not be planned again with %(player)s: %(why)s "
                                "Generate them again on the seating page.") % {**values, "why": why})
        else:
            done.said.append(_("%(stage)s: games %(games)s planned again with %(player)s.") % values)


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


def with_namesakes(tournament: Tournament, rows) -> list[Entry]:
    """The rows, each with `namesake`: its number among the tournament's namesakes as every public list shows it
    ("Ann Lee (2)", `championships.namesakes`), None for a name no one else has; the desk tells the player."""
    numbers = namesake_numbers(tournament)
    rows = list(rows)
    for row in rows:
        row.namesake = numbers.get(row.pk)
    return rows


def entries(tournament: Tournament, query: str = "", status: str = ""):
    """The tournament's entries for the check-in list, filtered by name (as every search compares names,
    `core.names.fold`: "tomas" finds "Tomás", "علي" finds "علی") or email and by status, by name; `played` says
    whether the player has played (a check-in is then history, `undo`)."""
    rows = (Entry.objects.filter(tournament=tournament).select_related("player__country")
            .order_by("player__sort_key", "pk")
            .annotate(played=Exists(played_seats().filter(entry=OuterRef("pk"))), awaiting=awaiting_player()))
    query = query.strip()[:100]
    if query:  # an entry awaiting its player discloses nothing of the record, not even to a search
        rows = rows.filter(Q(player__search_name__contains=fold(query))
                           | Q(player__email__icontains=query, awaiting=False))
    if status in Entry.Status.values:
        rows = rows.filter(status=status)
    return rows
