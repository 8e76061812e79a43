"""The record-sheet flow of docs/rules.md §3: enter, sign, sign off (lock), correct with a reason.

Every write locks the sheet row (`select_for_update`) inside one transaction, checks the
caller's role, and refuses stale or locked writes, so two referees or a double tap never give
two results or a lost update. Repeating a write that already happened returns the sheet as it
is (saving is idempotent). Each change leaves a revision and an audit entry.
"""
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from typing import cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Entry, Tournament
from championships.permissions import require_official, require_organizer
from championships.setup import advance_status
from core.changes import announce
from engines.ranking.engine import SeatResult, TableResult
from engines.ranking.problems import render
from engines.ranking.timing import game_minutes
from engines.ranking.validation import WINNING_VP, check_table, valid_vp, winner_flags
from engines.rulesets import ruleset_for
from scheduling import services as scheduling
from scheduling.models import Game, Table
from webhooks import events as webhook_events

from .banker import banker_json, record_by_rule
from .limits import OBJECTION_MAX, SIGNATURE_IMAGE_MAX, length_errors
from .models import Objection, RecordSheet, Score, SheetRevision, Signature
from .signals import sheet_correcting


@dataclass(frozen=True)
class SheetInput:
    """What the referee typed: VP by entry id (None when left empty), the winner's entry id, times.

    Keyed by entry, not seat, so a form stays valid when a seeded table's play order is recorded.
    """

    vps: Mapping[int, int | None]
    winner: int | None = None
    start_time: time | None = None
    end_time: time | None = None


class SheetLocked(Exception):
    """The sheet is signed off; only an organizer's correction can change it."""


class StaleSheet(Exception):
    """Someone changed the sheet after the caller loaded it; the caller must look again."""

    def __init__(self, sheet: RecordSheet):
        self.sheet = sheet
        super().__init__(_("This sheet was changed meanwhile (now version %(v)d).") % {"v": sheet.version})


MAX_GAME_MINUTES = 6 * 60
SIGNATURE_ACTIONS: dict[str, Action] = {
    Signature.Method.DRAWN: Action.SHEET_SIGNATURE_DRAWN, Signature.Method.TAP: Action.SHEET_SIGNATURE_TAP,
    Signature.Method.OVERRULED: Action.SHEET_SIGNATURE_OVERRULED,
}
"""The change recorded for each way of signing."""


def _locked_sheet(sheet_id: int) -> RecordSheet:
    """The sheet, locked for this transaction; only sheets of published games can be written."""
    sheet = (RecordSheet.objects.select_for_update(of=("self",)).select_related("table__game__tournament")
             .get(pk=sheet_id))
    if sheet.table.game.status == Game.Status.PLANNED:
        raise ValidationError(_("Game %(n)d is not published yet: its tables have no record sheets.")
                              % {"n": sheet.table.game.number})
    return sheet


def _scores(sheet: RecordSheet) -> list[Score]:
    return list(sheet.scores.select_related("seat__entry__player").order_by("seat__position"))


def snapshot(sheet: RecordSheet, scores: list[Score] | None = None) -> dict:
    """The sheet's content as plain JSON, for revisions and audit entries."""
    return {
        "scores": [
            {"seat": s.seat_id, "position": s.seat.position, "entry": s.seat.entry_id,
             "player": s.seat.entry.player.name, "vp": s.vp, "winner": s.winner}
            for s in (scores if scores is not None else _scores(sheet))
        ],
        "start_time": sheet.start_time.strftime("%H:%M") if sheet.start_time else None,
        "end_time": sheet.end_time.strftime("%H:%M") if sheet.end_time else None,
        "banker": banker_json(sheet),
    }


def _validated(sheet: RecordSheet, scores: list[Score], data: SheetInput) -> int:
    """Check the input as the `rank` command would; return the winner's seat id or raise per field."""
    keys = [s.seat.entry_id for s in scores]
    errors: dict[str, list[str]] = {}
    if data.winner is not None and data.winner not in keys:
        errors["winner"] = [_("The winner must be one of the players at this table.")]
    high = [s.seat.entry.player.name for s in scores
            if valid_vp(vp := data.vps.get(s.seat.entry_id)) and vp >= WINNING_VP]
    if data.winner is None and len(high) > 1:
        errors["winner"] = [_("%(names)s each have 10 or more VP: choose the winner.")
                            % {"names": " & ".join(high)}]
        raise ValidationError(errors)
    seats = [
        (s.seat.entry.player.name, data.vps.get(s.seat.entry_id),
         None if data.winner is None else s.seat.entry_id == data.winner)
        for s in scores
    ]
    ruleset = ruleset_for(sheet.table.game.tournament.ruleset)
    minutes = game_minutes(data.start_time, data.end_time)
    for problem in check_table(seats, minutes=minutes, ruleset=ruleset):
        key = (f"vp_{keys[problem.seat]}" if problem.field == "vp" and problem.seat is not None
               else {"winner": "winner", "minutes": "end_time"}.get(problem.field, "__all__"))
        errors.setdefault(key, []).append(render(problem, _))
    if data.start_time is not None and data.start_time == data.end_time:
        errors.setdefault("end_time", []).append(_("The end time is the same as the start time."))
    elif minutes is not None and minutes > MAX_GAME_MINUTES:
        assert data.start_time is not None and data.end_time is not None  # a duration needs both times
        errors.setdefault("end_time", []).append(
            _("From %(start)s to %(end)s is a game of more than 6 hours: check the start and end times.")
            % {"start": data.start_time.strftime("%H:%M"), "end": data.end_time.strftime("%H:%M")})
    if errors:
        raise ValidationError(errors)
    winner = _winner_seat(scores, data)
    assert winner is not None  # check_table found no problem: exactly one seat won
    return winner


def _winner_seat(scores: list[Score], data: SheetInput) -> int | None:
    """The seat marked as winner or, with none marked, the single one with 10 or more VP."""
    if data.winner is not None:
        return data.winner
    try:
        flags = winner_flags([(s.seat.entry_id, data.vps.get(s.seat.entry_id), None) for s in scores])
    except ValueError:
        return None
    return next((s.seat.entry_id for s, won in zip(scores, flags) if won), None)


def _write_scores(sheet: RecordSheet, scores: list[Score], data: SheetInput, winner: int) -> None:
    Score.objects.filter(sheet=sheet, winner=True).exclude(seat__entry_id=winner).update(winner=False)
    for score in scores:
        score.vp, score.winner = data.vps[score.seat.entry_id], score.seat.entry_id == winner
    Score.objects.bulk_update(scores, ["vp", "winner"])
    sheet.start_time, sheet.end_time = data.start_time, data.end_time


def _same_content(sheet: RecordSheet, scores: list[Score], data: SheetInput, winner: int | None) -> bool:
    return (all(s.vp == data.vps.get(s.seat.entry_id) and s.winner == (s.seat.entry_id == winner) for s in scores)
            and sheet.start_time == data.start_time and sheet.end_time == data.end_time)


def _new_revision(sheet: RecordSheet, kind: str, user, data: dict, reason: str = "") -> None:
    sheet.version += 1
    SheetRevision.objects.create(sheet=sheet, number=sheet.version, kind=kind, data=data, reason=reason,
                                 created_by=user)


def save_entry(sheet_id: int, data: SheetInput, *, user, base_version: int) -> RecordSheet:
    """Enter (or re-enter, before sign-off) the scores; players then sign this version."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        tournament = sheet.table.game.tournament
        require_official(user, tournament)
        if sheet.is_locked:
            raise SheetLocked(_("This sheet is signed off and locked."))
        scores = _scores(sheet)
        if sheet.version and _same_content(sheet, scores, data, _winner_seat(scores, data)):
            return sheet
        if sheet.version != base_version:
            raise StaleSheet(sheet)
        if sheet.status == RecordSheet.Status.SIGNED:
            raise SheetLocked(_("Every player has signed: the result can no longer be changed (RULES §3)."))
        winner = _validated(sheet, scores, data)
        before = snapshot(sheet, scores) if sheet.version else None
        signatures = list(sheet.signatures.values_list("entry__player__name", flat=True))
        _write_scores(sheet, scores, data, winner)
        after = snapshot(sheet, scores)
        sheet.signatures.all().delete()
        _new_revision(sheet, SheetRevision.Kind.ENTERED, user, after)
        sheet.status = RecordSheet.Status.SIGNING
        sheet.save()
        record_change(user, tournament.pk, Action.SHEET_ENTERED, sheet, before=before,
              after={**after, "signatures_cleared": signatures})
    return sheet


def sign(sheet_id: int, entry_id: int, *, user, method: str, version: int, image: str = "",
         decision: str = "") -> RecordSheet:
    """A player's signature (drawn or tapped) on the version they saw, or the referee overruling a refusal."""
    if method not in SIGNATURE_ACTIONS:
        raise ValidationError({"method": _("Unknown way of signing.")})
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        tournament = sheet.table.game.tournament
        require_official(user, tournament)
        if sheet.signatures.filter(entry_id=entry_id, sheet_version=version).exists():
            return sheet
        if sheet.is_locked:
            raise SheetLocked(_("This sheet is signed off and locked."))
        if sheet.status not in (RecordSheet.Status.SIGNING, RecordSheet.Status.SIGNED):
            raise ValidationError(_("Enter the scores before collecting signatures."))
        if sheet.version != version:
            raise StaleSheet(sheet)
        seated = set(sheet.table.seats.values_list("entry_id", flat=True))
        if entry_id not in seated:
            raise ValidationError(_("Only players seated at this table sign its sheet."))
        if method == Signature.Method.OVERRULED and not decision.strip():
            raise ValidationError({"decision": _("Write down the decision that overrules the refusal.")})
        if method == Signature.Method.DRAWN and not image.strip():
            raise ValidationError({"image": _("Draw the signature, or confirm by tapping.")})
        if too_long := {**length_errors(decision=decision.strip()), **length_errors(SIGNATURE_IMAGE_MAX, image=image)}:
            raise ValidationError(too_long)
        signature = Signature.objects.create(
            sheet=sheet, entry_id=entry_id, method=method, image=image, decision=decision.strip(),
            recorded_by=user, signed_at=timezone.now(), sheet_version=version,
        )
        if seated <= set(sheet.signatures.values_list("entry_id", flat=True)):
            sheet.status = RecordSheet.Status.SIGNED
            sheet.save(update_fields=["status", "updated_at"])
        record_change(user, tournament.pk, SIGNATURE_ACTIONS[method], sheet,
              after={"entry": entry_id, "player": Entry.objects.select_related("player").get(pk=entry_id).player.name,
                     "version": version, "decision": signature.decision})
    return sheet


def _players_seat(sheet: RecordSheet, player) -> int:
    """The entry of the player at the sheet's table; anyone else is refused."""
    entry_id = sheet.table.seats.filter(entry__player=player).values_list("entry_id", flat=True).first()
    if entry_id is None:
        raise PermissionDenied("Only a player seated at this table may answer for its result.")
    return entry_id


def _open_for_players(sheet: RecordSheet, version: int) -> None:
    if sheet.is_locked:
        raise SheetLocked(_("The referee has signed this result off: only a correction by an organizer can change "
                            "it now. Ask the referee."))
    if sheet.status not in (RecordSheet.Status.SIGNING, RecordSheet.Status.SIGNED):
        raise ValidationError(_("No result is entered for this table yet."))
    if sheet.version != version:
        raise StaleSheet(sheet)


def confirm_on_phone(sheet_id: int, *, player, version: int) -> RecordSheet:
    """A player confirms their table's entered result from their own phone (their private link): their signature,
    method "phone", with the time, on the version they saw. The referee's sign-off stays the control; a player
    who signed already (here or on the tablet) changes nothing."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        tournament = sheet.table.game.tournament
        entry_id = _players_seat(sheet, player)
        if sheet.signatures.filter(entry_id=entry_id).exists():
            return sheet
        _open_for_players(sheet, version)
        Signature.objects.create(sheet=sheet, entry_id=entry_id, method=Signature.Method.PHONE, recorded_by=None,
                                 signed_at=timezone.now(), sheet_version=version)
        seated = set(sheet.table.seats.values_list("entry_id", flat=True))
        if seated <= set(sheet.signatures.values_list("entry_id", flat=True)):
            sheet.status = RecordSheet.Status.SIGNED
            sheet.save(update_fields=["status", "updated_at"])
        record_change(None, tournament.pk, Action.SHEET_SIGNATURE_PHONE, sheet, player=player,
                      after={"entry": entry_id, "player": player.name, "version": version})
    return sheet


def object_on_phone(sheet_id: int, *, player, version: int, note: str = "") -> Objection:
    """A player says, from their phone, that the entered result of their table is wrong (with what, optionally):
    the referee sees it on the tablet and decides. Refused once they or everyone signed (RULES §3: no protest
    after every signature) or after the sign-off; saying it twice keeps the first."""
    note = note.strip()
    if too_long := length_errors(OBJECTION_MAX, note=note):
        raise ValidationError(too_long)
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        tournament = sheet.table.game.tournament
        entry_id = _players_seat(sheet, player)
        said = Objection.objects.filter(sheet=sheet, entry_id=entry_id, sheet_version=version).first()
        if said is not None:
            return said
        _open_for_players(sheet, version)
        if sheet.status == RecordSheet.Status.SIGNED:
            raise SheetLocked(_("Every player has signed: the result can no longer be changed (RULES §3)."))
        if sheet.signatures.filter(entry_id=entry_id).exists():
            raise ValidationError(_("You have confirmed this result: tell the referee at once if it is wrong."))
        objection = Objection.objects.create(sheet=sheet, entry_id=entry_id, sheet_version=version, note=note)
        record_change(None, tournament.pk, Action.SHEET_OBJECTION, sheet, player=player,
                      after={"entry": entry_id, "player": player.name, "version": version, "note": note})
    return objection


def sign_off(sheet_id: int, *, user, version: int) -> RecordSheet:
    """The referee's sign-off: the result is locked and counts in the standings from now on."""
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        tournament = sheet.table.game.tournament
        require_official(user, tournament)
        if sheet.is_locked:
            return sheet
        if sheet.version != version:
            raise StaleSheet(sheet)
        if sheet.status != RecordSheet.Status.SIGNED:
            raise ValidationError(_("Every player must sign (or a refusal be overruled) before sign-off."))
        scores = _scores(sheet)
        _validated(sheet, scores, SheetInput({s.seat.entry_id: s.vp for s in scores},
                                             next((s.seat.entry_id for s in scores if s.winner), None),
                                             sheet.start_time, sheet.end_time))
        sheet.status = RecordSheet.Status.SIGNED_OFF
        sheet.signed_off_by, sheet.signed_off_at = user, timezone.now()
        record_by_rule(sheet)
        data = snapshot(sheet)
        _new_revision(sheet, SheetRevision.Kind.SIGNED_OFF, user, data)
        sheet.save()
        record_change(user, tournament.pk, Action.SHEET_SIGNED_OFF, sheet, after=data)
        # Lock order: the sheet, then its game. Every sign-off of the game takes the game's lock before
        # deciding whether it was the last, so two last tables signed off at once cannot both see the
        # other still open (each check runs after the other has committed).
        game = Game.objects.select_for_update(of=("self",)).get(pk=sheet.table.game_id)
        if game.status == Game.Status.PUBLISHED and game_is_complete(game.pk):
            scheduling.mark_finished(game)
            if tournament_is_complete(tournament):
                advance_status(tournament.pk, Tournament.Status.FINISHED, user=user,
                               why=_("The last table of game %(n)d, the last game, was signed off.")
                               % {"n": game.number})
        announce(tournament.pk, results=True)
        webhook_events.sheet_signed_off(tournament, game.number, sheet.table.number)
    return sheet


def game_is_complete(game_id: int) -> bool:
    """Whether every table of the game has a signed-off sheet (a game of no tables is not complete)."""
    tables = Table.objects.filter(game_id=game_id)
    return tables.exists() and not tables.exclude(sheet__status=RecordSheet.Status.SIGNED_OFF).exists()


def tournament_is_complete(tournament) -> bool:
    """Whether every game the tournament's stages plan exists and is finished."""
    planned = sum(tournament.stages.values_list("games", flat=True))
    games = Game.objects.filter(tournament=tournament)
    return planned > 0 and games.filter(status=Game.Status.FINISHED).count() >= planned and not games.exclude(
        status=Game.Status.FINISHED).exists()


def correct(sheet_id: int, data: SheetInput, *, user, reason: str, base_version: int) -> RecordSheet:
    """An organizer's transcription correction of a locked sheet: a new version, the old one kept.

    Refused (by `sheet_correcting`'s receiver) when it would change what was already decided from the results:
    who was sent to the finals, who sits where in a stage seated by rank (`ranking.corrections`).
    """
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        tournament = sheet.table.game.tournament
        require_organizer(user, tournament)
        if not sheet.is_locked:
            raise ValidationError(_("Only a signed-off sheet is corrected; edit this one directly."))
        scores = _scores(sheet)
        if _same_content(sheet, scores, data, _winner_seat(scores, data)):
            if sheet.version != base_version:
                return sheet
            raise ValidationError(_("Nothing was changed: the correction is the same as the sheet."))
        if sheet.version != base_version:
            raise StaleSheet(sheet)
        if not reason.strip():
            raise ValidationError({"reason": _("Give the reason for the correction.")})
        if too_long := length_errors(reason=reason.strip()):
            raise ValidationError(too_long)
        winner = _validated(sheet, scores, data)
        sheet_correcting.send(sender=RecordSheet, sheet=sheet, table=_corrected_table(sheet, scores, data, winner))
        before = snapshot(sheet, scores)
        _write_scores(sheet, scores, data, winner)
        after = snapshot(sheet, scores)
        _new_revision(sheet, SheetRevision.Kind.CORRECTED, user, after, reason.strip())
        sheet.save()
        record_change(user, tournament.pk, Action.SHEET_CORRECTED, sheet, before=before, after=after,
                      reason=reason.strip())
        announce(tournament.pk, results=True)
    return sheet


def _corrected_table(sheet: RecordSheet, scores: list[Score], data: SheetInput, winner: int) -> TableResult:
    """The corrected result as the ranking engine reads a signed-off table (seats in play order, by entry)."""
    seats = tuple(SeatResult(s.seat.entry_id, cast(int, data.vps[s.seat.entry_id]), s.seat.entry_id == winner)
                  for s in scores)
    return TableResult(sheet.table.game.number, sheet.table.number, seats,
                       game_minutes(data.start_time, data.end_time))
