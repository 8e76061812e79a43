"""Format presets: the championship formats of docs/rules.md §1 as plain data.

An organizer picks one; `services.create_championship_from_preset` turns it into rows that can
then be edited (dates, cities, numbers). Each preset names the seed and section it follows
(`source`); the two editions of the national rules 2022 (seeds 000 and 001) differ for KSA,
Jordan and Lebanon in §3, and for every country in the longest timed turn (§5: one minute in 000,
three in 001), so each country has one preset per edition: the plain key ("lebanon-2022") follows
edition 001 and the "-edition-000" key edition 000, which carries the one minute (`turn_seconds_max`).
UAE's format (§3) is the same in both editions, so its two presets differ only in that minute.
"""
from dataclasses import dataclass, field
from datetime import date

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class StageSpec:
    kind: str  # preliminary | semifinal | final
    name: str
    games: int
    seating: str  # scheduled | seeded
    players: int | None = None  # top N of the previous stage; None = everyone entered
    boards_per_table: bool = False  # each table its own board (seed 003: the semifinal's four boards)


@dataclass(frozen=True)
class TournamentSpec:
    kind: str  # qualifier | finals | world | club
    name: str
    city: str
    date: date | None
    stages: tuple[StageSpec, ...]
    advance_count: int = 0
    capacity: int | None = None


@dataclass(frozen=True)
class Preset:
    key: str
    short: str  # starts the tournaments' slugs: "uae-2026-dubai-qualifier"
    name: str  # "{year}" is filled in
    scope: str  # country | world | club
    country: str | None
    year: int
    ruleset: str
    age_cutoff: date | None
    tournaments: tuple[TournamentSpec, ...] = field(default_factory=tuple)
    title: str | Promise = ""
    """What an organizer picks from, naming the edition of the rules: "Lebanon 2022 (edition 000)"."""
    source: str = ""
    """The seed and section the preset follows (docs/rules.md §1, format presets)."""
    turn_seconds_max: int | None = None
    """The longest timed turn where the preset's edition allows less than its ruleset: edition 000 §5 says one
    minute where 001 §5 (the `cnc-2022` ruleset) says three. Read through `Championship.preset` (the championship
    follows the edition it was created from); None: the ruleset's."""


def _qualifier(city: str, day: date, advance: int, name: str = "") -> TournamentSpec:
    return TournamentSpec(
        kind="qualifier", name=name or f"{city} qualifier", city=city, date=day, advance_count=advance,
        stages=(StageSpec("preliminary", "Qualifier", 3, "scheduled"),),
    )


def _cnc_finals(city: str, day: date, capacity: int | None, final_game: bool = True) -> TournamentSpec:
    stages = [StageSpec("preliminary", "Finals games", 3 if final_game else 1, "scheduled")]
    if final_game:
        stages.append(StageSpec("final", "Final game", 1, "seeded", players=4))
    return TournamentSpec(kind="finals", name="Championship finals", city=city, date=day,
                          capacity=capacity, stages=tuple(stages))


CNC_CUTOFF_2022 = date(2022, 11, 17)
EDITION_000_TURN_SECONDS = 60
"""000 §5: "Timed turn length is limited to one minute"."""

UAE_2022 = (
    _qualifier("Dubai", date(2022, 6, 11), 8),
    _qualifier("Abu Dhabi", date(2022, 9, 3), 8),
    _cnc_finals("Dubai", date(2022, 9, 10), 16),
)
"""000 and 001 §3, UAE CNC Format (the same text): two qualifiers of three games, the top 8 of each to a final of 16."""

PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            key="uae-2022", short="uae", name="CATAN National Championship UAE {year}", scope="country", country="AE",
            year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("UAE 2022 (edition 001)"), source="seed 001, §3 UAE CNC Format",
            tournaments=UAE_2022,
        ),
        Preset(
            # 000 §3 (English and Arabic) gives the UAE the same format as 001; its §5 allows one-minute turns.
            key="uae-2022-edition-000", short="uae", name="CATAN National Championship UAE {year}", scope="country",
            country="AE", year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("UAE 2022 (edition 000)"), source="seed 000, §3 UAE CNC Format",
            turn_seconds_max=EDITION_000_TURN_SECONDS, tournaments=UAE_2022,
        ),
        Preset(
            key="ksa-2022", short="ksa", name="CATAN National Championship KSA {year}", scope="country", country="SA",
            year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("KSA 2022 (edition 001)"), source="seed 001, §3 KSA CNC Format",
            tournaments=(
                _qualifier("Jeddah", date(2022, 6, 18), 2),
                _qualifier("Riyadh", date(2022, 6, 24), 2),
                _cnc_finals("Riyadh", date(2022, 9, 9), 4, final_game=False),
            ),
        ),
        Preset(
            key="ksa-2022-edition-000", short="ksa", name="CATAN National Championship KSA {year}",
            scope="country", country="SA", year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("KSA 2022 (edition 000)"), source="seed 000, §3 KSA CNC Format",
            turn_seconds_max=EDITION_000_TURN_SECONDS,
            tournaments=(
                _qualifier("Jeddah", date(2022, 6, 18), 2),
                _qualifier("Riyadh", date(2022, 9, 10), 2),
                _cnc_finals("Riyadh", date(2022, 9, 11), 4, final_game=False),
            ),
        ),
        Preset(
            key="jordan-2022", short="jordan", name="CATAN National Championship Jordan {year}", scope="country",
            country="JO", year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("Jordan 2022 (edition 001)"), source="seed 001, §3 JORDAN CNC Format",
            tournaments=(_cnc_finals("Amman", date(2022, 8, 5), None),),
        ),
        Preset(
            key="jordan-2022-edition-000", short="jordan", name="CATAN National Championship Jordan {year}",
            scope="country", country="JO", year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("Jordan 2022 (edition 000)"), source="seed 000, §3 JORDAN CNC Format",
            turn_seconds_max=EDITION_000_TURN_SECONDS,
            tournaments=(_cnc_finals("Amman", date(2022, 9, 2), None),),
        ),
        Preset(
            key="lebanon-2022", short="lebanon", name="CATAN National Championship Lebanon {year}", scope="country",
            country="LB", year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("Lebanon 2022 (edition 001)"), source="seed 001, §3 LEBANON CNC Format",
            tournaments=(
                _qualifier("", date(2022, 7, 2), 8, name="1st qualifier"),
                _qualifier("", date(2022, 7, 23), 8, name="2nd qualifier"),
                _qualifier("", date(2022, 8, 20), 8, name="3rd qualifier"),
                _cnc_finals("", date(2022, 9, 3), 24),
            ),
        ),
        Preset(
            # The English text names no city for the finals; the Arabic one of the same page says Beirut.
            key="lebanon-2022-edition-000", short="lebanon", name="CATAN National Championship Lebanon {year}",
            scope="country", country="LB", year=2022, ruleset="cnc-2022", age_cutoff=CNC_CUTOFF_2022,
            title=_("Lebanon 2022 (edition 000)"), source="seed 000, §3 LEBANON CNC Format",
            turn_seconds_max=EDITION_000_TURN_SECONDS,
            tournaments=(
                _qualifier("Batroun", date(2022, 7, 9), 8),
                _qualifier("Beirut", date(2022, 8, 27), 8),
                _cnc_finals("Beirut", date(2022, 9, 10), 16),
            ),
        ),
        Preset(
            key="world-championship", short="cwc", name="CATAN World Championship {year}", scope="world", country=None,
            year=2025, ruleset="cwc-2025", age_cutoff=None,
            title=_("World Championship 2025"), source="seed 004, §1.1 Tournament Format",
            tournaments=(
                TournamentSpec(
                    kind="world", name="World Championship", city="", date=None,
                    stages=(
                        StageSpec("preliminary", "Preliminary round", 4, "scheduled"),
                        StageSpec("semifinal", "Semifinals", 1, "seeded", players=16),
                        StageSpec("final", "Final", 1, "seeded", players=4),
                    ),
                ),
            ),
        ),
        Preset(
            key="lord-of-catan", short="lord-of-catan", name="Lord of Catan {year}", scope="club", country=None,
            year=2026, ruleset="lord-of-catan", age_cutoff=None,
            title=_("Lord of Catan (club)"), source="seed 003, Tournament structure (3 rounds)",
            tournaments=(
                TournamentSpec(
                    kind="club", name="Lord of Catan", city="", date=None,
                    stages=(
                        StageSpec("preliminary", "Ranking round", 1, "scheduled"),
                        StageSpec("semifinal", "Semifinals", 1, "seeded", players=16, boards_per_table=True),
                        StageSpec("final", "Final", 1, "seeded", players=4),
                    ),
                ),
            ),
        ),
    )
}
