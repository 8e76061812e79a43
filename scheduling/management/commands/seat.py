"""`manage.py seat PLAYERS.csv --games G [--relations REL.csv] [--rules RULESET] [--seed N] [--out FILE] [--effort E]`.

The interface is fixed by docs/interfaces.md: the schedule as CSV `game,table,position,player` on stdout
or in FILE, the quality report on stderr. Bad input exits with status 2, FILE:LINE: problem on
stderr and nothing on stdout.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engines.csv_input import InputError
from engines.rulesets import RULESETS
from engines.seating.csv_files import read_players, read_relations
from engines.seating.engine import (
    EFFORTS,
    MAX_EFFORT,
    MIN_EFFORT,
    QualityReport,
    SeatingError,
    SeatingProblem,
    effort_factor,
    seat,
    table_sizes,
)

MAX_GAMES = 100
"""More games than any stage plays (at most 20): a bigger number is a typing error, and planning
millions of games would run until the machine runs out of memory."""


class Command(BaseCommand):
    help = (
        "Plan the tables and play order of every game of a stage: friends/family apart, fewest "
        "repeat pairings, and where the ruleset asks for them distinct positions and no compatriots at a table. "
        "Same seed, same schedule."
    )
    # Pure computation: no models, so skip the system checks and start fast.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("players", metavar="PLAYERS.csv", help="columns: player [, country]")
        parser.add_argument("--games", type=int, required=True, metavar="G", help="number of games to plan")
        parser.add_argument("--relations", metavar="REL.csv", help="friends/family: player_a,player_b")
        parser.add_argument(
            "--rules", choices=RULESETS, metavar="RULESET",
            help=f"one of: {', '.join(RULESETS)}; "
            + "; ".join(f"{r.key} asks for distinct positions and country spread" for r in RULESETS.values()
                        if r.distinct_positions),
        )
        parser.add_argument("--seed", type=int, default=0, help="same seed, same schedule (default 0)")
        parser.add_argument("--out", metavar="FILE", help="write the CSV here instead of stdout")
        parser.add_argument(
            "--effort", default="normal", metavar="E",
            help=f"how long the search may look for a better schedule: {', '.join(EFFORTS)} (default normal), or "
            f"a multiplier of the normal work from {MIN_EFFORT:g} to {MAX_EFFORT:g}; same seed and effort, "
            "same schedule",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            self._fail([f"--games: must be at least 1, not {options['games']}"])
        if options["games"] > MAX_GAMES:
            self._fail([f"--games: must be at most {MAX_GAMES}, not {options['games']}"])
        try:
            effort = effort_factor(options["effort"])
        except SeatingError as error:
            self._fail([f"--effort: {error}"])
        try:
            roster = read_players(options["players"])
            relations = read_relations(options["relations"], roster.players) if options["relations"] else ()
        except InputError as error:
            self._fail(error.lines())
        wanted = RULESETS[options["rules"]] if options["rules"] else None
        problem = SeatingProblem(
            players=roster.players,
            games=options["games"],
            relations=relations,
            countries=roster.countries,
            distinct_positions=bool(wanted and wanted.distinct_positions),
            spread_countries=bool(wanted and wanted.spread_countries),
            seed=options["seed"],
        )
        result = seat(problem, effort=effort)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["game", "table", "position", "player"])
        writer.writerows(result.schedule.rows())
        if options["out"]:
            try:
                with open(options["out"], "w", encoding="utf-8", newline="") as handle:
                    handle.write(buffer.getvalue())
            except OSError as error:
                self._fail([f"{options['out']}: cannot write the file ({error.strerror or error})"])
        else:
            self.stdout.write(buffer.getvalue(), ending="")
        self.stderr.write(describe(problem, result.report, options["rules"], options["effort"]))

    def _fail(self, lines: list[str]) -> None:
        for line in lines:
            self.stderr.write(line)
        raise CommandError(f"nothing seated: {len(lines)} problem(s) in the input.", returncode=2)


def describe(problem: SeatingProblem, report: QualityReport, rules: str | None, effort: str = "normal") -> str:
    """The quality report as short lines, every friend conflict named; an effort other than normal is
    named beside the seed, since both are needed to plan the same schedule again."""
    sizes = table_sizes(len(problem.players))
    layout = " + ".join(f"{sizes.count(s)}×{s}" for s in (4, 3) if s in sizes)
    lines = [
        f"seated {len(problem.players)} players in {problem.games} game(s) of {layout} tables"
        f" (rules {rules or 'none'}, seed {problem.seed}"
        + ("" if effort_factor(effort) == EFFORTS["normal"] else f", effort {effort.strip()}") + ")",
        f"friend conflicts: {len(report.friend_conflicts)}",
        *(f"  game {game}: {a} and {b} share a table" for game, (a, b) in report.friend_conflicts),
        f"repeated pairings: {report.repeat_pairings}" + _repeats_note(report),
        *(f"  {a} and {b} meet {times} times" for (a, b), times in report.repeated_pairs),
        f"position repeats: {report.position_repeats}"
        + (_proven_note(report.position_repeats, report.position_bound) if problem.distinct_positions
           else " (distinct positions not asked for)"),
        f"same-country tablemates: {report.same_country_tablemates}"
        + (_proven_note(report.same_country_tablemates, report.country_bound) if problem.spread_countries
           else " (country spread not asked for)"),
        f"seconds: {report.seconds:.2f}",
        *(["stopped by the time guard: result may differ from run to run"] if report.stopped_by_time_guard else []),
    ]
    return "\n".join(lines)


def _repeats_note(report: QualityReport) -> str:
    """"Fewest possible" only when proven; otherwise what is proven unavoidable."""
    if not report.repeat_pairings or report.repeat_bound is None:
        return ""
    if report.fewest_repeats_proven:
        return " (the fewest possible, proven)"
    return (f" (at least {report.repeat_bound} cannot be avoided, proven; whether fewer than "
            f"{report.repeat_pairings} are possible is not established)")


def _proven_note(count: int, bound: int | None) -> str:
    """"Fewest possible" only when proven: forced by the table sizes, the games played or the countries."""
    if not count or not bound:
        return ""
    if count <= bound:
        return " (the fewest possible, proven)"
    return f" (at least {bound} cannot be avoided, proven)"
