"""Reading the `seat` command's CSV files, with every problem tied to FILE:LINE.

PLAYERS: `player` plus optional `country`; RELATIONS: `player_a,player_b` (DESIGN.md). Files are
UTF-8, with or without a byte-order mark. No Django here, so the parsing is testable alone.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass

from .engine import SeatingError, table_sizes


@dataclass(frozen=True)
class CsvProblem:
    line: int | None
    """1-based line of the file; None when the problem is the file itself."""
    message: str


class CsvError(ValueError):
    """Everything wrong with one input file, each problem rendered as FILE:LINE: message."""

    def __init__(self, path: str, problems: list[CsvProblem]) -> None:
        self.path, self.problems = path, problems
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        return [
            f"{self.path}:{p.line}: {p.message}" if p.line else f"{self.path}: {p.message}"
            for p in self.problems
        ]


@dataclass(frozen=True)
class Roster:
    players: tuple[str, ...]
    countries: dict[str, str]


def _rows(path: str, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line, row) pairs with stripped cells; a missing file, column or encoding is a CsvError."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            header = [cell.strip().lower() for cell in next(reader, [])]
            if not header:
                problem = f"empty file; expected a header row {','.join(required)}"
                raise CsvError(path, [CsvProblem(1, problem)])
            missing = [name for name in required if name not in header]
            if missing:
                problem = f"missing column {', '.join(missing)} (header: {','.join(header)})"
                raise CsvError(path, [CsvProblem(1, problem)])
            for cells in reader:
                if any(cell.strip() for cell in cells):
                    padded = [*cells, *[""] * (len(header) - len(cells))]
                    yield reader.line_num, {name: padded[i].strip() for i, name in enumerate(header)}
    except OSError as error:
        problem = f"cannot read the file ({error.strerror or error})"
        raise CsvError(path, [CsvProblem(None, problem)]) from None
    except UnicodeDecodeError:
        raise CsvError(path, [CsvProblem(None, "not UTF-8 text")]) from None
    except csv.Error as error:
        raise CsvError(path, [CsvProblem(None, f"not a readable CSV file ({error})")]) from None


def read_players(path: str) -> Roster:
    """Players in file order and their countries; names must be present and unique."""
    problems: list[CsvProblem] = []
    players: list[str] = []
    countries: dict[str, str] = {}
    first_line: dict[str, int] = {}
    last = 1
    for line, row in _rows(path, ("player",)):
        last = line
        name = row["player"]
        if not name:
            problems.append(CsvProblem(line, "empty player name"))
            continue
        if name in first_line:
            problems.append(CsvProblem(line, f"duplicate player {name!r} (first on line {first_line[name]})"))
            continue
        first_line[name] = line
        players.append(name)
        if row.get("country"):
            countries[name] = row["country"].upper()
    if not problems:
        try:
            table_sizes(len(players))
        except SeatingError as error:
            problems.append(CsvProblem(last, str(error)))
    if problems:
        raise CsvError(path, problems)
    return Roster(tuple(players), countries)


def read_relations(path: str, players: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Declared friend/family pairs, both named players; repeated pairs are kept once."""
    known = set(players)
    problems: list[CsvProblem] = []
    pairs: dict[frozenset[str], tuple[str, str]] = {}
    for line, row in _rows(path, ("player_a", "player_b")):
        a, b = row["player_a"], row["player_b"]
        unknown = [name for name in (a, b) if name not in known]
        if not a or not b:
            problems.append(CsvProblem(line, "empty player name"))
        elif unknown:
            problems.extend(CsvProblem(line, f"unknown player {name!r} (not in the players file)")
                            for name in unknown)
        elif a == b:
            problems.append(CsvProblem(line, f"{a!r} is paired with themselves"))
        else:
            pairs.setdefault(frozenset((a, b)), (a, b))
    if problems:
        raise CsvError(path, problems)
    return tuple(pairs.values())
