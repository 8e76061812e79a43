"""Reading the `seat` command's CSV files, with every problem tied to FILE:LINE.

PLAYERS: `player` plus optional `country`; RELATIONS: `player_a,player_b` (docs/interfaces.md).
`engines.csv_input` reads the files; this module checks what their rows mean. Rows shorter or longer
than the header are read as they are (missing cells empty), as they always were for `seat`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from engines.csv_input import InputError, InputProblem, read_file

from .engine import SeatingError, table_sizes


@dataclass(frozen=True)
class Roster:
    players: tuple[str, ...]
    countries: dict[Hashable, str]
    """Keyed by player name (the seating engine's players are any hashable ids)."""


def read_players(path: str) -> Roster:
    """Players in file order and their countries; names must be present and unique."""
    rows, problems = read_file(path, ("player",), ragged=True)
    players: list[str] = []
    countries: dict[Hashable, str] = {}
    first_line: dict[str, int] = {}
    last = 1
    for line, row in rows:
        last = line
        name = row["player"]
        if not name:
            problems.append(InputProblem(line, "empty player name"))
            continue
        if name in first_line:
            problems.append(InputProblem(line, f"duplicate player {name!r} (first on line {first_line[name]})"))
            continue
        first_line[name] = line
        players.append(name)
        if row.get("country"):
            countries[name] = row["country"].upper()
    if not problems:
        try:
            table_sizes(len(players))
        except SeatingError as error:
            problems.append(InputProblem(last, str(error)))
    if problems:
        raise InputError(path, problems)
    return Roster(tuple(players), countries)


def read_relations(path: str, players: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Declared friend/family pairs, both named players; repeated pairs are kept once."""
    known = set(players)
    rows, problems = read_file(path, ("player_a", "player_b"), ragged=True)
    pairs: dict[frozenset[str], tuple[str, str]] = {}
    for line, row in rows:
        a, b = row["player_a"], row["player_b"]
        unknown = [name for name in (a, b) if name not in known]
        if not a or not b:
            problems.append(InputProblem(line, "empty player name"))
        elif unknown:
            problems.extend(InputProblem(line, f"unknown player {name!r} (not in the players file)")
                            for name in unknown)
        elif a == b:
            problems.append(InputProblem(line, f"{a!r} is paired with themselves"))
        else:
            pairs.setdefault(frozenset((a, b)), (a, b))
    if problems:
        raise InputError(path, problems)
    return tuple(pairs.values())
