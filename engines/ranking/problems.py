"""What can be wrong with an entered table result, as codes with parameters, worded once here.

The engine and the checks report a `Problem` (a code and its parameters); the `rank` command
shows it in English, the record-sheet form translated (`render(problem, gettext)`), from the same
wording. `gettext_noop` marks each wording for the translation catalogs.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from typing import Any

from engines.metrics import gettext_noop

MESSAGES: dict[str, str] = {
    "table_size": gettext_noop("A table has %(sizes)s players; this one has %(count)d."),
    "table_twice": gettext_noop("This table is entered twice."),
    "player_missing": gettext_noop("A player's name is missing."),
    "player_twice": gettext_noop("%(player)s is entered twice at this table."),
    "seated_twice": gettext_noop("%(player)s is also seated at table %(table)s in this game."),
    "vp_missing": gettext_noop("Enter %(player)s's VP."),
    "vp_range": gettext_noop("%(player)s: VP must be a whole number from %(min)d to %(max)d, not %(value)s."),
    "winner_below_min": gettext_noop("%(player)s won with %(vp)d VP: a winner has at least %(min)d."),
    "winner_ambiguous": gettext_noop("%(players)s have %(min)d or more VP each, so the winner cannot be inferred: "
                                     "mark the winner (add a winner column, 1 for the winner, 0 for the others)."),
    "no_winner": gettext_noop("No winner: nobody has %(min)d or more VP."),
    "no_winner_marked": gettext_noop("No winner is marked: exactly one player wins each table."),
    "several_winners": gettext_noop("%(players)s are marked as winners: exactly one player wins each table."),
    "minutes_required": gettext_noop("The game duration in minutes is required by %(ruleset)s."),
    "minutes_invalid": gettext_noop("The game duration must be a positive whole number of minutes, not %(value)s."),
    "minutes_too_long": gettext_noop("The game duration must be at most %(max)d minutes, not %(value)d."),
    "deduction_invalid": gettext_noop("A VP deduction must be a positive whole number, not %(value)s."),
}
NAMES_JOINED = gettext_noop("%(names)s and %(last)s")
"""How a list of players reads: "Ann, Bob and Cid"."""


@dataclasses.dataclass(frozen=True)
class Problem:
    """One thing wrong with an entered table; `player` is None when it concerns the whole table."""

    player: Hashable | None
    field: str
    """"player", "vp", "winner", "minutes" or "seats"."""
    code: str
    """A key of MESSAGES."""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    seat: int | None = None
    """Index of the seat it belongs to (names can be missing or repeated), None for the whole table."""

    @property
    def message(self) -> str:
        """In English, for the command line."""
        return render(self)


def _identity(text: str) -> str:
    return text


def render(problem: Problem, translate: Callable[[str], str] = _identity) -> str:
    """The problem in words; `translate` is gettext for the web, nothing for the command line."""
    params = {
        key: _joined(value, translate) if isinstance(value, tuple) else value
        for key, value in problem.params.items()
    }
    return translate(MESSAGES[problem.code]) % params


def _joined(players: tuple[object, ...], translate: Callable[[str], str]) -> str:
    names = tuple(str(n) for n in players)
    if len(names) < 2:
        return "".join(names)
    return translate(NAMES_JOINED) % {"names": ", ".join(names[:-1]), "last": names[-1]}
