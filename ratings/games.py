"""The rated games as the rating engine takes them: every signed-off table of every running or finished tournament,
in one fixed order (tournament date, tournament id, game number, table number), with each player's place at the
table as the standings count it (`engines.ranking.engine.score_table`: the winner first, then by counted VP, equal
VP sharing a place)."""
from collections import defaultdict
from collections.abc import Iterable
from datetime import date

from django.db.models import Q, QuerySet

from championships.models import Tournament
from engines.ranking.engine import SeatResult, TableResult, score_table
from engines.ratings import Table
from engines.rulesets import ruleset_for
from results.models import RecordSheet, Score

RATED_STATUSES = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
UNDATED = "9999-12-31"
"""Where an undated tournament's games go: after every dated one."""


def table_key(day: date | None, tournament_id: int, game: int, table: int) -> str:
    """The table's place in the order as text that sorts the same way (fixed widths)."""
    return f"{day.isoformat() if day else UNDATED}/{tournament_id:010d}/{game:05d}/{table:05d}"


def result_text(table: Table) -> str:
    """What a rated table's result is stored as, to tell later whether it changed."""
    return ",".join(f"{player}:{place}" for player, place in table.places)


def _from(key: str) -> Q:
    """Tournaments whose games can sort at or after `key`."""
    day, tournament, _rest = key.split("/", 2)
    first = int(tournament)
    if day == UNDATED:
        return Q(date__isnull=True, pk__gte=first)
    return Q(date__gt=day) | Q(date__isnull=True) | Q(date=day, pk__gte=first)


def score_rows(*, tournament_ids: Iterable[int] | None = None, from_key: str = "") -> QuerySet:
    """(date, tournament, ruleset, game, table, player, vp, winner) of every seat of the signed-off tables of
    running and finished tournaments (of `tournament_ids`, or all) that can sort from `from_key` on; unordered."""
    tournaments = Tournament.objects.filter(status__in=RATED_STATUSES)
    if tournament_ids is not None:
        tournaments = tournaments.filter(pk__in=list(tournament_ids))
    if from_key:
        tournaments = tournaments.filter(_from(from_key))
    return (Score.objects.filter(sheet__status=RecordSheet.Status.SIGNED_OFF,
                                 sheet__table__game__tournament__in=tournaments.values("pk"))
            .order_by()
            .values_list("sheet__table__game__tournament__date", "sheet__table__game__tournament_id",
                         "sheet__table__game__tournament__ruleset", "sheet__table__game__number",
                         "sheet__table__number", "seat__entry__player_id", "vp", "winner"))


def rated_tables(*, tournament_ids: Iterable[int] | None = None, from_key: str = "") -> list[Table]:
    """The tables of `score_rows` with each player's place, in the fixed order; one query, whatever their number."""
    scores = score_rows(tournament_ids=tournament_ids, from_key=from_key)
    seats: dict[tuple[str, int, int], list[tuple[int, int, bool]]] = defaultdict(list)
    rulesets: dict[tuple[str, int, int], str] = {}
    for day, tournament, ruleset, game, table, player, vp, winner in scores.iterator(chunk_size=20_000):
        where = (table_key(day, tournament, game, table), game, table)
        seats[where].append((player, vp or 0, winner))  # a signed-off sheet has every VP
        rulesets[where] = ruleset
    tables = []
    for (key, game, number), table_seats in seats.items():
        if key < from_key:
            continue
        ordered = sorted(table_seats)
        scored = score_table(TableResult(game, number, tuple(SeatResult(*seat) for seat in ordered)),
                             ruleset_for(rulesets[(key, game, number)]))
        tables.append(Table(key, tuple((seat[0], score.place) for seat, score in zip(ordered, scored))))
    tables.sort(key=lambda t: t.key)
    return tables
