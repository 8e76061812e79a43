"""Large stages for the page and planning tests and the stage-page benchmark, built in a few bulk inserts."""
from datetime import date

from championships.countries import country_for_code
from championships.models import Entry, Player, Stage
from scheduling.selectors import first_game_number
from scheduling.services import write_games

CODES = ["AE", "NL", "DE", "FR", "IT", "ES", "GB", "US", "CA", "BR", "AR", "JP", "KR", "CN", "IN", "EG", "MA", "IL",
         "IR", "SA"]


def crowd(tournament, n: int) -> list[int]:
    """`n` entries of players from 20 countries, Latin and Arabic names, as entry ids."""
    countries = [country_for_code(code) for code in CODES]
    names = ("Player", "لاعب")
    players = Player.objects.bulk_create(
        Player(name=f"{names[i % 2]} {i:05d}", date_of_birth=date(1990, 1, 1), country=countries[i % len(countries)])
        for i in range(n))
    entries = Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    return [e.pk for e in entries]


def seat_in_rotation(stage: Stage, entries: list[int]) -> None:
    """Every game of the stage written at once (as the planner writes them): tables of four, shifted per game."""
    games = []
    for g in range(stage.games):
        order = entries[g * 7:] + entries[:g * 7]
        order = order[::-1] if g % 2 else order
        games.append([order[i:i + 4] for i in range(0, len(order), 4)])
    write_games(stage, games, range(first_game_number(stage), first_game_number(stage) + stage.games))
