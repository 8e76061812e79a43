"""Checks of one entered table result, shared by the `rank` command, the engine and the record-sheet form.

Each problem names the player and field it belongs to, so a form can show it beside that field.
Values arrive as entered: a VP or duration that is not a whole number is reported, not raised.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeGuard, TypeVar

from engines.rulesets import TABLE_SIZES, Ruleset

MIN_VP, MAX_VP = 0, 12
WINNING_VP = 10

T = TypeVar("T", bound=Hashable)
Seat = tuple[Hashable, object, bool | None]
"""(player, VP as entered, winner flag or None when the sheet has no winner column)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entered table; `player` is None when it concerns the whole table."""

    player: Hashable | None
    field: str
    """"player", "vp", "winner", "minutes" or "seats"."""
    message: str
    seat: int | None = None
    """Index of the seat it belongs to (names can be missing or repeated), None for the whole table."""


def is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(players: Iterable[Hashable]) -> str:
    names = [str(p) for p in players]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _inferred_winners(seats: Sequence[Seat]) -> list[bool] | Problem:
    """Recorded flags (None counts as not winning) or, with no flag at all, the single ≥ 10 VP player."""
    if any(w is not None for _, _, w in seats):
        return [bool(w) for _, _, w in seats]
    high = [p for p, vp, _ in seats if is_whole(vp) and WINNING_VP <= vp <= MAX_VP]
    if len(high) > 1:
        return Problem(None, "winner", f"{_names(high)} have {WINNING_VP} or more VP each, so the winner "
                                       f"cannot be inferred: mark the winner (add a winner column, 1 for the "
                                       f"winner, 0 for the others).")
    return [p in high for p, _, _ in seats]


def winner_flags(seats: Sequence[Seat]) -> list[bool]:
    """The winner flag of each seat, inferring it when none is recorded; call after `check_table`."""
    flags = _inferred_winners(seats)
    if isinstance(flags, Problem):
        raise ValueError(flags.message)
    return flags


def check_vp(vp: object) -> str | None:
    if not is_whole(vp) or not MIN_VP <= vp <= MAX_VP:
        return f"VP must be a whole number from {MIN_VP} to {MAX_VP}, not {vp!r}."
    return None


def check_minutes(minutes: object, *, required_by: str | None = None) -> str | None:
    """`required_by` names the ruleset that ranks by game duration, if any."""
    if minutes is None:
        return f"The game duration in minutes is required by {required_by}." if required_by else None
    if not is_whole(minutes) or minutes <= 0:
        return f"The game duration must be a positive whole number of minutes, not {minutes!r}."
    return None


def check_deduction(vp: object) -> str | None:
    if not is_whole(vp) or vp <= 0:
        return f"A VP deduction must be a positive whole number, not {vp!r}."
    return None


def check_table(
    seats: Sequence[Seat], *, minutes: object = None, ruleset: Ruleset | None = None,
) -> list[Problem]:
    """Everything wrong with one table's result; an empty list means it can be ranked."""
    problems: list[Problem] = []
    sizes = ruleset.table_sizes if ruleset is not None else TABLE_SIZES
    if len(seats) not in sizes:
        allowed = " or ".join(map(str, sizes))
        problems.append(Problem(None, "seats", f"A table has {allowed} players; this one has {len(seats)}."))
    seen: set[Hashable] = set()
    for i, (player, vp, _) in enumerate(seats):
        if player is None or player == "":
            problems.append(Problem(None, "player", "A player's name is missing.", i))
        elif player in seen:
            problems.append(Problem(player, "player", f"{player} is entered twice at this table.", i))
        seen.add(player)
        if (message := check_vp(vp)) is not None:
            problems.append(Problem(player, "vp", f"{player}: {message}", i))
    flags = _inferred_winners(seats)
    if isinstance(flags, Problem):
        problems.append(flags)
    elif sum(flags) == 0 and all(w is None for _, _, w in seats):
        problems.append(Problem(None, "winner", f"No winner: nobody has {WINNING_VP} or more VP."))
    elif sum(flags) == 0:
        problems.append(Problem(None, "winner", "No winner is marked: exactly one player wins each table."))
    elif sum(flags) > 1:
        winners = [p for (p, _, _), w in zip(seats, flags) if w]
        problems.append(Problem(None, "winner", f"{_names(winners)} are marked as winners: exactly one "
                                                f"player wins each table."))
    else:
        i = flags.index(True)
        player, vp, _ = seats[i]
        if is_whole(vp) and vp < WINNING_VP:
            problems.append(Problem(player, "vp", f"{player} won with {vp} VP: a winner has at least "
                                                  f"{WINNING_VP}.", i))
    required_by = ruleset.key if ruleset is not None and ruleset.requires_minutes else None
    if (message := check_minutes(minutes, required_by=required_by)) is not None:
        problems.append(Problem(None, "minutes", message))
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
                message = f"{player} is also seated at table {seen_at} in this game."
                found.append((table, Problem(player, "player", message, i)))
    return found
