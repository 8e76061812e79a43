"""Until when a disqualification is possible, by ground, under the tournament's ruleset (docs/rules.md I-40).

National (001 §6): during a game or right after it, for either ground, until the referee signs the table's sheet
off. World and Lord of Catan (004 §1.2.4): for breaking the game's rules until every player of the table has
signed the sheet; for a breach of the code of conduct at any time.
"""
from django.utils.translation import gettext as _

from championships.models import Entry
from engines.rulesets import ANY_TIME, UNTIL_SIGNED, ruleset_for
from scheduling.models import Game, Seat

from .models import RecordSheet

SIGNED_BY_ALL = (RecordSheet.Status.SIGNED, RecordSheet.Status.SIGNED_OFF)


def disqualification_help(ruleset: str) -> str:
    """Until when the tournament's ruleset allows a disqualification, as the penalty form says it."""
    rules = ruleset_for(ruleset)
    if rules.disqualification_window("rules") == rules.disqualification_window("conduct") != ANY_TIME:
        return _("Either ground: during the game or right after it, until the referee signs the table's sheet off.")
    return _("Breaking the game's rules: only during the game or after it until every player of the table has "
             "signed the sheet. Code of conduct: at any time.")


def check_disqualification_timing(entry: Entry, game: Game | None, ground: str, errors: dict) -> None:
    """Refuse a disqualification the ruleset no longer allows (docs/rules.md I-40).

    `UNTIL_SIGNED` (004 §1.2.4, rules-related): "not possible after all players have signed the record
    sheet". `UNTIL_SIGNED_OFF` (001 §6, either ground): "only during an active game or immediately after
    finishing a game", and the game is over for its table once the referee signs the sheet off.
    The sheet is locked, so a signature or sign-off arriving at the same moment waits for this decision.
    """
    window = ruleset_for(entry.tournament.ruleset).disqualification_window(ground)
    if window == ANY_TIME:
        return
    if game is None:
        errors["game"] = [_("A disqualification for breaking the game's rules names the game it happened in.")
                          if window == UNTIL_SIGNED else
                          _("Under these rules a disqualification is made during a game or right after it: name the "
                            "game.")]
        return
    seat = Seat.objects.filter(game=game, entry=entry).select_related("table").first()
    if seat is None:
        errors["game"] = [_("%(player)s has no seat in game %(n)d.") % {"player": entry.player.name, "n": game.number}]
        return
    sheet = RecordSheet.objects.select_for_update(of=("self",)).filter(table=seat.table).first()
    if game.status == Game.Status.PLANNED or sheet is None:
        errors["game"] = [_("Game %(n)d has not started: a disqualification is made during the game or right after "
                            "it.") % {"n": game.number}]
    elif window == UNTIL_SIGNED and sheet.status in SIGNED_BY_ALL:
        errors["ground"] = [_(
            "Every player of table %(table)d in game %(n)d has signed the record sheet, so %(player)s can no longer "
            "be disqualified for breaking the game's rules. A disqualification for breaching the code of conduct "
            "is possible at any time."
        ) % {"table": seat.table.number, "n": game.number, "player": entry.player.name}]
    elif window != UNTIL_SIGNED and sheet.is_locked:
        errors["game"] = [_(
            "Table %(table)d of game %(n)d is signed off, so %(player)s can no longer be disqualified for it: under "
            "these rules a disqualification is made during a game or right after it, until the referee signs the "
            "table's sheet off. An organizer can still withdraw the player from the rest of the tournament."
        ) % {"table": seat.table.number, "n": game.number, "player": entry.player.name}]
