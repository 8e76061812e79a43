"""`manage.py rank RESULTS.csv --rules RULESET [--penalties FILE] [--json]` (interface fixed by docs/interfaces.md).

The JSON array is written one player at a time, exactly as `json.dumps(array, indent=2)` writes it, so
that ranking 100,000 players never holds every standing, nor the whole text, at once.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import NoReturn

from django.core.management.base import BaseCommand, CommandError

from engines.csv_input import InputError
from engines.metrics import METRICS
from engines.ranking.csv_files import read_penalties, read_results
from engines.ranking.engine import Standing, iter_standings, player_records
from engines.rulesets import RULESETS, Ruleset


def write_json_array(standings: Iterable[Standing], write: Callable[[str], None]) -> None:
    """The standings as `json.dumps([s.as_json() for s in standings], indent=2)` prints them, piece by piece."""
    opening = "[\n  "
    for standing in standings:
        write(opening + json.dumps(standing.as_json(), indent=2).replace("\n", "\n  "))
        opening = ",\n  "
    write("[]" if opening == "[\n  " else "\n]")


def format_table(standings: list[Standing], rules: Ruleset) -> str:
    """Aligned plain-text standings: rank ("=" when shared), player, games, wins, total VP, tiebreakers."""
    keys = rules.columns
    header = ["Rank ", "Player", *(METRICS[k].label for k in keys)]
    rows = [
        [f"{s.rank}=" if s.tied else f"{s.rank} ", str(s.player),
         *(METRICS[k].display(s.values[k]) for k in keys)]
        for s in standings
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) if i == 1 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths)))
        for r in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if any(s.tied for s in standings):
        lines.append("")
        lines.append("= still equal after every tiebreaker; where it matters the referee runs a card draw.")
    return "\n".join(line.rstrip() for line in lines)


class Command(BaseCommand):
    help = ("Rank players from a CSV of table results (game,table,player,vp [,winner] [,minutes]). "
            "Bad input exits with status 2 and FILE:LINE: problem on stderr.")

    def add_arguments(self, parser):
        parser.add_argument("results", metavar="RESULTS.csv", help="one row per player per game")
        parser.add_argument("--rules", required=True, metavar="RULESET",
                            help=f"one of: {', '.join(RULESETS)}")
        parser.add_argument("--penalties", metavar="FILE",
                            help="CSV player,vp: VP deducted from a player's total")
        parser.add_argument("--json", action="store_true", help="print a JSON array instead of a table")

    def handle(self, *args, results: str, rules: str, penalties: str | None, **options) -> None:
        if rules not in RULESETS:
            self._fail([f"unknown ruleset {rules!r}; choose one of {', '.join(RULESETS)}."])
        ruleset = RULESETS[rules]
        try:
            tables = read_results(results, ruleset)
            deductions = read_penalties(penalties, tables.players) if penalties else {}
        except InputError as e:
            self._fail(e.lines())
        records = player_records(tables, ruleset, deductions=deductions)
        del tables  # the records hold what ranking needs
        standings = iter_standings(records, ruleset)
        if options["json"]:
            write_json_array(standings, lambda text: self.stdout.write(text, ending=""))
            self.stdout.write("")
        else:
            self.stdout.write(format_table(list(standings), ruleset))

    def _fail(self, lines: list[str]) -> NoReturn:
        for line in lines:
            self.stderr.write(line)
        raise CommandError(f"nothing ranked: {len(lines)} problem(s) in the input.", returncode=2)
