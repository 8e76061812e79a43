"""Checks of one entered table result, shared by the `rank` command, the engine and the record-sheet form.

Each problem names the player and field it belongs to, so a form can show it beside that field.
Values arrive as entered: a VP or duration that is not a whole number is reported, not raised.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeGuard, TypeVar

from engines.ranking.problems import Problem
from engines.rulesets import TABLE_SIZES, Ruleset

MIN_VP, MAX_VP = 0, 12
WINNING_VP = 10
MAX_GAME_MINUTES = 24 * 60
"""A duration beyond a day is a typing error (the record sheet's clock times cannot give more)."""

T = TypeVar("T", bound=Hashable)
Seat = tuple[Hashable, object, bool | None]
"""(player, VP as entered, winner flag or None when the sheet has no winner column)."""


def is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _inferred_winners(seats: Sequence[Seat]) -> list[bool] | Problem:
    """Recorded flags (None counts as not winning) or, with no flag at all, the single ≥ 10 VP player."""
    if any(w is not None for _, _, w in seats):
        return [bool(w) for _, _, w in seats]
    high = [p for p, vp, _ in seats if is_whole(vp) and WINNING_VP <= vp <= MAX_VP]
    if len(high) > 1:
        return Problem(None, "winner", "winner_ambiguous", {"players": tuple(high), "min": WINNING_VP})
    return [p in high for p, _, _ in seats]


def winner_flags(seats: Sequence[Seat]) -> list[bool]:
    """The winner flag of each seat, inferring it when none is recorded; call after `check_table`."""
    flags = _inferred_winners(seats)
    if isinstance(flags, Problem):
        raise ValueError(flags.message)
    return flags


def valid_vp(vp: object) -> TypeGuard[int]:
    return is_whole(vp) and MIN_VP <= vp <= MAX_VP


def _vp_problem(player: Hashable, vp: object, seat: int) -> Problem | None:
    if vp is None:
        return Problem(player, "vp", "vp_missing", {"player": player}, seat)
    if not valid_vp(vp):
        return Problem(player, "vp", "vp_range", {"player": player, "min": MIN_VP, "max": MAX_VP, "value": repr(vp)},
                       seat)
    return None


def _minutes_problem(minutes: object, required_by: str | None) -> Problem | None:
    """`required_by` names the ruleset that ranks by game duration, if any."""
    if minutes is None:
        return Problem(None, "minutes", "minutes_required", {"ruleset": required_by}) if required_by else None
    if not is_whole(minutes) or minutes <= 0:
        return Problem(None, "minutes", "minutes_invalid", {"value": repr(minutes)})
    if minutes > MAX_GAME_MINUTES:
        return Problem(None, "minutes", "minutes_too_long", {"value": minutes, "max": MAX_GAME_MINUTES})
    return None


def check_deduction(vp: object) -> str | None:
    """What is wrong with a VP deduction (in English, for the files that carry one), or None."""
    if not is_whole(vp) or vp <= 0:
        return Problem(None, "vp", "deduction_invalid", {"value": repr(vp)}).message
    return None


def check_table(
    seats: Sequence[Seat], *, minutes: object = None, ruleset: Ruleset | None = None,
) -> list[Problem]:
    """Everything wrong with one table's result; an empty list means it can be ranked."""
    problems: list[Problem] = []
    sizes = ruleset.table_sizes if ruleset is not None else TABLE_SIZES
    if len(seats) not in sizes:
        problems.append(Problem(None, "seats", "table_size", {"sizes": " or ".join(map(str, sizes)),
                                                              "count": len(seats)}))
    seen: set[Hashable] = set()
    for i, (player, vp, _) in enumerate(seats):
        if player is None or player == "":
            problems.append(Problem(None, "player", "player_missing", seat=i))
        elif player in seen:
            problems.append(Problem(player, "player", "player_twice", {"player": player}, i))
        seen.add(player)
        if (problem := _vp_problem(player, vp, i)) is not None:
            problems.append(problem)
    flags = _inferred_winners(seats)
    if isinstance(flags, Problem):
        problems.append(flags)
    elif sum(flags) == 0 and all(w is None for _, _, w in seats):
        problems.append(Problem(None, "winner", "no_winner", {"min": WINNING_VP}))
    elif sum(flags) == 0:
        problems.append(Problem(None, "winner", "no_winner_marked"))
    elif sum(flags) > 1:
        winners = [p for (p, _, _), w in zip(seats, flags) if w]
        problems.append(Problem(None, "winner", "several_winners", {"players": tuple(winners)}))
    else:
        i = flags.index(True)
        player, vp, _ = seats[i]
        if is_whole(vp) and vp < WINNING_VP:
            problems.append(Problem(player, "vp", "winner_below_min", {"player": player, "vp": vp, "min": WINNING_VP},
                                    i))
    required_by = ruleset.key if ruleset is not None and ruleset.requires_minutes else None
    if (problem := _minutes_problem(minutes, required_by)) is not None:
        problems.append(problem)
    return problems


def players_seated_twice(tables: Iterable[tuple[T, Sequence[Hashable]]]) -> list[tuple[T, Problem]]:
    """Players seated at two tables of one game, as (later table, problem with its seat there) pairs.

    `tables` is (table number, players in seat order) for every table of the game. A player entered
    twice at the same table is `check_table`'s business, not reported here.
    """
    first_table: dict[Hashable, T] = {}
    found: list[tuple[T, Problem]] = []
    for table, players in tables:
        for i, player in enumerate(players):
            if player is None or player == "":
                continue
            seen_at = first_table.setdefault(player, table)
            if seen_at != table:
                found.append((table, Problem(player, "player", "seated_twice", {"player": player, "table": seen_at},
                                             i)))
    return found
