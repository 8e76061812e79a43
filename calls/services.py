"""Calls for a referee: a player places one from their phone, a referee takes it, passes it on or resolves it.

Each change locks the row it changes (the table when placing, since the one open call per table and reason is
what two phones at a table can race for), checks who acts, writes and audits in one transaction. A tap
repeated (a double tap, two players of a table asking for the same thing) returns the call as it is.
"""
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.services import record_change
from championships.models import Player
from championships.permissions import is_organizer, require_official
from core.ratelimit import RateLimit
from results.announcements import post_announcement
from results.models import RecordSheet
from scheduling.clocks import set_timed_turns
from scheduling.models import Game, Seat, Table

from .models import NOTE_MAX, RULING_MAX, Call

CALLS_PER_PLAYER = RateLimit("player-call", 6, 30 * 60)
"""Calls a player may place in half an hour: a table's real needs stay far below, a phone tapped in a loop not."""


def _facts(call: Call, **more) -> dict:
    """What the activity log tells of a call: its table, game and reason, with what the change adds."""
    return {"game": call.table.game.number, "table": call.table.number, "reason": call.reason, **more}


def _locked(call_id: int, user) -> Call:
    call = (Call.objects.select_for_update(of=("self",)).select_related("table__game", "tournament")
            .filter(pk=call_id).first())
    if call is None:
        raise ValidationError(_("This call is no longer there."))
    require_official(user, call.tournament)
    if call.passed_to == Call.PassedTo.ORGANIZER and not is_organizer(user, call.tournament):
        raise PermissionDenied(_("This call was passed to the organizer."))
    return call


def place_call(table_id: int, reason: str, note: str = "", *, player: Player) -> Call:
    """The player calls a referee to the table they sit at, while its game is being played."""
    if reason not in Call.Reason.values:
        raise ValidationError({"reason": [_("Choose why you call a referee.")]})
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise ValidationError({"note": [_("A note has at most %(max)d characters; this one has %(n)d.")
                                        % {"max": NOTE_MAX, "n": len(note)}]})
    with transaction.atomic():
        table = (Table.objects.select_for_update(of=("self",)).select_related("game__tournament")
                 .filter(pk=table_id).first())
        seat = Seat.objects.filter(table=table, entry__player=player).select_related("entry").first()
        if table is None or seat is None:
            raise PermissionDenied(_("You do not sit at this table."))
        if table.game.status != Game.Status.PUBLISHED or RecordSheet.objects.filter(
                table=table, status=RecordSheet.Status.SIGNED_OFF).exists():
            raise ValidationError(_("Game %(n)d is not being played at your table: a referee is called only during "
                                    "play.") % {"n": table.game.number})
        open_call = Call.objects.filter(table=table, reason=reason, resolved_at__isnull=True).first()
        if open_call is not None:
            return open_call
        if wait := CALLS_PER_PLAYER.hit(str(seat.entry_id)):
            minutes = max(1, -(-wait // 60))
            raise ValidationError(ngettext(
                "You have called a referee many times: try again in %(n)d minute, or raise your hand.",
                "You have called a referee many times: try again in %(n)d minutes, or raise your hand.", minutes)
                % {"n": minutes})
        call = Call.objects.create(tournament=table.game.tournament, table=table, reason=reason, note=note,
                                   placed_by=seat.entry)
        record_change(None, call.tournament_id, Action.CALL_PLACED, call, player=player,
                      after=_facts(call, player=player.name, note=note))
    return call


def take_call(call_id: int, *, user) -> Call:
    """The referee says they are going; the other tablets show who. Another referee's call is not taken over."""
    with transaction.atomic():
        call = _locked(call_id, user)
        if not call.is_open or call.taken_by_id == user.pk:
            return call
        if call.taken_by_id is not None:  # read after the lock (a join would be the row before it, in PostgreSQL)
            taker = get_user_model()._default_manager.get(pk=call.taken_by_id)
            raise ValidationError(_("%(user)s is already going to this call.") % {"user": taker.get_username()})
        call.taken_by, call.taken_at = user, timezone.now()
        call.first_taken_at = call.first_taken_at or call.taken_at
        call.save(update_fields=["taken_by", "taken_at", "first_taken_at"])
        record_change(user, call.tournament_id, Action.CALL_TAKEN, call,
                      after=_facts(call, user=user.get_username()))
    return call


def pass_call(call_id: int, to: str, *, user) -> Call:
    """Hand the call to the head referee or the organizer: it waits in the queue again, marked for them."""
    if to not in Call.PassedTo.values:
        raise ValidationError({"to": [_("Choose whom to pass the call to.")]})
    with transaction.atomic():
        call = _locked(call_id, user)
        if not call.is_open or call.passed_to == to:
            return call
        call.passed_to, call.taken_by, call.taken_at = to, None, None
        call.save(update_fields=["passed_to", "taken_by", "taken_at"])
        record_change(user, call.tournament_id, Action.CALL_PASSED, call, after=_facts(call, to=to))
    return call


def resolve_call(call_id: int, ruling: str = "", *, user, announce: bool = False, timed_turns: bool = False) -> Call:
    """Close the call with the referee's ruling; it can be posted as an announcement, or start timed turns at the
    table (each through its own service, in the same transaction: if one refuses, the call stays open)."""
    ruling = " ".join(ruling.split())
    if len(ruling) > RULING_MAX:
        raise ValidationError({"ruling": [_("A ruling has at most %(max)d characters; this one has %(n)d.")
                                          % {"max": RULING_MAX, "n": len(ruling)}]})
    if announce and not ruling:
        raise ValidationError({"ruling": [_("Write the ruling to post it as an announcement.")]})
    with transaction.atomic():
        call = _locked(call_id, user)
        if not call.is_open:
            return call
        call.resolved_at, call.resolved_by, call.ruling = timezone.now(), user, ruling
        if call.taken_by_id is None:
            call.taken_by, call.taken_at = user, call.resolved_at
            call.first_taken_at = call.first_taken_at or call.resolved_at
        call.save(update_fields=["resolved_at", "resolved_by", "ruling", "taken_by", "taken_at", "first_taken_at"])
        record_change(user, call.tournament_id, Action.CALL_RESOLVED, call,
                      after=_facts(call, ruling=ruling, announced=announce, timed_turns=timed_turns))
        if announce:
            post_announcement(call.tournament_id, _("Game %(g)d, table %(t)d: %(ruling)s") % {
                "g": call.table.game.number, "t": call.table.number, "ruling": ruling}, user=user)
        if timed_turns:
            set_timed_turns(call.table_id, True, user=user)
    return call
