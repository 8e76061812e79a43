"""The live part of a player's page: where they sit in the game being played, its map-study countdown and their
table's timed turns, refreshed on its own when the tournament's version moves (the page polls the public version
endpoint, which a proxy answers for everyone at once; only a change costs a render)."""
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from championships.models import Player, Tournament
from ranking.own import own_tournament
from web.requests import HtmxHttpRequest

from .tokens import player_link, private_page


@private_page
@require_GET
@player_link
def me_seat(request: HtmxHttpRequest, token: str, slug: str, *, player: Player) -> HttpResponse:
    tournament = Tournament.objects.filter(slug=slug).select_related("championship").first()
    row = None if tournament is None else own_tournament(player, tournament)
    if row is None:
        raise Http404("You play in no tournament at that address.")
    return render(request, "players/_seat_now.html", {"row": row, "token": token})
