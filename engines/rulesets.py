"""The one registry of rulesets: everything that differs between cnc-2022, cwc-2025 and lord-of-catan.

A ruleset names its metric chain (precedence order, labels and units come from `engines.metrics`),
the VP caps, the table sizes and the seating goals, and the rule facts around the games: map study,
timed turns, the VP deductions, until when a disqualification is possible, who banks, whether seeds
choose. The model's choices, the `rank` and `seat` commands, the standings columns and the seating
screens all read it; nothing else compares a ruleset's name. Adding a ruleset is one entry in
`RULESETS` (or `register_ruleset`).
"""
from __future__ import annotations

from dataclasses import dataclass

from engines.metrics import DRAW, METRICS, WINNER_CAP, gettext_noop

TABLE_SIZES = (3, 4)
SHOWN_FIRST = ("games", "wins", "total_vp")
"""Columns every standings table shows before the ruleset's own tiebreakers."""
MAP_STUDY_MINUTES = (("preliminary", 5), ("semifinal", 10), ("final", 10))
"""Study time after the map reveal by stage kind (seed 004 §1.1.7, the world rules only; docs/rules.md §5)."""

UNTIL_SIGNED = "signed"
"""A disqualification names a game and is possible until every player of the player's table has signed its sheet."""
UNTIL_SIGNED_OFF = "signed_off"
"""A disqualification names a game and is possible until the referee signs the table's sheet off."""
ANY_TIME = "any_time"
"""A disqualification is possible at any time during the event."""
DISQUALIFICATION_WINDOWS = (UNTIL_SIGNED, UNTIL_SIGNED_OFF, ANY_TIME)
DISQUALIFICATION_GROUNDS = ("rules", "conduct")
"""Breaking the game's rules, or breaching the code of conduct (seed 004 §1.2.4 gives each its own timing)."""
WORLD_DISQUALIFICATION = (("rules", UNTIL_SIGNED), ("conduct", ANY_TIME))
"""004 §1.2.4: rules-related "not possible after all players have signed the record sheet"; conduct "at any time"."""


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
class VpDeduction:
    """A VP deduction a referee may record under the ruleset, besides a late arrival's (`LatenessRule`)."""

    key: str
    """What a penalty stores (`Penalty.deduction`); never changed once released."""
    label: str
    """In English, marked for translation."""
    vp: int | None = None
    """The VP it costs; None: any number the organizers decide (at least 1)."""


LORD_OF_CATAN_DEDUCTIONS = (
    VpDeduction("arguing", gettext_noop("arguing against a ruling"), 2),
    VpDeduction("cheating", gettext_noop("cheating (the organizers' fine)")),
)
"""003, Rule clarifications and disputes: arguing loudly against a ruling costs "2 points off the final total" (or
removal, at the organizers' choice); cheating is fined at the organizers' discretion."""


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
    map_study_minutes: tuple[tuple[str, int], ...] = ()
    """Minutes of map study after the board is revealed, by stage kind (004 §1.1.7); empty where the rules have none
    (001, 000, 003). Games themselves have no time limit."""
    vp_deductions: tuple[VpDeduction, ...] = ()
    """The VP deductions a referee may record, besides a late arrival's: none under 001 (its only one is lateness)
    and 004 (warnings and disqualification only); 003's two (docs/rules.md §4, Penalties)."""
    seeds_choose: bool = False
    """At tables seated by rank the players choose chair, colour and play order in seed order (004 §1.1.5-1.1.6):
    each seat keeps its seed, and a tie between two seeds of one table waits for a draw. Otherwise (001 gives a
    final's seeds no choice; 003's players settle seats themselves) a tie matters only where it decides who plays
    or at which table."""
    turn_seconds_max: int = 180
    """The longest timed turn a referee may impose on a table (001 §5: "limited to three minutes"). A championship
    may allow less (edition 000 §5: one minute; `Preset.turn_seconds_max` of the preset it follows), never more."""
    turn_seconds: int | None = None
    """The recommended length, offered first when a referee imposes timed turns; None: the longest allowed."""
    turn_reducible: bool = True
    """The referee may choose a shorter turn than the recommended one (004 §1.1.8: "may be reduced")."""
    finish_turn_seconds: int | None = None
    """Timed turns start with this long for the slow player to finish the current turn (seed 003, General rules 5:
    one minute, then the whole table's turns are timed)."""
    timed_placements: bool = False
    """The referee may also time each initial placement (004 §1.1.8: "player turns and initial placements")."""
    disqualification: tuple[tuple[str, str], ...] = WORLD_DISQUALIFICATION
    """Until when a disqualification is possible, by ground (one of `DISQUALIFICATION_WINDOWS` for each of
    `DISQUALIFICATION_GROUNDS`; docs/rules.md I-40)."""
    referee_banks: tuple[str, ...] = ()
    """Stage kinds whose games the referee banks (hands out and takes back the resource cards); elsewhere the
    starting player banks unless the table elects another (001 §7c, 004 §2.0.4)."""

    def __post_init__(self) -> None:
        unknown = [k for k in self.metrics if k not in METRICS and k != DRAW]
        if unknown:
            raise ValueError(f"ruleset {self.key!r}: unknown metric(s) {', '.join(unknown)}")
        if not 0 < (self.turn_seconds or self.turn_seconds_max) <= self.turn_seconds_max:
            raise ValueError(f"ruleset {self.key!r}: a timed turn lasts 1 to {self.turn_seconds_max} seconds")
        if self.finish_turn_seconds is not None and self.finish_turn_seconds <= 0:
            raise ValueError(f"ruleset {self.key!r}: the time to finish a turn is at least 1 second")
        windows = dict(self.disqualification)
        if sorted(windows) != sorted(DISQUALIFICATION_GROUNDS) or not set(windows.values()) <= set(
                DISQUALIFICATION_WINDOWS):
            raise ValueError(f"ruleset {self.key!r}: give one of {', '.join(DISQUALIFICATION_WINDOWS)} for each "
                             f"disqualification ground ({', '.join(DISQUALIFICATION_GROUNDS)})")
        if DRAW in self.metrics[:-1]:
            raise ValueError(f"ruleset {self.key!r}: {DRAW!r} can only be the last tiebreaker")
        if self.map_study_minutes and "preliminary" not in dict(self.map_study_minutes):
            raise ValueError(f"ruleset {self.key!r}: map study needs a length for preliminary games")
        keys = [d.key for d in self.vp_deductions]
        if len(set(keys)) != len(keys) or any(d.vp is not None and d.vp < 1 for d in self.vp_deductions):
            raise ValueError(f"ruleset {self.key!r}: each VP deduction has its own key and costs at least 1 VP")

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

    def disqualification_window(self, ground: str) -> str:
        """Until when a disqualification on this ground is possible: UNTIL_SIGNED, UNTIL_SIGNED_OFF or ANY_TIME."""
        return dict(self.disqualification)[ground]

    @property
    def has_map_study(self) -> bool:
        return bool(self.map_study_minutes)

    def map_study_seconds(self, stage_kind: str) -> int | None:
        """The countdown of a game of that stage kind (a kind not listed studies as long as a preliminary game);
        None where the rules have no study time."""
        if not self.map_study_minutes:
            return None
        minutes = dict(self.map_study_minutes)
        return 60 * minutes.get(stage_kind, minutes["preliminary"])

    def vp_deduction(self, key: str) -> VpDeduction | None:
        """The ruleset's VP deduction of that key; None where the rules have no such deduction."""
        return next((d for d in self.vp_deductions if d.key == key), None)


RULESETS: dict[str, Ruleset] = {}


def register_ruleset(ruleset: Ruleset) -> Ruleset:
    if ruleset.key in RULESETS:
        raise ValueError(f"ruleset {ruleset.key!r} is already registered")
    RULESETS[ruleset.key] = ruleset
    return ruleset


for _ruleset in (
    # 001 §6: "A disqualification can only be made during an active game or immediately after finishing a game",
    # whatever its ground; 001 §7c: "In the Final, the referee will handle the card dealing".
    Ruleset("cnc-2022", gettext_noop("CATAN National Championships 2022"),
            ("wins", "total_vp", "vp_share", DRAW), lateness=NATIONAL_LATENESS,
            disqualification=(("rules", UNTIL_SIGNED_OFF), ("conduct", UNTIL_SIGNED_OFF)), referee_banks=("final",)),
    # 004 §1.1.8: "Recommended timed turn length is two minutes, but this may be reduced"; 004 §2.0.4: "In the
    # Semifinal and Final, a judge will perform all resource handler duties"; 004 §1.1.7: study time after the
    # map reveal; 004 §1.1.6: the finalists choose "in order of their Preliminary rank".
    Ruleset("cwc-2025", gettext_noop("CATAN World Championship 2025"),
            ("wins", "total_vp", "vp_percent_sum", "seconds", "thirds", DRAW),
            distinct_positions=True, spread_countries=True, turn_seconds_max=120, turn_seconds=120,
            timed_placements=True, referee_banks=("semifinal", "final"), map_study_minutes=MAP_STUDY_MINUTES,
            seeds_choose=True),
    # 003, General rules 5: the slow player gets a minute to finish, then every turn at the table has 2 minutes;
    # 003 says nothing on when a player may be removed: the world timing (docs/rules.md I-40).
    Ruleset("lord-of-catan", gettext_noop("Lord of Catan (club)"),
            ("wins", "seconds", "tempo", DRAW), non_winner_cap=9, players_choose_play_order=True,
            turn_seconds_max=120, turn_seconds=120, turn_reducible=False, finish_turn_seconds=60,
            vp_deductions=LORD_OF_CATAN_DEDUCTIONS),
):
    register_ruleset(_ruleset)


DEFAULT_RULESET = "cnc-2022"
"""What a championship planned by hand (not from a preset) ranks by until its organizer picks another ruleset."""


def ruleset_for(ruleset: Ruleset | str) -> Ruleset:
    """The registered ruleset of that key; an unknown key is an error, never a silent default."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    try:
        return RULESETS[ruleset]
    except KeyError:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}") from None
