"""The one registry of rulesets: everything that differs between cnc-2022, cwc-2025 and lord-of-catan.

A ruleset names its metric chain (precedence order, labels and units come from `engines.metrics`),
the VP caps, the table sizes and the seating goals. The model's choices, the `rank` and `seat`
commands, the standings columns and the seating screens all read it; nothing else compares a
ruleset's name. Adding a ruleset is one entry in `RULESETS` (or `register_ruleset`).
"""
from __future__ import annotations

from dataclasses import dataclass

from engines.metrics import DRAW, METRICS, WINNER_CAP, gettext_noop

TABLE_SIZES = (3, 4)
SHOWN_FIRST = ("games", "wins", "total_vp")
"""Columns every standings table shows before the ruleset's own tiebreakers."""
TURN_SECONDS_MAX = 180
"""A timed turn lasts at most 3 minutes (seed 001 §6)."""
MAP_STUDY_MINUTES = (("preliminary", 5), ("semifinal", 10), ("final", 10))
"""Study time after the map reveal by stage kind (seed 004 §1.1.7; docs/rules.md §5)."""


@dataclass(frozen=True)
class LatenessRule:
    """A late arrival's penalty: counted from the tournament's official start, once per player (docs/rules.md I-38)."""

    vp: int
    """Deducted from the player's total VP, whatever the minutes."""
    admitted_minutes: int
    """The latest arrival still admitted; a later one takes no part in the tournament."""

    def admits(self, minutes: int) -> bool:
        return minutes <= self.admitted_minutes


NATIONAL_LATENESS = LatenessRule(vp=1, admitted_minutes=15)
"""001 §6 (000 §6 the same): "Players will have 1 victory point deducted from their total scores for the first 15
minutes of tardiness. The tournament will start after 15 minutes from official time and late comers cannot
participate"."""


@dataclass(frozen=True)
class Ruleset:
    """How one tournament ranks and seats."""

    key: str
    name: str
    """In English, marked for translation."""
    metrics: tuple[str, ...]
    """Metric keys in precedence order; DRAW (a recorded card draw), if present, comes last."""
    non_winner_cap: int = WINNER_CAP
    """Counted VP of a player who did not win the table (a winner's count is capped at 10)."""
    distinct_positions: bool = False
    """Seating goal: each player plays each play-order position once across the stage's games."""
    spread_countries: bool = False
    """Seating goal: no two players of one country at a table."""
    table_sizes: tuple[int, ...] = TABLE_SIZES
    lateness: LatenessRule | None = None
    """The late-arrival penalty; None where the rules have none (004, 003): then nothing records lateness."""
    players_choose_play_order: bool = False
    """In every game, scheduled ones too, the players settle seats and colours and a dice roll decides who
    starts: the referee records the resulting play order. Otherwise a scheduled game's play order is
    the seating's, and only tables seated by rank record the order their players chose."""
    map_study_minutes: tuple[tuple[str, int], ...] = MAP_STUDY_MINUTES
    """Minutes of map study after the board is revealed, by stage kind; games themselves have no time limit."""
    turn_seconds: int = 120
    """A timed turn when a referee imposes them on a table: 2 minutes recommended (004 §1.1.8; lord-of-catan, seed
    003), never more than `TURN_SECONDS_MAX`."""

    def __post_init__(self) -> None:
        unknown = [k for k in self.metrics if k not in METRICS and k != DRAW]
        if unknown:
            raise ValueError(f"ruleset {self.key!r}: unknown metric(s) {', '.join(unknown)}")
        if not 0 < self.turn_seconds <= TURN_SECONDS_MAX:
            raise ValueError(f"ruleset {self.key!r}: a timed turn lasts 1 to {TURN_SECONDS_MAX} seconds")
        if DRAW in self.metrics[:-1]:
            raise ValueError(f"ruleset {self.key!r}: {DRAW!r} can only be the last tiebreaker")

    @property
    def computed(self) -> tuple[str, ...]:
        """The metric keys compared before any recorded draw."""
        return tuple(k for k in self.metrics if k != DRAW)

    @property
    def columns(self) -> tuple[str, ...]:
        """Games, wins and total VP, then the ruleset's own tiebreakers in precedence order."""
        return (*SHOWN_FIRST, *(k for k in self.computed if k not in SHOWN_FIRST))

    @property
    def requires_minutes(self) -> bool:
        return any(METRICS[k].needs_minutes for k in self.computed)

    @property
    def uses_draws(self) -> bool:
        return DRAW in self.metrics

    def map_study_seconds(self, stage_kind: str) -> int:
        """The countdown of a game of that stage kind (a kind not listed studies as long as a preliminary game)."""
        minutes = dict(self.map_study_minutes)
        return 60 * minutes.get(stage_kind, minutes["preliminary"])


RULESETS: dict[str, Ruleset] = {}


def register_ruleset(ruleset: Ruleset) -> Ruleset:
    if ruleset.key in RULESETS:
        raise ValueError(f"ruleset {ruleset.key!r} is already registered")
    RULESETS[ruleset.key] = ruleset
    return ruleset


for _ruleset in (
    Ruleset("cnc-2022", gettext_noop("CATAN National Championships 2022"),
            ("wins", "total_vp", "vp_share", DRAW), lateness=NATIONAL_LATENESS),
    Ruleset("cwc-2025", gettext_noop("CATAN World Championship 2025"),
            ("wins", "total_vp", "vp_percent_sum", "seconds", "thirds", DRAW),
            distinct_positions=True, spread_countries=True),
    Ruleset("lord-of-catan", gettext_noop("Lord of Catan (club)"),
            ("wins", "seconds", "tempo", DRAW), non_winner_cap=9, players_choose_play_order=True),
):
    register_ruleset(_ruleset)


def ruleset_for(ruleset: Ruleset | str) -> Ruleset:
    """The registered ruleset of that key; an unknown key is an error, never a silent default."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    try:
        return RULESETS[ruleset]
    except KeyError:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}") from None
