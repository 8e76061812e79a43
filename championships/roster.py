"""Registration lists (CSV) read into plain rows, with every problem named by line and column.

Columns: name (required), email, date_of_birth (YYYY-MM-DD), country (ISO 3166 alpha-2) and
friends_or_family (names of other players in the file, separated by ';').
"""
from dataclasses import dataclass
from datetime import date

from engines.csv_input import InputError, InputProblem, read_text


@dataclass(frozen=True)
class RosterRow:
    line: int
    name: str
    email: str
    date_of_birth: date | None
    country: str
    friends_or_family: tuple[str, ...]


def parse_roster(text: str) -> list[RosterRow]:
    """Read the whole file; raise InputError listing every problem, so one upload fixes them all.

    Short rows are read with the missing cells empty, as spreadsheets often write them.
    """
    records, problems = read_text(text, ("name",), ragged=True)
    rows: list[RosterRow] = []
    seen: dict[str, int] = {}
    for line, record in records:
        name = record["name"]
        if not name:
            problems.append(InputProblem(line, "the name is empty", "name"))
            continue
        if name.casefold() in seen:
            problems.append(InputProblem(line, f"{name} is already on line {seen[name.casefold()]}", "name"))
            continue
        seen[name.casefold()] = line
        born = None
        if record.get("date_of_birth"):
            try:
                born = date.fromisoformat(record["date_of_birth"])
            except ValueError:
                problems.append(InputProblem(line, f"'{record['date_of_birth']}' is not a date like 1990-05-31",
                                             "date_of_birth"))
        country = record.get("country", "").upper()
        if country and not (len(country) == 2 and country.isalpha()):
            problems.append(InputProblem(line, f"'{country}' is not a two-letter country code", "country"))
        friends = tuple(n.strip() for n in record.get("friends_or_family", "").split(";") if n.strip())
        rows.append(RosterRow(line, name, record.get("email", ""), born, country, friends))
    for row in rows:
        for friend in row.friends_or_family:
            if friend.casefold() not in seen:
                problems.append(InputProblem(row.line, f"{friend} is not in the file", "friends_or_family"))
            elif friend.casefold() == row.name.casefold():
                problems.append(InputProblem(row.line, "a player cannot name themselves", "friends_or_family"))
    if problems:
        raise InputError(None, problems)
    return rows
