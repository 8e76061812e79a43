"""Keeping the ratings in step with the results: replay the rated tables from the first one that changed.

Every rating depends on every table before it, so a change to one table (a correction, a tournament dated anew, a
tournament no longer running or deleted) changes the ratings from that table on, and nothing before it. The
update finds the earliest table whose result or place in the order differs from what was rated
(`earliest_change`), takes each player's rating just before it from the history, and replays from there
(`recompute_from`): the same floats as rating everything from the start (`recompute_all`, `manage.py rate`).

One update runs at a time (a row lock); the work waits in `RatingRequest` rows, so a burst of sign-offs is
rated in one go.
"""
from collections.abc import Iterable

from django.db import connection, transaction
from django.utils import timezone

from engines.ratings import Rating, replay

from .games import rated_tables, result_text
from .models import PlayerRating, RatedTable, RatingChange, RatingRequest, RatingState
from .version import new_ratings_version

BATCH = 5_000
"""Rows written per INSERT."""


def _locked_state() -> RatingState:
    RatingState.objects.bulk_create([RatingState(pk=1)], ignore_conflicts=True)
    return RatingState.objects.select_for_update().get(pk=1)


def earliest_change(tournament_ids: Iterable[int]) -> str | None:
    """The key of the first table of these tournaments that was rated differently from how it stands now (or was
    not rated, or is no longer rated); None when the ratings are up to date with them."""
    ids = sorted(set(tournament_ids))
    now = {table.key: result_text(table) for table in rated_tables(tournament_ids=ids)}
    rated = dict(RatedTable.objects.filter(tournament_id__in=ids).values_list("key", "result"))
    return min((key for key in now.keys() | rated.keys() if now.get(key) != rated.get(key)), default=None)


def recompute_from(from_key: str) -> int:
    """Replay every rated table from `from_key` on (all with ""); returns how many tables were rated. Runs inside
    the caller's transaction, holding the update's lock."""
    ratings: dict[int, Rating] = {}
    for player, mu, sigma, games in (RatingChange.objects.filter(table_id__gte=from_key).order_by("table_id")
                                     .values_list("player_id", "mu_before", "sigma_before", "games_before")
                                     .iterator(chunk_size=20_000)):
        ratings.setdefault(player, Rating(mu, sigma, games))  # the player's rating before the replayed tables
    tables = rated_tables(from_key=from_key)
    newcomers = {player for table in tables for player, _place in table.places} - ratings.keys()
    for player, mu, sigma, games in (PlayerRating.objects.filter(player_id__in=newcomers)
                                     .values_list("player_id", "mu", "sigma", "games").iterator(chunk_size=20_000)):
        ratings[player] = Rating(mu, sigma, games)  # no history from `from_key` on: the current rating is from before
    touched = set(ratings) | newcomers

    RatingChange.objects.filter(table_id__gte=from_key).delete()
    RatedTable.objects.filter(key__gte=from_key).delete()
    rows: list[tuple] = []
    changes: list[tuple] = []
    for table, table_changes in replay(tables, ratings):
        _day, tournament, game, number = table.key.split("/")
        rows.append((table.key, int(tournament), int(game), int(number), result_text(table)))
        changes.extend((table.key, c.player, c.place, c.before.mu, c.before.sigma, c.before.games, c.after.mu,
                        c.after.sigma) for c in table_changes)
    _insert(RatedTable, ["key", "tournament", "game_number", "table_number", "result"], rows)
    _insert(RatingChange, ["table", "player", "place", "mu_before", "sigma_before", "games_before", "mu", "sigma"],
            changes)
    _store(touched, ratings, everyone=not from_key)
    return len(rows)


def _store(players: set[int], ratings: dict[int, Rating], everyone: bool) -> None:
    """The players' current ratings (rows replaced; a player left with no rated game has none)."""
    if everyone:
        PlayerRating.objects.all().delete()
    else:
        ids = sorted(players)
        for start in range(0, len(ids), 500):
            PlayerRating.objects.filter(player_id__in=ids[start:start + 500]).delete()
    _insert(PlayerRating, ["player", "mu", "sigma", "ordinal", "games"],
            [(p, r.mu, r.sigma, r.ordinal, r.games) for p in sorted(players) if (r := ratings[p]).games])


def _insert(model, fields: list[str], rows: list[tuple]) -> None:
    """Plain INSERTs, many rows a statement: a full recompute writes a row per player and table (400,000 for
    100,000 tables), and building a model instance for each costs more than rating it (benchmarks/bench_ratings.py).
    """
    quote = connection.ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in fields)
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "
           f"VALUES ({', '.join(['%s'] * len(fields))})")
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start:start + BATCH])


def request_update(tournament_id: int) -> None:
    """Note that this tournament's results may have changed (the background job then rates what did)."""
    RatingRequest.objects.create(tournament_id=tournament_id)


def run_updates() -> int:
    """Rate everything the waiting requests point at; returns how many tables were rated. Requests that arrive
    meanwhile stay for the next run."""
    with transaction.atomic():
        state = _locked_state()
        requests = list(RatingRequest.objects.values_list("pk", "tournament_id"))
        if not requests:
            return 0
        start = earliest_change(tournament for _pk, tournament in requests)
        rated = recompute_from(start) if start is not None else 0
        RatingRequest.objects.filter(pk__in=[pk for pk, _tournament in requests]).delete()
        if start is not None:
            state.updated_at = timezone.now()
            state.save(update_fields=["updated_at"])
            transaction.on_commit(new_ratings_version, robust=True)
    return rated


def recompute_all() -> int:
    """Rate every signed-off table from the start (`manage.py rate`); returns how many."""
    with transaction.atomic():
        state = _locked_state()
        RatingRequest.objects.all().delete()
        rated = recompute_from("")
        state.updated_at = timezone.now()
        state.save(update_fields=["updated_at"])
        transaction.on_commit(new_ratings_version, robust=True)
    return rated
