"""Standings metrics and rulesets: a ruleset is a list of metric keys in precedence order.

A metric turns one player's games into a number where higher is better. New rulesets are a
`Ruleset(...)` naming registered metric keys; a new metric is one `register_metric(Metric(...))`.
Nothing here imports Django.
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


def _number(value: Value) -> str:
    if value is None:
        return "–"
    if isinstance(value, Fraction):
        return f"{float(value):.4f}"
    return str(value)


def _percent(value: Value) -> str:
    return "–" if value is None else f"{float(value) * 100:.4f} %"


def _percent_points(value: Value) -> str:
    return "–" if value is None else f"{float(value):.4f} %"


@dataclass(frozen=True)
class Metric:
    """A named per-player value; `display` renders it for people (ordering uses the exact value)."""

    key: str
    label: str
    compute: Callable[[PlayerRecord], Value]
    needs_minutes: bool = False
    display: Callable[[Value], str] = _number


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
    never below 0 there, and the table total is left alone (RULES.md §4 Penalties).
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
    Metric("games", "Games", lambda r: len(r.games)),
    Metric("wins", "Wins", _wins),
    Metric("total_vp", "Total VP", _total_vp),
    Metric("vp_share", "VP share", _vp_share, display=_percent),
    Metric("vp_percent_sum", "VP % sum", _vp_percent_sum, display=_percent_points),
    Metric("seconds", "2nd places", _places(2)),
    Metric("thirds", "3rd places", _places(3)),
    Metric("tempo", "Tempo", _tempo, needs_minutes=True),
):
    register_metric(_metric)


@dataclass(frozen=True)
class Ruleset:
    """How one tournament ranks: metric keys in precedence order and the counted-VP caps."""

    key: str
    name: str
    metrics: tuple[str, ...]
    non_winner_cap: int = WINNER_CAP

    def __post_init__(self) -> None:
        unknown = [k for k in self.metrics if k not in METRICS and k != DRAW]
        if unknown:
            raise ValueError(f"ruleset {self.key!r}: unknown metric(s) {', '.join(unknown)}")
        if DRAW in self.metrics[:-1]:
            raise ValueError(f"ruleset {self.key!r}: {DRAW!r} can only be the last tiebreaker")

    @property
    def computed(self) -> tuple[str, ...]:
        """The metric keys compared before any recorded draw."""
        return tuple(k for k in self.metrics if k != DRAW)

    @property
    def requires_minutes(self) -> bool:
        return any(METRICS[k].needs_minutes for k in self.computed)

    @property
    def uses_draws(self) -> bool:
        return DRAW in self.metrics


RULESETS: dict[str, Ruleset] = {
    r.key: r
    for r in (
        Ruleset("cnc-2022", "CATAN national championships 2022",
                ("wins", "total_vp", "vp_share", DRAW)),
        Ruleset("cwc-2025", "CATAN world championship 2025",
                ("wins", "total_vp", "vp_percent_sum", "seconds", "thirds", DRAW)),
        Ruleset("lord-of-catan", "Lord of Catan club tournament",
                ("wins", "seconds", "tempo", DRAW), non_winner_cap=9),
    )
}
