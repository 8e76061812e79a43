"""Standings metrics: each turns one player's games into a number where higher is better.

A ruleset (`engines.rulesets`) is a list of metric keys in precedence order; a new metric is one
`register_metric(Metric(...))`. Each metric carries its label and its unit, so the command line,
the web columns and the CSV export all name and show it the same way.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

Value = int | Fraction | None

WINNER_CAP = 10
DRAW = "draw"
"""The recorded card draw / lots: resolved by the engine inside groups still tied, so always last."""


class GameScore(NamedTuple):
    """One player's result in one game, as every metric sees it (a NamedTuple: built 40,000 times)."""

    game: int
    table: int
    vp: int
    """Counted VP: the recorded VP capped for ranking."""
    table_total: int
    """Sum of the counted VP at the table, plus the synthetic fourth score at a 3-player table."""
    place: int
    minutes: int | None


class PlayerRecord(NamedTuple):
    """Everything a metric may use about one player."""

    player: Hashable
    games: tuple[GameScore, ...]
    """In game order."""
    deduction: int = 0


def gettext_noop(message: str) -> str:
    """Marks a label for the translation catalogs (makemessages finds the name); the web translates it."""
    return message


class Unit:
    """How a metric's value reads: a count, a decimal, a share of 1 shown in percent, or percent points."""

    COUNT = "count"
    DECIMAL = "decimal"
    SHARE = "share"
    PERCENT = "percent"


@dataclass(frozen=True)
class Metric:
    """A named per-player value; `display` renders it for people (ordering uses the exact value)."""

    key: str
    label: str
    """In English, marked for translation."""
    compute: Callable[[PlayerRecord], Value]
    needs_minutes: bool = False
    unit: str = Unit.COUNT

    def display(self, value: Value, places: int = 4) -> str:
        """The value rounded to `places` decimals (counts as they are), "–" when there is none."""
        if value is None:
            return "–"
        if self.unit == Unit.SHARE:
            return f"{float(value) * 100:.{places}f} %"
        if self.unit == Unit.PERCENT:
            return f"{float(value):.{places}f} %"
        if self.unit == Unit.DECIMAL:
            return f"{float(value):.{places}f}"
        return str(value)


def _wins(r: PlayerRecord) -> int:
    return sum(1 for g in r.games if g.place == 1)


def _places(place: int) -> Callable[[PlayerRecord], int]:
    return lambda r: sum(1 for g in r.games if g.place == place)


def _total_vp(r: PlayerRecord) -> int:
    return sum(g.vp for g in r.games) - r.deduction


def _vp_share(r: PlayerRecord) -> Fraction:
    """One ratio over all games (not a sum of ratios); deductions never enter it."""
    total = sum(g.table_total for g in r.games)
    return Fraction(sum(g.vp for g in r.games), total) if total else Fraction(0)


def _vp_percent_sum(r: PlayerRecord) -> Fraction:
    """Σ 100·vp/table_total, summed over a plain integer numerator/denominator and reduced once (speed)."""
    num, den = 0, 1
    for g in r.games:
        num, den = num * g.table_total + g.vp * den, den * g.table_total
    return Fraction(100 * num, den)


def _tempo(r: PlayerRecord) -> Fraction | None:
    """Σ vp·table_total/minutes; None unless every game has a duration.

    A VP deduction comes off the counted VP of the player's last game (highest game number),
    never below 0 there, and the table total is left alone (docs/rules.md §4 Penalties).
    """
    num, den = 0, 1
    last = len(r.games) - 1
    for i, g in enumerate(r.games):
        if g.minutes is None:
            return None
        vp = max(0, g.vp - r.deduction) if i == last else g.vp
        num, den = num * g.minutes + vp * g.table_total * den, den * g.minutes
    return Fraction(num, den)


METRICS: dict[str, Metric] = {}
"""Every registered metric; every standing row carries all of them, whatever the ruleset."""


def register_metric(metric: Metric) -> Metric:
    if metric.key in METRICS or metric.key == DRAW:
        raise ValueError(f"metric {metric.key!r} is already registered")
    METRICS[metric.key] = metric
    return metric


for _metric in (
    Metric("games", gettext_noop("Games"), lambda r: len(r.games)),
    Metric("wins", gettext_noop("Wins"), _wins),
    Metric("total_vp", gettext_noop("Total VP"), _total_vp),
    Metric("vp_share", gettext_noop("VP share"), _vp_share, unit=Unit.SHARE),
    # xgettext:no-python-format
    Metric("vp_percent_sum", gettext_noop("VP % sum"), _vp_percent_sum, unit=Unit.PERCENT),
    Metric("seconds", gettext_noop("2nd places"), _places(2)),
    Metric("thirds", gettext_noop("3rd places"), _places(3)),
    Metric("tempo", gettext_noop("Tempo"), _tempo, needs_minutes=True, unit=Unit.DECIMAL),
):
    register_metric(_metric)
