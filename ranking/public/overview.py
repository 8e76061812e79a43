"""A tournament's public overview."""

from dataclasses import dataclass

from django.db.models import Count

from championships.models import Stage, Tournament
from ranking.selectors import podium, tournament_done
from results.models import RecordSheet
from results.selectors import current_game, recent_announcements
from scheduling.models import Game, Table


@dataclass(frozen=True)
class Overview:
    stages: list[Stage]
    games: list[Game]
    current: Game | None
    next_game: Game | None
    table_counts: dict[str, int]
    """The current game's tables: "done" (signed off) and "in_play"."""
    announcements: list
    podium: list[dict]


def overview(tournament: Tournament) -> Overview:
    stages = list(tournament.stages.all())
    games = list(tournament.games.order_by("number"))
    shown = [g for g in games if g.status != Game.Status.PLANNED]
    current = current_game(shown)
    next_game = next((g for g in shown if current and g.number > current.number
                      and g.status == Game.Status.PUBLISHED), None)
    counts = {"done": 0, "in_play": 0}
    if current is not None:
        for status, n in (Table.objects.filter(game=current).values_list("sheet__status")
                          .annotate(n=Count("pk")).values_list("sheet__status", "n")):
            counts["done" if status == RecordSheet.Status.SIGNED_OFF else "in_play"] += n
    return Overview(stages, games, current, next_game, counts, recent_announcements(tournament),
                    podium(tournament, tournament_done(stages, games)))
