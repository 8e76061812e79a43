"""A board for every published game: one for all its tables, or one per table where the stage says so.

Rules (docs/rules.md §5): the organizers set up one random board per game, the same at every table and a
new one each game; the Lord of Catan semifinal plays four different boards. Boards come from the pure
generator (`engines.boards`), by a fresh random seed; only the code is stored, it rebuilds the board.
"""
import random

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.actions import Action
from audit.services import record_change
from championships.models import Championship, Tournament
from championships.permissions import require_championship_organizer, require_organizer
from core.changes import announce
from engines.boards import fairness
from engines.boards.generator import decode_board

from .models import Game, Table

LIMIT_LABELS = {
    fairness.EQUAL_NUMBERS_APART: gettext_lazy("No two equal numbers side by side"),
    fairness.RED_NUMBERS_SPREAD: gettext_lazy("No resource gets two red numbers (6 or 8)"),
    fairness.TWO_AND_TWELVE_APART: gettext_lazy("2 and 12 never on the same resource"),
    fairness.BALANCED_PIPS: gettext_lazy("Balanced odds: every resource averages 2.5 to 4 pips a hex"),
}
"""What the organizer switches on, and the reason a typed board is refused; in `fairness.LIMITS` order."""

_SEEDS = random.SystemRandom()


def _fresh_code(used: set[str], limits: list[str]) -> str:
    """A random board keeping the championship's limits that no game or table of the tournament has played yet
    (a repeat is astronomically rare)."""
    while True:
        code = fairness.generate_fair_board(_SEEDS.randrange(2**32), limits).code
        if code not in used:
            used.add(code)
            return code


def used_codes(tournament_id: int) -> set[str]:
    """Every board already dealt in the tournament (two queries)."""
    games = Game.objects.filter(tournament_id=tournament_id).exclude(board_code="")
    tables = Table.objects.filter(game__tournament_id=tournament_id).exclude(board_code="")
    return set(games.values_list("board_code", flat=True)) | set(tables.values_list("board_code", flat=True))


def _board_limits(tournament: Tournament) -> list[str]:
    """The fairness limits of the tournament's championship; a club tournament outside any championship has none."""
    championship = tournament.championship
    return championship.board_limits if championship is not None else []


def deal_boards(game: Game, *, code: str = "") -> dict:
    """Give the game (and, in a per-table stage, each table) a board; part of publishing and of `change_board`.

    `code` reuses a typed board for the game (a per-table stage still deals each table its own). Returns
    what was dealt, for the audit entry.
    """
    used = used_codes(game.tournament_id) - {game.board_code}
    limits = _board_limits(game.tournament)
    game.board_code = code or _fresh_code(used, limits)
    game.save(update_fields=["board_code"])
    dealt: dict = {"board": game.board_code}
    if game.stage.boards_per_table:
        used.add(game.board_code)
        tables = list(game.tables.order_by("number"))
        used -= {t.board_code for t in tables}
        for table in tables:
            table.board_code = _fresh_code(used, limits)
        Table.objects.bulk_update(tables, ["board_code"])
        dealt["tables"] = {t.number: t.board_code for t in tables}
    return dealt


def normalised_code(code: str) -> str:
    """The typed code as the generator writes it; ValidationError naming the problem if it is no legal board."""
    try:
        return decode_board(code).code
    except ValueError as error:
        raise ValidationError({"code": _("This is not a board code: %(why)s") % {"why": error}}) from error


def change_board(game_id: int, *, user, code: str = "") -> Game:
    """A new random board for a published game, or the board of a typed code (reusing a crafted board)."""
    code = normalised_code(code) if code.strip() else ""
    with transaction.atomic():
        game = (Game.objects.select_for_update(of=("self",)).select_related("tournament__championship", "stage")
                .get(pk=game_id))
        require_organizer(user, game.tournament)
        broken = fairness.broken_limits(decode_board(code), _board_limits(game.tournament)) if code else []
        if broken:
            raise ValidationError({"code": _("This board breaks the championship's fairness limits: %(limits)s.")
                                   % {"limits": "; ".join(str(LIMIT_LABELS[limit]) for limit in broken)}})
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Only the board of a published game that is still being played can change."))
        before = {"board": game.board_code,
                  **({"tables": {t.number: t.board_code for t in game.tables.all()}}
                     if game.stage.boards_per_table else {})}
        after = deal_boards(game, code=code)
        record_change(user, game.tournament_id, Action.BOARD_CHANGED, game, before=before,
                      after={**after, "typed": bool(code)})
        announce(game.tournament_id)  # the game's public page shows its board
    return game


def set_board_limits(championship_id: int, limits: list[str], *, user) -> Championship:
    """The fairness limits every board dealt from now on in the championship keeps (boards dealt stay)."""
    unknown = set(limits) - set(fairness.LIMITS)
    if unknown:
        raise ValidationError(_("Unknown board limit: %(keys)s") % {"keys": ", ".join(sorted(unknown))})
    wanted = [limit for limit in fairness.LIMITS if limit in limits]
    with transaction.atomic():
        championship = Championship.objects.select_for_update().get(pk=championship_id)
        require_championship_organizer(user, championship)
        if championship.board_limits == wanted:
            return championship
        before = {"limits": championship.board_limits}
        championship.board_limits = wanted
        championship.save(update_fields=["board_limits"])
        record_change(user, None, Action.BOARD_LIMITS, championship, before=before, after={"limits": wanted},
                      championship_id=championship.pk)
    return championship
