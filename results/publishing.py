"""Publishing a game opens its record sheets and emails each seated player their table (`results.notices`, in the
background, with a push to their subscribed phones where Web Push is configured); taking it back closes them;
seeded tables record their play order.

Games, tables and seats are written by `scheduling.services`; this module adds what results need
(a sheet with one score row per seat) and checks that no result is lost on the way.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.actions import Action
from audit.services import record_change
from championships.models import StaffRole, Stage, Tournament
from championships.permissions import require_official, require_organizer
from championships.setup import advance_status
from core import webpush
from core.background import run_in_background
from core.changes import announce
from engines.rulesets import ruleset_for
from scheduling import boards
from scheduling import services as scheduling
from scheduling.models import Game, Seat, Table
from webhooks import events as webhook_events

from .models import RecordSheet, Score
from .selectors import OUT_STATUSES
from .sheets import game_is_complete
from .tasks import send_seating_notices, send_seating_pushes


def open_sheet(table: Table) -> RecordSheet:
    """The table's sheet with one score row per seat (rows already there are kept)."""
    sheet, _created = RecordSheet.objects.get_or_create(table=table)
    scored = set(sheet.scores.values_list("seat_id", flat=True))
    Score.objects.bulk_create([Score(sheet=sheet, seat=seat) for seat in table.seats.all() if seat.pk not in scored])
    return sheet


def _open_sheets(game: Game) -> None:
    """A sheet with its score rows at every table of the game that has none: two inserts, whatever its size."""
    tables = list(game.tables.filter(sheet__isnull=True).prefetch_related("seats"))
    sheets = RecordSheet.objects.bulk_create(RecordSheet(table=table) for table in tables)
    Score.objects.bulk_create(Score(sheet=sheet, seat=seat) for sheet, table in zip(sheets, tables)
                              for seat in table.seats.all())


def require_referee(tournament: Tournament) -> None:
    """A tournament is arbitrated by at least one referee (seed 001 §5): no game is played without one."""
    if not StaffRole.objects.filter(tournament=tournament, role=StaffRole.Role.REFEREE).exists():
        raise ValidationError(
            _("%(t)s has no referee yet: a tournament needs at least one before its games are published. "
              "Invite one on the tournament's staff page (Organize › the tournament › Staff).")
            % {"t": tournament.name})


def publish_game(game_id: int, *, user) -> Game:
    """Make a planned game's seating public and open a record sheet at each of its tables."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game_id)
        require_organizer(user, game.tournament)
        if game.status != Game.Status.PLANNED:
            return game
        require_referee(game.tournament)
        _require_seeded_field_in_play(game)
        scheduling.mark_published(game)
        dealt = {} if game.board_code else boards.deal_boards(game)
        _open_sheets(game)
        record_change(user, game.tournament_id, Action.SEATING_PUBLISHED, game,
                      before={"status": Game.Status.PLANNED}, after={"status": game.status, **dealt})
        announce(game.tournament_id)
        advance_status(game.tournament_id, Tournament.Status.RUNNING, user=user,
                       why=_("Game %(n)d was published.") % {"n": game.number})
        transaction.on_commit(lambda: run_in_background(send_seating_notices, game.pk), robust=True)
        webhook_events.game_published(game.tournament, game.number, game.stage.name)
        if webpush.configured():
            transaction.on_commit(lambda: run_in_background(send_seating_pushes, game.pk), robust=True)
    return game


def _require_seeded_field_in_play(game: Game) -> None:
    """A game seated by rank is published only while everyone it seats still takes part: a player disqualified or
    withdrawn since it was seated is replaced by seating it again (the next in line; at a final after semifinals,
    the next finisher of their semifinal table, docs/rules.md §4, Penalties)."""
    if game.stage.seating != Stage.Seating.SEEDED:
        return
    out = list(Seat.objects.filter(game=game, entry__status__in=OUT_STATUSES).order_by("position")
               .values_list("entry__player__name", flat=True))
    if out:
        raise ValidationError(ngettext(
            "%(players)s no longer takes part: seat %(stage)s again by rank before publishing it, and the next in "
            "line takes the place.",
            "%(players)s no longer take part: seat %(stage)s again by rank before publishing it, and the next in "
            "line takes their places.", len(out)) % {"players": ", ".join(out), "stage": game.stage.name})


def unpublish_game(game_id: int, *, user) -> Game:
    """Back to planned (a late withdrawal), as long as no result has been entered at any of its tables."""
    with transaction.atomic():
        _lock_sheets(game_id)
        game = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game_id)
        require_organizer(user, game.tournament)
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Only a published game that has not started can be taken back."))
        sheets = RecordSheet.objects.filter(table__game=game)
        if sheets.filter(version__gt=0).exists():
            raise ValidationError(_("Results are entered for game %(n)d: it has started, its seating stays.")
                                  % {"n": game.number})
        sheets.delete()
        scheduling.mark_planned(game)
        record_change(user, game.tournament_id, Action.SEATING_UNPUBLISHED, game,
                      before={"status": Game.Status.PUBLISHED}, after={"status": game.status})
        announce(game.tournament_id)
    return game


def _lock_sheets(game_id: int) -> list[RecordSheet]:
    """Lock the game's sheets (in id order) before the game itself: the order `sheets.sign_off` takes them."""
    return list(RecordSheet.objects.select_for_update(of=("self",)).filter(table__game_id=game_id).order_by("pk"))


def reconcile_game_status(game_id: int, *, user) -> Game:
    """Repair a game whose status disagrees with its sheets: finished iff every table's sheet is signed off.

    A published or finished game only; a game that agrees with its sheets is left alone (no audit
    entry), so a repeated request changes nothing.
    """
    with transaction.atomic():
        _lock_sheets(game_id)
        game = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game_id)
        require_organizer(user, game.tournament)
        if game.status == Game.Status.PLANNED:
            raise ValidationError(_("Game %(n)d is not published yet: it has no record sheets to agree with.")
                                  % {"n": game.number})
        wanted = Game.Status.FINISHED if game_is_complete(game.pk) else Game.Status.PUBLISHED
        if game.status == wanted:
            return game
        before = game.status
        if wanted == Game.Status.FINISHED:
            scheduling.mark_finished(game)
        else:
            scheduling.mark_published(game)
        game.status = wanted
        record_change(user, game.tournament_id, Action.SEATING_STATUS_REPAIRED, game,
                      before={"status": before}, after={"status": wanted})
        announce(game.tournament_id, results=True)
    return game


def records_play_order(game: Game) -> bool:
    """Whether the referee records the play order the players chose at this game's tables.

    Tables seated by rank (seed 004 §1.1.5–1.1.6), and every game of a ruleset whose players settle
    seats themselves and roll for the starting player (seed 003).
    """
    return (game.stage.seating == Stage.Seating.SEEDED
            or ruleset_for(game.tournament.ruleset).players_choose_play_order)


def play_order_choice(tournament: Tournament) -> str:
    """How the players of a table that records its play order settle it, as the pages say: "dice" (003: seats and
    colours by the players, a roll of 2d6 for the start), "seeds" (004 §1.1.5-1.1.6: chair, colour and play order
    in seed order) or "players" (001: among themselves, seeds have no choice)."""
    rules = ruleset_for(tournament.ruleset)
    return "dice" if rules.players_choose_play_order else "seeds" if rules.seeds_choose else "players"


def record_play_order(table_id: int, entry_ids: list[int], *, user) -> None:
    """The players chose their play order (seeded tables, lord-of-catan games); record it before the scores."""
    with transaction.atomic():
        table = Table.objects.select_related("game__stage", "game__tournament").get(pk=table_id)
        require_official(user, table.game.tournament)
        sheet = RecordSheet.objects.select_for_update(of=("self",)).filter(table=table).first()
        if sheet is None:
            raise ValidationError(_("Game %(n)d is not published yet: its tables have no record sheets.")
                                  % {"n": table.game.number})
        if not records_play_order(table.game):
            raise ValidationError(_("The play order of a scheduled game comes from the seating."))
        if sheet.version:
            raise ValidationError(_("The play order is fixed once scores are entered."))
        before = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        if sorted(entry_ids) != sorted(before):
            raise ValidationError({"order": _("Give every player of this table exactly one position.")})
        if before == list(entry_ids):
            return
        sheet.scores.all().delete()
        scheduling.reorder_table(table, entry_ids)
        open_sheet(table)
        record_change(user, table.game.tournament_id, Action.SEATING_PLAY_ORDER, table, before={"order": before},
                      after={"order": list(entry_ids)})
        announce(table.game.tournament_id, results=True)  # the public game page shows the new order
