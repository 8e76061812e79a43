"""The referee's desk: their tournaments, and every table of a game with its sheet's state."""
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch
from django.shortcuts import get_object_or_404, render

from championships.models import StaffRole, Tournament
from championships.permissions import is_organizer, officiated_tournaments, require_official
from scheduling.models import Game, Seat, Table

from ..models import RecordSheet


@login_required
def referee_home(request):
    tournaments = officiated_tournaments(request.user).select_related("championship").order_by("-date", "name")
    organized = set(officiated_tournaments(request.user, StaffRole.Role.ORGANIZER).values_list("pk", flat=True))
    return render(request, "ranking/referee_home.html", {"tournaments": tournaments, "organized": organized})


def current_game(games: list[Game]) -> Game | None:
    """The first published game with a table not yet signed off, else the last one."""
    return next((g for g in games if g.status == Game.Status.PUBLISHED), games[-1] if games else None)


@login_required
def desk(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    require_official(request.user, tournament)
    games = list(tournament.games.exclude(status=Game.Status.PLANNED).select_related("stage").order_by("number"))
    requested = request.GET.get("game")
    game = next((g for g in games if str(g.number) == requested), None) or current_game(games)
    tables = []
    if game is not None:
        tables = list(
            Table.objects.filter(game=game).order_by("number")
            .prefetch_related(Prefetch("seats", Seat.objects.select_related("entry__player").order_by("position")))
            .select_related("sheet").annotate(signature_count=Count("sheet__signatures"))
        )
    counts = {status: 0 for status in RecordSheet.Status.values}
    for table in tables:
        counts[getattr(getattr(table, "sheet", None), "status", RecordSheet.Status.DRAFT)] += 1
    context = {
        "tournament": tournament, "games": games, "game": game, "tables": tables,
        "counts": [(RecordSheet.Status(status).label, n, status) for status, n in counts.items()],
        "is_organizer": is_organizer(request.user, tournament),
    }
    template = "ranking/desk_tables.html" if request.htmx else "ranking/desk.html"
    return render(request, template, context)
