"""A rated history built through the services: tournaments with games whose sheets are signed off."""
from datetime import date

from championships.models import Entry, Player, Tournament
from ratings.models import PlayerRating, RatingChange
from tests.factories import make_admin, make_championship, make_game, make_player, make_tournament, play


def running_tournament(players: list[Player], *, day: date, games: int = 1, championship=None, **fields) -> Tournament:
    """A running tournament entering `players`, with `games` games published (tables of four in list order)."""
    tournament = make_tournament(games=games, date=day, championship=championship or make_championship(),
                                 status=Tournament.Status.RUNNING, **fields)
    entries = [Entry.objects.create(tournament=tournament, player=p) for p in players]
    for number in range(1, games + 1):
        make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)], number=number)
    return tournament


def sign_off_game(tournament: Tournament, number: int, vps: list[list[int]], capture, user=None) -> None:
    """Sign off every table of game `number` with the VP given per table in play order, running what the commit
    triggers (the ratings update among it)."""
    user = user or make_admin()
    game = tournament.games.get(number=number)
    for table, table_vps in zip(game.tables.order_by("number"), vps):
        with capture(execute=True):
            play(table, table_vps, user)


def snapshot_ratings() -> dict[int, tuple[float, float, int]]:
    return {pk: (mu, sigma, games) for pk, mu, sigma, games in
            PlayerRating.objects.values_list("player_id", "mu", "sigma", "games")}


def snapshot_history() -> list[tuple]:
    return list(RatingChange.objects.order_by("table_id", "player_id").values_list(
        "table_id", "player_id", "place", "mu_before", "sigma_before", "games_before", "mu", "sigma"))


def make_players(n: int, prefix: str = "P") -> list[Player]:
    return [make_player(f"{prefix} {i:02}") for i in range(n)]
