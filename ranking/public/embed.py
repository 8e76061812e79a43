"""What the embed for a federation's website shows (`/t/<slug>/embed/`): the top of the standings, the current
game's seating a page of tables at a time, and "where do I sit?" — the public pages' own selectors, smaller."""
from dataclasses import dataclass

from championships.models import Tournament
from ranking.public.game import GamePage, game_page
from ranking.public.standings import PublicStandings, public_standings
from ranking.public.where import WherePage, where
from results.selectors import current_game
from scheduling.models import Game

STANDINGS_SHOWN = 20
"""Standings rows in the embed; the full standings are a link away."""


@dataclass(frozen=True)
class EmbedPage:
    standings: PublicStandings
    game: GamePage | None
    """The current game (the first in play, else the last played), None before any is published."""
    found: WherePage | None
    """The "where do I sit?" answer, once a name is typed."""


def embed_page(tournament: Tournament, query: str, page: int) -> EmbedPage:
    """The embed's three parts; `page` is the page of the current game's tables."""
    games = list(tournament.games.exclude(status=Game.Status.PLANNED).select_related("stage").order_by("number"))
    game = current_game(games)
    return EmbedPage(public_standings(tournament, per_page=STANDINGS_SHOWN),
                     game_page(tournament, game, page) if game is not None else None,
                     where(tournament, query) if query.strip() else None)
