"""Who banked at a table (handed out and took back the resource cards), recorded on its sheet (docs/rules.md §5).

Seed 001 §7c: "In all games, with the exception of the Final, the starting player will act as resource
banker … If the starting player is uncomfortable with being the banker, the table should elect another
player to be the single banker for the game … In the Final, the referee will handle the card dealing."
Seed 004 §2.0.4: the same, with "In the Semifinal and Final, a judge will perform all resource handler
duties", and players may ask a judge to handle the cards at any time. Which stages the referee banks is
the ruleset's (`Ruleset.referee_banks`); until the referee records someone, the sheet shows the rule's
banker, and the sign-off records it.
"""
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Entry, Tournament
from championships.permissions import require_official
from engines.rulesets import ruleset_for
from scheduling.models import Game, Seat

from .models import RecordSheet

REFEREE = "referee"
"""The form's and the snapshot's word for the referee as banker."""
FINAL = "final"


@dataclass(frozen=True)
class Banker:
    """The table's banker: a player (`entry_id`) or, with `entry_id` None, the referee."""

    entry_id: int | None
    name: str
    by_rule: bool
    """Not recorded yet: what the rule says."""

    @property
    def referee(self) -> bool:
        return self.entry_id is None

    @property
    def key(self) -> str:
        """The form's value: the entry id, or `REFEREE`."""
        return REFEREE if self.referee else str(self.entry_id)


def referee_banks(game: Game) -> bool:
    """Whether the rules make the referee the banker of this game's tables.

    The ruleset names the stage kinds (001 §7c: the Final; 004 §2.0.4: the semifinals and the final). The
    KSA finals are one game with no separate final stage (001 §3 KSA, "The final will be constituted of one
    game"; docs/rules.md I-6): that game is 001's Final.
    """
    kinds = ruleset_for(game.tournament.ruleset).referee_banks
    if game.stage.kind in kinds:
        return True
    return FINAL in kinds and game.tournament.kind == Tournament.Kind.FINALS and sum(
        game.tournament.stages.values_list("games", flat=True)) == 1


def banker_of(sheet: RecordSheet, seats: list[Seat] | None = None) -> Banker:
    """The recorded banker, else the rule's: the referee where the rules say so, else the starting player."""
    if sheet.referee_banked:
        return Banker(None, "", by_rule=False)
    if sheet.banker_id is not None:
        return Banker(sheet.banker_id, _banker_entry(sheet).player.name, by_rule=False)
    if referee_banks(sheet.table.game):
        return Banker(None, "", by_rule=True)
    seats = seats if seats is not None else list(sheet.table.seats.select_related("entry__player")
                                                 .order_by("position")[:1])
    starter = min(seats, key=lambda seat: seat.position)
    return Banker(starter.entry_id, starter.entry.player.name, by_rule=True)


def banker_json(sheet: RecordSheet) -> dict | str | None:
    """The recorded banker as revisions and audit entries keep it; None while not recorded."""
    if sheet.referee_banked:
        return REFEREE
    if sheet.banker_id is None:
        return None
    return {"entry": sheet.banker_id, "player": _banker_entry(sheet).player.name}


def _banker_entry(sheet: RecordSheet) -> Entry:
    """The entry of the player who banked, for a sheet with `banker_id` set."""
    assert sheet.banker is not None
    return sheet.banker


def _store(sheet: RecordSheet, banker: Banker) -> None:
    sheet.referee_banked = banker.referee
    sheet.banker_id = banker.entry_id


def record_by_rule(sheet: RecordSheet) -> None:
    """At sign-off: a sheet whose banker nobody recorded records the rule's (the caller saves the sheet)."""
    if not sheet.referee_banked and sheet.banker_id is None:
        _store(sheet, banker_of(sheet))


def record_banker(sheet_id: int, entry_id: int | None, *, user, was: str) -> RecordSheet:
    """The referee records who banked: `entry_id` a player of the table, None the referee.

    `was` is the banker the form showed (`Banker.key`): if someone recorded another one meanwhile, the
    change is refused. The same choice sent twice records it once. A signed-off sheet keeps its banker.
    """
    with transaction.atomic():
        sheet = (RecordSheet.objects.select_for_update(of=("self",))
                 .select_related("table__game__tournament", "table__game__stage", "banker__player").get(pk=sheet_id))
        require_official(user, sheet.table.game.tournament)
        if sheet.is_locked:
            raise ValidationError(_("This sheet is signed off: its banker is recorded."))
        seats = list(sheet.table.seats.select_related("entry__player").order_by("position"))
        players = {seat.entry_id: seat.entry.player.name for seat in seats}
        if entry_id is not None and entry_id not in players:
            raise ValidationError({"banker": [_("The banker is the referee or one of the players at this table.")]})
        current = banker_of(sheet, seats)
        wanted = Banker(entry_id, "" if entry_id is None else players[entry_id], by_rule=False)
        if not current.by_rule and current.key == wanted.key:
            return sheet
        if current.key != was:
            raise ValidationError({"banker": [_("The banker was changed meanwhile (now: %(banker)s). Check and "
                                                "choose again.") % {"banker": current.name or _("the referee")}]})
        before = _audited(None if current.by_rule else current)
        _store(sheet, wanted)
        sheet.save(update_fields=["banker", "referee_banked", "updated_at"])
        record_change(user, sheet.table.game.tournament_id, Action.SHEET_BANKER, sheet, before=before,
                      after=_audited(wanted))
    return sheet


def _audited(banker: Banker | None) -> dict:
    if banker is None:
        return {"banker": None}
    return {"banker": REFEREE} if banker.referee else {"banker": banker.name, "entry": banker.entry_id}
