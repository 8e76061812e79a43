"""Taking back a published game that has not started, so it can be re-planned (a late withdrawal)."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from championships.permissions import require_organizer
from scheduling.models import Game

from .audit import audit
from .models import RecordSheet


def unpublish_game(game_id: int, *, user) -> Game:
    """Back to planned, as long as no result has been entered at any of its tables."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game_id)
        require_organizer(user, game.tournament)
        if game.status != Game.Status.PUBLISHED:
            raise ValidationError(_("Only a published game that has not started can be taken back."))
        sheets = RecordSheet.objects.filter(table__game=game)
        if sheets.filter(version__gt=0).exists():
            raise ValidationError(_("Results are entered for game %(n)d: it has started, its seating stays.")
                                  % {"n": game.number})
        sheets.delete()
        game.status = Game.Status.PLANNED
        game.save(update_fields=["status"])
        audit(user, game.tournament_id, "seating.unpublished", game, before={"status": Game.Status.PUBLISHED},
              after={"status": Game.Status.PLANNED})
    return game
