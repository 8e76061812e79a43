"""Seating in the database: plan a stage with the pure engine, write its games, swap, publish.

Games numbered through the tournament's stages (stage 2's first game follows stage 1's last).
A stage's games that are still planned are re-planned freely; published games are history that
re-planning keeps (who met whom, positions played).
"""
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from championships.models import ACTIVE_STATUSES, Entry, Relationship, Stage

from . import seating
from .models import Game, Seat, Table


@dataclass(frozen=True)
class StagePlan:
    """A stage's seating as the engine sees it: entry ids, played history and what is still planned."""

    problem: seating.SeatingProblem
    played: list[Game]
    planned: list[Game]


def first_game_number(stage: Stage) -> int:
    earlier = Stage.objects.filter(tournament_id=stage.tournament_id, order__lt=stage.order)
    return 1 + sum(earlier.values_list("games", flat=True))


def _tables_of(games: Iterable[Game]) -> list[tuple[tuple[int, ...], ...]]:
    """Games as tuples of tables of entry ids in position order, from prefetched seats."""
    return [
        tuple(tuple(seat.entry_id for seat in sorted(table.seats.all(), key=lambda s: s.position))
              for table in sorted(game.tables.all(), key=lambda t: t.number))
        for game in games
    ]


def stage_games(stage: Stage) -> list[Game]:
    return list(Game.objects.filter(stage=stage).order_by("number").prefetch_related("tables__seats"))


def _relations(entries: Sequence[Entry]) -> tuple[tuple[int, int], ...]:
    """Declared friend/family pairs among these entries, as entry-id pairs."""
    entry_of_player = {e.player_id: e.pk for e in entries}
    pairs = Relationship.objects.filter(player_a__in=entry_of_player.keys(), player_b__in=entry_of_player.keys())
    return tuple((entry_of_player[a], entry_of_player[b]) for a, b in pairs.values_list("player_a", "player_b"))


def _problem(stage: Stage, entries: Sequence[Entry], games: int, history=(), seed: int = 0) -> seating.SeatingProblem:
    goals = seating.goals(stage.tournament.ruleset)
    return seating.SeatingProblem(
        players=tuple(sorted(e.pk for e in entries)), games=games, relations=_relations(entries),
        countries={e.pk: e.player.country.code for e in entries if e.player.country},
        history=tuple(history), distinct_positions=goals.distinct_positions,
        spread_countries=goals.spread_countries, seed=seed,
    )


def stage_plan(stage: Stage, *, seed: int = 0) -> StagePlan:
    """The seating problem of a stage's not-yet-published games, with the published ones as history."""
    games = stage_games(stage)
    played = [g for g in games if g.status != Game.Status.PLANNED]
    planned = [g for g in games if g.status == Game.Status.PLANNED]
    entries = Entry.objects.filter(tournament_id=stage.tournament_id, status__in=ACTIVE_STATUSES).select_related(
        "player__country")
    problem = _problem(stage, list(entries), max(stage.games - len(played), 1), _tables_of(played), seed)
    return StagePlan(problem, played, planned)


def write_games(stage: Stage, games: Sequence[Sequence[Sequence[int]]], numbers: Sequence[int]) -> list[Game]:
    """Create games of entry-id tables (players in play order) under the given game numbers."""
    created = []
    for number, tables in zip(numbers, games):
        game = Game.objects.create(tournament_id=stage.tournament_id, stage=stage, number=number)
        table_rows = Table.objects.bulk_create(Table(game=game, number=n) for n in range(1, len(tables) + 1))
        Seat.objects.bulk_create(
            Seat(table=table, game=game, entry_id=entry, position=position)
            for table, players in zip(table_rows, tables)
            for position, entry in enumerate(players, start=1)
        )
        created.append(game)
    return created


def generate_seating(stage_id: int, *, seed: int = 0, budget: int | None = None,
                     progress: Callable[[float], None] | None = None) -> seating.SeatingResult:
    """(Re-)plan every game of the stage not yet published, keeping the published ones as history."""
    with transaction.atomic():
        stage = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage_id)
        if stage.seating != Stage.Seating.SCHEDULED:
            raise ValidationError(_("%(stage)s is seeded by rank, not generated.") % {"stage": stage.name})
        try:
            plan = stage_plan(stage, seed=seed)
            if len(plan.played) >= stage.games:
                raise ValidationError(_("Every game of %(stage)s is already published.") % {"stage": stage.name})
            result = seating.seat(plan.problem, budget=budget, progress=progress)
        except seating.SeatingError as error:
            raise ValidationError(_seating_message(error, stage)) from error
        Game.objects.filter(pk__in=[g.pk for g in plan.planned]).delete()
        write_games(stage, result.schedule.games, free_game_numbers(stage, plan.played))
    return result


def free_game_numbers(stage: Stage, played: Sequence[Game]) -> list[int]:
    """The stage's game numbers not taken by published games, in order (games may be published out of order)."""
    first = first_game_number(stage)
    taken = {g.number for g in played}
    return [n for n in range(first, first + stage.games) if n not in taken]


def layout_token(game: Game) -> str:
    """A fingerprint of who sits where in a game, so a swap based on an old view is refused."""
    seats = sorted(Seat.objects.filter(game=game).values_list("entry_id", "table__number", "position"))
    return hashlib.sha256(repr(seats).encode()).hexdigest()[:16]


def _seating_message(error: seating.SeatingError, stage: Stage) -> str:
    """The engine's refusal in the organizer's language where it concerns them (the player count)."""
    count = Entry.objects.filter(tournament_id=stage.tournament_id, status__in=ACTIVE_STATUSES).count()
    if count in (0, 1, 2, 5):
        return _("%(n)d players cannot be seated at tables of 3 or 4: a stage needs 3, 4 or at least 6 players.") \
            % {"n": count}
    return str(error)


def stage_report(stage: Stage, games: Sequence[Game] | None = None) -> seating.QualityReport | None:
    """The quality report of the stage's seating as it stands in the database (after any swaps).

    `games` may be the stage's games already loaded with their tables and seats.
    """
    games = stage_games(stage) if games is None else games
    if not games:
        return None
    tables = _tables_of(games)
    seated = {p for game in tables for table in game for p in table}
    entries = list(Entry.objects.filter(pk__in=seated).select_related("player__country"))
    return seating.assess(_problem(stage, entries, len(games)), tables)


def swap_seats(game_id: int, first_entry: int, second_entry: int, *, layout: str | None = None) -> Game:
    """Exchange two players' seats in a planned game (tables and positions).

    `layout` is the `layout_token` the organizer saw; a repeated or stale swap is refused, so a
    double submission cannot swap the players back.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.PLANNED:
            raise ValidationError(_("Game %(n)d is published; its seating can no longer be changed by hand.")
                                  % {"n": game.number})
        if layout is not None and layout != layout_token(game):
            raise ValidationError(_("The seating of game %(n)d changed since this page was loaded; nothing was "
                                    "swapped. Check the tables below and try again.") % {"n": game.number})
        seats = {s.entry_id: s for s in Seat.objects.select_for_update().filter(game=game,
                                                                                 entry__in=[first_entry, second_entry])}
        if first_entry == second_entry or len(seats) != 2:
            raise ValidationError(_("Choose two different players seated in game %(n)d.") % {"n": game.number})
        one, other = seats[first_entry], seats[second_entry]
        places = (one.table_id, one.position), (other.table_id, other.position)
        Seat.objects.filter(pk__in=[one.pk, other.pk]).delete()
        Seat.objects.bulk_create([
            Seat(table_id=places[1][0], position=places[1][1], game=game, entry_id=first_entry),
            Seat(table_id=places[0][0], position=places[0][1], game=game, entry_id=second_entry),
        ])
    return game


def publish_game(game_id: int) -> Game:
    """Make a planned game's seating public; from now on it is history for re-planning."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status == Game.Status.PLANNED:
            game.status = Game.Status.PUBLISHED
            game.save(update_fields=["status"])
    return game


def seat_warnings(stage: Stage, games: Sequence[Game], report: seating.QualityReport) -> dict[int, list[str]]:
    """Why a seat is highlighted, by seat id: friend/family at the table, a repeat opponent, a compatriot."""
    friends = {frozenset(pair) for _game, pair in report.friend_conflicts}
    repeats = {frozenset(pair) for pair, _count in report.repeated_pairs}
    spread = seating.goals(stage.tournament.ruleset).spread_countries
    warnings: dict[int, list[str]] = {}
    for game in games:
        for table in game.tables.all():
            seats = list(table.seats.all())
            for seat in seats:
                others = [o for o in seats if o.pk != seat.pk]
                found = []
                if any(frozenset((seat.entry_id, o.entry_id)) in friends for o in others):
                    found.append(_("friend or family at this table"))
                if any(frozenset((seat.entry_id, o.entry_id)) in repeats for o in others):
                    found.append(_("meets an opponent again"))
                country = seat.entry.player.country_id
                if spread and country and any(o.entry.player.country_id == country for o in others):
                    found.append(_("a compatriot at this table"))
                if found:
                    warnings[seat.pk] = found
    return warnings
