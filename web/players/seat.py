"""The live part of a player's page: where they sit in the game being played, its map-study countdown and their
table's timed turns, refreshed on its own when the tournament's version moves (the page polls the public version
endpoint, which a proxy answers for everyone at once; only a change costs a render)."""
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from championships.models import Tournament
from ranking.own import own_tournament
from web.requests import HtmxHttpRequest

from .tokens import invalid_link, private_page, token_player, tokens_checked


@private_page
@require_GET
@tokens_checked
def me_seat(request: HtmxHttpRequest, token: str, slug: str) -> HttpResponse:
    player = token_player(token)
    if player is None:
        return invalid_link(request)
    tournament = Tournament.objects.filter(slug=slug).select_related("championship").first()
    row = None if tournament is None else own_tournament(player, tournament)
    if row is None:
        raise Http404("You play in no tournament at that address.")
    return render(request, "players/_seat_now.html", {"row": row, "token": token})
