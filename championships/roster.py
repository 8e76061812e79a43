"""Registration lists (CSV) read into plain rows, with every problem named by line and column.

Columns: name (required), email, date_of_birth (YYYY-MM-DD), country (ISO 3166 alpha-2) and
friends_or_family (names of other players in the file, separated by ';').
"""
import csv
import io
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class RosterRow:
    line: int
    name: str
    email: str
    date_of_birth: date | None
    country: str
    friends_or_family: tuple[str, ...]


@dataclass(frozen=True)
class RosterProblem:
    line: int
    column: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, {self.column}: {self.message}"


class RosterError(ValueError):
    def __init__(self, problems: list[RosterProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


def parse_roster(text: str) -> list[RosterRow]:
    """Read the whole file; raise RosterError listing every problem, so one upload fixes them all."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if not reader.fieldnames or "name" not in [f.strip() for f in reader.fieldnames]:
        raise RosterError([RosterProblem(1, "name", "the header row must have a 'name' column")])
    rows, problems, seen = [], [], {}
    for line, raw in enumerate(reader, start=2):
        record = {(k or "").strip(): (v or "").strip() for k, v in raw.items()}
        name = record.get("name", "")
        if not name:
            problems.append(RosterProblem(line, "name", "the name is empty"))
            continue
        if name.casefold() in seen:
            problems.append(RosterProblem(line, "name", f"{name} is already on line {seen[name.casefold()]}"))
            continue
        seen[name.casefold()] = line
        born = None
        if record.get("date_of_birth"):
            try:
                born = date.fromisoformat(record["date_of_birth"])
            except ValueError:
                problems.append(RosterProblem(line, "date_of_birth",
                                              f"'{record['date_of_birth']}' is not a date like 1990-05-31"))
        country = record.get("country", "").upper()
        if country and not (len(country) == 2 and country.isalpha()):
            problems.append(RosterProblem(line, "country", f"'{country}' is not a two-letter country code"))
        friends = tuple(n.strip() for n in record.get("friends_or_family", "").split(";") if n.strip())
        rows.append(RosterRow(line, name, record.get("email", ""), born, country, friends))
    for row in rows:
        for friend in row.friends_or_family:
            if friend.casefold() not in seen:
                problems.append(RosterProblem(row.line, "friends_or_family", f"{friend} is not in the file"))
            elif friend.casefold() == row.name.casefold():
                problems.append(RosterProblem(row.line, "friends_or_family", "a player cannot name themselves"))
    if problems:
        raise RosterError(problems)
    return rows
