"""A championship's format as plain data: what `/organize/new/` shows, the organizer adjusts and `setup` creates.

A preset (presets.py) becomes a `ChampionshipPlan` the organizer can change (cities, dates,
start times, games, advancing players) before anything is written; a custom format starts from
an empty one. `plan_problems` says what is wrong with a plan, by field, before it is created.
"""
import datetime
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from engines.rulesets import RULESETS

from .presets import PRESETS, Preset

MAX_GAMES_PER_STAGE = 20
MAX_TOURNAMENTS = 12
MAX_STAGES = 4


@dataclass(frozen=True)
class StagePlan:
    kind: str  # preliminary | semifinal | final
    name: str
    games: int
    seating: str  # scheduled | seeded
    players: int | None = None
    boards_per_table: bool = False


@dataclass(frozen=True)
class TournamentPlan:
    kind: str
    name: str
    city: str = ""
    date: datetime.date | None = None
    official_start: datetime.time | None = None
    advance_count: int = 0
    capacity: int | None = None
    stages: tuple[StagePlan, ...] = ()


@dataclass(frozen=True)
class ChampionshipPlan:
    name: str
    year: int
    scope: str  # country | world | club
    ruleset: str
    country: str | None = None  # ISO code
    age_cutoff: datetime.date | None = None
    minimum_age: int = 18
    preset: str = ""
    short: str = ""
    """Starts the tournaments' slugs ("uae" → "uae-2026-dubai-qualifier"); the name's when empty."""
    tournaments: tuple[TournamentPlan, ...] = field(default_factory=tuple)

    @property
    def games(self) -> int:
        return sum(stage.games for t in self.tournaments for stage in t.stages)


def _shifted(day: datetime.date | None, years: int) -> datetime.date | None:
    if day is None:
        return None
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def plan_from_preset(key: str, year: int | None = None, name: str = "") -> ChampionshipPlan:
    """The preset's championship, its dates moved to `year`; KeyError for an unknown key."""
    preset: Preset = PRESETS[key]
    year = year or preset.year
    shift = year - preset.year
    return ChampionshipPlan(
        name=name or preset.name.format(year=year), year=year, scope=preset.scope, ruleset=preset.ruleset,
        country=preset.country, age_cutoff=_shifted(preset.age_cutoff, shift), preset=key, short=preset.short,
        tournaments=tuple(
            TournamentPlan(kind=spec.kind, name=spec.name, city=spec.city, date=_shifted(spec.date, shift),
                           advance_count=spec.advance_count, capacity=spec.capacity,
                           stages=tuple(StagePlan(s.kind, s.name, s.games, s.seating, s.players, s.boards_per_table)
                                        for s in spec.stages))
            for spec in preset.tournaments
        ),
    )


def plan_problems(plan: ChampionshipPlan) -> dict[str, list[str]]:
    """What stops the plan from being created, keyed "name", "t0-date", "t1-s0-games"…; empty when it is sound."""
    errors: dict[str, list[str]] = {}

    def add(key: str, message: str) -> None:
        errors.setdefault(key, []).append(message)

    if not plan.name.strip():
        add("name", _("Give the championship a name."))
    if plan.ruleset not in RULESETS:
        add("ruleset", _("Choose one of the rulesets."))
    if plan.scope == "country" and not plan.country:
        add("country", _("A national championship names its country."))
    if not plan.tournaments:
        add("__all__", _("A championship has at least one tournament."))
    if len(plan.tournaments) > MAX_TOURNAMENTS:
        add("__all__", _("At most %(n)d tournaments at once.") % {"n": MAX_TOURNAMENTS})
    finals = [t for t in plan.tournaments if t.kind == "finals"]
    if len(finals) > 1:
        add("__all__", _("A championship has at most one finals tournament."))
    for i, tournament in enumerate(plan.tournaments):
        prefix = f"t{i}"
        if not tournament.name.strip():
            add(f"{prefix}-name", _("Give the tournament a name."))
        if not tournament.stages:
            add(f"{prefix}-name", _("%(t)s has no stage: give it at least one game.") % {"t": tournament.name})
        if len(tournament.stages) > MAX_STAGES:
            add(f"{prefix}-name", _("At most %(n)d stages per tournament.") % {"n": MAX_STAGES})
        if tournament.kind == "qualifier" and not finals:
            add(f"{prefix}-kind", _("A qualifier sends players to the championship's finals: add a finals tournament."))
        if tournament.kind == "qualifier" and tournament.advance_count < 1:
            add(f"{prefix}-advance_count", _("Say how many players this qualifier sends to the finals."))
        if tournament.capacity is not None and tournament.capacity < 3:
            add(f"{prefix}-capacity", _("A tournament needs room for at least 3 players."))
        previous = None
        for j, stage in enumerate(tournament.stages):
            key = f"{prefix}-s{j}"
            if not 1 <= stage.games <= MAX_GAMES_PER_STAGE:
                add(f"{key}-games", _("From 1 to %(n)d games per stage.") % {"n": MAX_GAMES_PER_STAGE})
            if j == 0 and stage.seating != "scheduled":
                add(f"{key}-seating", _("The first stage is seated by the seating plan: nobody has a rank yet."))
            if stage.seating == "seeded":
                if stage.games != 1:
                    add(f"{key}-games", _("A stage seated by rank has one game."))
                if stage.players is None or stage.players < 4 or stage.players % 4:
                    add(f"{key}-players", _("A stage seated by rank takes a multiple of 4 players (4, 8, 16…)."))
                elif previous is not None and previous.players is not None and stage.players >= previous.players:
                    add(f"{key}-players", _("Each stage seated by rank takes fewer players than the one before."))
            elif stage.players is not None:
                add(f"{key}-players", _("A stage seated by the seating plan takes everyone still in the tournament."))
            previous = stage
    return errors
