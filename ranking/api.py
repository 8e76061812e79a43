"""Read-only public JSON: standings and the seating (with results once signed off) of a game."""
from django.db.models import Prefetch
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from championships.models import Tournament
from scheduling.models import Game, Seat, Table

from .models import RecordSheet, Score
from .standings import tournament_standings


@require_GET
def standings(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    return JsonResponse(tournament_standings(tournament), safe=False)


def seating_json(game: Game) -> dict:
    """Tables in number order; a signed-off table also shows each seat's VP and the winner."""
    tables = (
        Table.objects.filter(game=game).order_by("number").select_related("sheet")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player", "score")
                                   .order_by("position")))
    )
    result = []
    for table in tables:
        sheet: RecordSheet | None = getattr(table, "sheet", None)
        final = sheet is not None and sheet.is_locked
        seats = []
        for seat in table.seats.all():
            row = {"position": seat.position, "player": seat.entry.player.name, "entry": seat.entry_id}
            if final:
                score: Score = seat.score
                row.update(vp=score.vp, winner=score.winner)
            seats.append(row)
        result.append({"number": table.number, "status": sheet.status if sheet else RecordSheet.Status.DRAFT,
                       "seats": seats})
    return {"game": game.number, "stage": game.stage.kind, "status": game.status, "tables": result}


@require_GET
def seating(request, slug: str, number: int):
    tournament = get_object_or_404(Tournament, slug=slug)
    game = get_object_or_404(Game.objects.select_related("stage"), tournament=tournament, number=number)
    if game.status == Game.Status.PLANNED:
        raise Http404("The seating of this game is not published yet.")
    return JsonResponse(seating_json(game))
