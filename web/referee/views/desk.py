"""The referee's desk: their tournaments, and every table of a game with its sheet's state."""
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from championships.models import StaffRole
from championships.permissions import is_organizer, official_tournament, officiated_tournaments
from results import selectors
from results.tablets import waiting_on_tablets
from web.requests import HtmxHttpRequest

from ..forms import AnnouncementForm, BoardForm


@login_required
def referee_home(request: HtmxHttpRequest) -> HttpResponse:
    tournaments = officiated_tournaments(request.user).select_related("championship").reverse()
    organized = set(officiated_tournaments(request.user, StaffRole.Role.ORGANIZER).values_list("pk", flat=True))
    return render(request, "referee/referee_home.html", {"tournaments": tournaments, "organized": organized})


@login_required
def desk(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = official_tournament(request.user, slug)
    page = selectors.desk(tournament, request.GET.get("game"))
    context = {"tournament": tournament, "games": page.games, "game": page.game, "tables": page.tables,
               "counts": page.counts, "is_organizer": is_organizer(request.user, tournament),
               "on_tablets": waiting_on_tablets(tournament, besides=request.user)}
    if not request.htmx:
        context.update(announcements=selectors.recent_announcements(tournament), announcement_form=AnnouncementForm(),
                       board_form=BoardForm())
    template = "referee/desk_tables.html" if request.htmx else "referee/desk.html"
    return render(request, template, context)
