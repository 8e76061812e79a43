"""Seating in the database: plan a stage with the pure engine, write its games, swap two players.

Games are numbered through the tournament's stages (stage 2's first game follows stage 1's last).
A stage's games that are still planned are re-planned freely; published games are history that
re-planning keeps (who met whom, positions played). Every write here is the only place that
writes games, tables and seats; the results app calls the small state changes at the end when it
opens or closes record sheets.
"""
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Stage
from championships.permissions import require_organizer
from core.changes import announce
from engines.seating import engine as seating

from .models import Game, Seat, Table
from .selectors import first_game_number, layout_token, seatable_entries, stage_plan


def write_games(stage: Stage, games: Sequence[Sequence[Sequence[int]]], numbers: Sequence[int],
                seeds: Mapping[int, int] | None = None) -> list[Game]:
    """Create games of entry-id tables (players in play order) under the given game numbers.

    `seeds` gives each entry's seed when the stage is seated by rank (1 = best ranked).
    """
    seeds = seeds or {}
    created = []
    for number, tables in zip(numbers, games):
        game = Game.objects.create(tournament_id=stage.tournament_id, stage=stage, number=number)
        table_rows = Table.objects.bulk_create(Table(game=game, number=n) for n in range(1, len(tables) + 1))
        Seat.objects.bulk_create(
            Seat(table=table, game=game, entry_id=entry, position=position, seed=seeds.get(entry))
            for table, players in zip(table_rows, tables)
            for position, entry in enumerate(players, start=1)
        )
        created.append(game)
    return created


def replace_with_seeded_game(stage: Stage, tables: Sequence[Sequence[int]], ranked: Sequence[int]) -> Game:
    """The stage's one game, seated by rank (part of `ranking.qualification.seat_seeded_stage`).

    `ranked` lists the seated entries best first; each seat keeps its player's seed (1 = best), the
    order in which the players of a table choose chair, colour and play order (seed 004 §1.1.5–1.1.6).
    """
    Game.objects.filter(stage=stage).delete()
    seeds = {entry: seed for seed, entry in enumerate(ranked, start=1)}
    (game,) = write_games(stage, [tables], [first_game_number(stage)], seeds)
    return game


def remove_planned_games(stage: Stage) -> None:
    """The stage's games, all still planned, removed (a stage seated by rank cleared, to be seated again)."""
    assert not stage.game_set.exclude(status=Game.Status.PLANNED).exists(), "only planned games are removed"
    Game.objects.filter(stage=stage).delete()


def free_game_numbers(stage: Stage, played: Sequence[Game]) -> list[int]:
    """The stage's game numbers not taken by published games, in order (games may be published out of order)."""
    first = first_game_number(stage)
    taken = {g.number for g in played}
    return [n for n in range(first, first + stage.games) if n not in taken]


def _seating_message(error: seating.SeatingError, stage: Stage) -> str:
    """The engine's refusal in the organizer's language where it concerns them (the player count)."""
    count = seatable_entries(stage.tournament_id).count()
    if count in (0, 1, 2, 5):
        return _("%(n)d players cannot be seated at tables of 3 or 4: a stage needs 3, 4 or at least 6 players.") \
            % {"n": count}
    return str(error)


def generate_seating(stage_id: int, *, user, seed: int = 0, budget: int | None = None,
                     progress: Callable[[float], None] | None = None) -> seating.SeatingResult:
    """(Re-)plan every game of the stage not yet published, keeping the published ones as history.

    The search runs outside any transaction (it can take a minute); the write afterwards is short
    and refuses if the stage changed meanwhile (a game published, a player withdrawn, a pair declared).
    """
    stage = Stage.objects.select_related("tournament").get(pk=stage_id)
    require_organizer(user, stage.tournament)
    if stage.seating != Stage.Seating.SCHEDULED:
        raise ValidationError(_("%(stage)s is seeded by rank, not generated.") % {"stage": stage.name})
    try:
        plan = stage_plan(stage, seed=seed)
        if len(plan.played) >= stage.games:
            raise ValidationError(_("Every game of %(stage)s is already published.") % {"stage": stage.name})
        result = seating.seat(plan.problem, budget=budget, progress=progress)
    except seating.SeatingError as error:
        raise ValidationError(_seating_message(error, stage)) from error
    with transaction.atomic():
        stage = Stage.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=stage_id)
        if stage_plan(stage, seed=seed).fingerprint != plan.fingerprint:
            raise ValidationError(_("%(stage)s changed while its seating was being planned (a game was published, "
                                    "a player withdrew or a relationship was declared). Nothing was written: "
                                    "generate the seating again.") % {"stage": stage.name})
        Game.objects.filter(pk__in=[g.pk for g in plan.planned]).delete()
        tables = cast(Sequence[Sequence[Sequence[int]]], result.schedule.games)  # stage_plan gave the engine entry ids
        games = write_games(stage, tables, free_game_numbers(stage, plan.played))
        report = result.report
        record_change(user, stage.tournament_id, Action.SEATING_GENERATED, stage, after={
            "games": [g.number for g in games], "seed": seed, "friend_conflicts": len(report.friend_conflicts),
            "repeat_pairings": report.repeat_pairings, "position_repeats": report.position_repeats,
            "same_country_tablemates": report.same_country_tablemates, "repeat_bound": report.repeat_bound,
            "position_bound": report.position_bound, "country_bound": report.country_bound,
        })
        announce(stage.tournament_id)
    return result


def swap_seats(game_id: int, first_entry: int, second_entry: int, *, user, layout: str | None = None) -> Game:
    """Exchange two players' seats in a planned game (tables and positions).

    `layout` is the `layout_token` the organizer saw; a repeated or stale swap is refused, so a
    double submission cannot swap the players back.
    """
    with transaction.atomic():
        game = _locked_for_organizer(game_id, user)
        _swap(game, first_entry, second_entry, user=user, layout=layout)
    return game


def _locked_for_organizer(game_id: int, user) -> Game:
    """The game, locked until the transaction ends, once the user is known to organize its tournament."""
    game = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game_id)
    require_organizer(user, game.tournament)
    return game


def _swap(game: Game, first_entry: int, second_entry: int, *, user, layout: str | None) -> None:
    """`swap_seats` inside its transaction, the game locked and the user's permission checked."""
    if game.status != Game.Status.PLANNED:
        raise ValidationError(_("Game %(n)d is published; its seating can no longer be changed by hand.")
                              % {"n": game.number})
    if layout is not None and layout != layout_token(game):
        raise ValidationError(_("The seating of game %(n)d changed since this page was loaded; nothing was "
                                "swapped. Check the tables below and try again.") % {"n": game.number})
    seats = {s.entry_id: s for s in Seat.objects.select_for_update(of=("self",)).select_related(
        "table", "entry__player").filter(game=game, entry__in=[first_entry, second_entry])}
    if first_entry == second_entry or len(seats) != 2:
        raise ValidationError(_("Choose two different players seated in game %(n)d.") % {"n": game.number})
    one, other = seats[first_entry], seats[second_entry]
    before = {s.entry.player.name: [s.table.number, s.position] for s in (one, other)}
    Seat.objects.filter(pk__in=[one.pk, other.pk]).delete()
    Seat.objects.bulk_create([  # a player's seed (seeded stages) goes with them
        Seat(table_id=other.table_id, position=other.position, game=game, entry_id=first_entry, seed=one.seed),
        Seat(table_id=one.table_id, position=one.position, game=game, entry_id=second_entry, seed=other.seed),
    ])
    record_change(user, game.tournament_id, Action.SEATING_SWAPPED, game, before=before, after={
        one.entry.player.name: [other.table.number, other.position],
        other.entry.player.name: [one.table.number, one.position]})


def swap_seats_at(game_id: int, first: tuple[int, int], second: tuple[int, int], *, user,
                  layout: str | None = None) -> Game:
    """Exchange the players in two seats of a planned game, each given as (table number, position): the
    two seats the organizer picked on the stage page."""
    with transaction.atomic():
        game = _locked_for_organizer(game_id, user)
        at = {(table, position): entry for table, position, entry in Seat.objects.filter(
            game=game, table__number__in=[first[0], second[0]]).values_list("table__number", "position", "entry_id")}
        missing = [f"{t}.{p}" for t, p in (first, second) if (t, p) not in at]
        if missing:
            raise ValidationError(_("Game %(n)d has no seat %(seats)s (a seat is a table number and a position, "
                                    "such as 12.3).") % {"n": game.number, "seats": ", ".join(missing)})
        _swap(game, at[first], at[second], user=user, layout=layout)
    return game


def mark_published(game: Game) -> None:
    """Part of `results.publishing.publish_game`, which locks the game, checks permission and opens the sheets
    (and of `results.publishing.reconcile_game_status`, for a finished game with a sheet not signed off)."""
    game.status = Game.Status.PUBLISHED
    game.save(update_fields=["status"])


def mark_planned(game: Game) -> None:
    """Part of `results.publishing.unpublish_game`, which first makes sure no result is lost."""
    game.status = Game.Status.PLANNED
    game.save(update_fields=["status"])


def mark_finished(game: Game) -> None:
    """Part of `results.sheets.sign_off`, once every table of the game is signed off (and of
    `results.publishing.reconcile_game_status`, which repairs a game whose status disagrees with its sheets)."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)


def reorder_table(table: Table, entry_ids: Sequence[int]) -> None:
    """Seat the table's players in this play order, each keeping their seed (part of
    `results.publishing.record_play_order`)."""
    seeds = dict(table.seats.values_list("entry_id", "seed"))
    table.seats.all().delete()
    Seat.objects.bulk_create(Seat(table=table, game_id=table.game_id, entry_id=entry, position=position,
                                  seed=seeds.get(entry))
                             for position, entry in enumerate(entry_ids, start=1))
