"""What each audited change keeps in its before and after: TypedDicts of the data as JSON stores it.

A tuple is stored as an array and a dict's keys as strings; `NotRequired` marks a key a service leaves out in some
cases, `None` in a type a value it may record as null. Each TypedDict here refuses a key it does not name and
compares types strictly (pydantic's config, set at the end of the module for all of them); `audit.payloads` says
which action takes which.
"""
from typing import NotRequired

from pydantic import ConfigDict, JsonValue, with_config
from typing_extensions import TypedDict, is_typeddict

# ---- seating, boards, clocks ---------------------------------------------------------------------------------

class Status(TypedDict):
    status: str


class PlayOrder(TypedDict):
    order: list[int]  # entry ids in play order


class SeatedTables(TypedDict):
    tables: list[list[str]]  # each table's players by name, seat order


Seats = dict[str, tuple[int, int]]  # a swap: each player's name → [table number, position]


class Boards(TypedDict):
    board: str
    tables: NotRequired[dict[int, str]]  # each table's board, in a stage with a board per table


class BoardChanged(TypedDict):
    board: str
    tables: NotRequired[dict[int, str]]
    typed: bool


class BoardLimits(TypedDict):
    limits: list[str]


class Clock(TypedDict):
    seconds: int | None
    ends_at: str | None
    paused_remaining: int | None


class TimedTurns(TypedDict):
    turn_seconds: int | None
    placement_seconds: int | None
    finish_seconds: NotRequired[int]


class SeatingGenerated(TypedDict):
    games: list[int]
    seed: int
    friend_conflicts: int
    repeat_pairings: int
    position_repeats: int
    same_country_tablemates: int
    repeat_bound: int | None
    position_bound: int | None
    country_bound: int | None


class Published(TypedDict):
    status: str
    board: NotRequired[str]
    tables: NotRequired[dict[int, str]]
    """The boards dealt when the game is published without one: the game's, and each table's in a per-table stage."""


# ---- record sheets -------------------------------------------------------------------------------------------

class Score(TypedDict):
    seat: int
    position: int
    entry: int
    player: str
    vp: int | None
    winner: bool


class PlayerBanker(TypedDict):
    entry: int
    player: str


class SignedOnPhone(TypedDict):
    entry: int
    player: str
    version: int


class Signed(TypedDict):
    entry: int
    player: str
    version: int
    decision: str


class Objection(TypedDict):
    entry: int
    player: str
    version: int
    note: str


class Banker(TypedDict):
    banker: str | None  # "referee", a player's name (with their entry), or None: the rule's banker
    entry: NotRequired[int]


class Sheet(TypedDict):
    """A sheet's content (`results.sheets.snapshot`); the banker is "referee", a player, or None while unknown."""

    scores: list[Score]
    start_time: str | None
    end_time: str | None
    banker: PlayerBanker | str | None


class SheetEntered(Sheet):
    signatures_cleared: list[str]
    """The names of those whose signatures the new scores cleared."""


# ---- penalties and draws -------------------------------------------------------------------------------------

class Penalty(TypedDict):
    """`results.penalties.penalty_json`."""

    entry: int
    player: str
    kind: str
    vp: int
    game: int | None
    reason: str
    ground: NotRequired[str]
    deduction: NotRequired[str]


class Lateness(Penalty):
    minutes: NotRequired[int]
    """Reported at check-in (`record_lateness`); a referee's lateness penalty (`record_penalty`) has none."""


class Collusion(Penalty):
    other_entry: int
    other: str
    incident: str


class Disqualification(Penalty):
    status: str
    collusion_warnings: NotRequired[int]


class PenaltyWithdrawn(Penalty):
    withdrawn: bool
    minutes_late: NotRequired[int]
    status: NotRequired[str]
    withdrawn_kind: str


class MinutesLate(TypedDict):
    minutes_late: int


class Withdrawal(TypedDict):
    withdrawn: bool
    minutes_late: NotRequired[int]
    status: NotRequired[str]


class CollusionRuling(TypedDict):
    entry: int
    player: str
    collusion_warnings: int
    disqualified: bool
    game: int | None


class Draw(TypedDict):
    order: list[str]  # the players' names, best first
    note: str


# ---- qualification, entries, registrations -------------------------------------------------------------------

class Qualified(TypedDict):
    qualified: list[tuple[str, int]]  # (name, rank in the qualifier)


class Named(TypedDict):
    player: str


class Replacement(TypedDict):
    replacement: str | None


class EntryStatus(TypedDict):
    player: str
    status: str


class CheckedIn(TypedDict):
    player: str
    status: str
    minutes_late: int
    self: NotRequired[bool]  # True when they checked in by themselves


class StatusAndLateness(TypedDict):
    status: str
    minutes_late: int


class EntryLateness(TypedDict):
    player: str
    status: str
    minutes_late: int


class WindowOpened(TypedDict):
    until: str
    minutes: int


class Invited(TypedDict):
    player: str
    by: str  # "email" or "name": what the organizer typed


class Registration(TypedDict):
    player: str
    status: str
    entry: int | None


class Submitted(TypedDict):
    player: str
    email: str
    country: str | None
    city: str


# ---- players -------------------------------------------------------------------------------------------------

class NewPlayer(TypedDict):
    name: str
    email: str
    country: str | None


class LookedUp(TypedDict):
    by: str
    found: bool
    player: NotRequired[str]


class LookedUpElsewhere(TypedDict):
    player: str
    by: str
    tournament: str


class Elsewhere(TypedDict):
    player: str
    tournament: str


LinkRotated = TypedDict("LinkRotated", {"player": str, "links_removed": int, "emailed": bool, "from": str,
                                        "from_id": int})


class Erased(TypedDict):
    player: str  # the pseudonym the name became
    by: str


class Pair(TypedDict):
    players: list[str]
    kind: str


class DeclaredElsewhere(TypedDict):
    declared_elsewhere: bool


class PlayerDetails(TypedDict, total=False):
    """Only the details that changed (`championships.services.change_player`, `championships.signup`)."""

    name: str
    date_of_birth: str | None
    country: str
    listed: bool
    language: str
    media_opt_out: bool


# ---- staff, announcements, tournaments, championships, tokens ------------------------------------------------

class StaffRole(TypedDict):
    user: str
    role: str
    championship: str | None


class Account(TypedDict):
    user: str


class NewAccount(TypedDict):
    user: str
    email: str


class Text(TypedDict):
    text: str


class AutomaticStatus(TypedDict):
    status: str
    automatic: bool


class ChampionshipCreated(TypedDict):
    preset: str
    name: str
    year: int
    tournaments: list[str]


class Version(TypedDict):
    version: int


class Consent(TypedDict):
    version: int
    players: int


class Token(TypedDict):
    name: str
    championship: str


class TokenName(TypedDict):
    name: str


class RegistrationSettings(TypedDict):
    self_registration: bool
    capacity: int | None
    registration_closes: str | None
    registration_approval: bool


class RegistrationChanged(RegistrationSettings):
    variant: str
    """"opened", "closed" or "changed"."""


# ---- webhooks, emails, seasons, the admin --------------------------------------------------------------------

class Webhook(TypedDict):
    url: str


class WebhookAdded(TypedDict):
    url: str
    events: list[str]
    format: str
    championship: str


class Format(TypedDict):
    format: str


class WebhookFormat(TypedDict):
    url: str
    format: str


class Redelivered(TypedDict):
    url: str
    delivery: str


class Email(TypedDict):
    to: str
    subject: str


class Season(TypedDict):
    name: str
    championships: list[str]
    points: dict[str, list[int]]
    tiebreaks: list[str]


# ---- calls for a referee, the embed's websites -------------------------------------------------------------

class Call(TypedDict):
    game: int
    table: int
    reason: str


class CallPlaced(Call):
    player: str
    note: str


class CallTaken(Call):
    user: str


class CallPassed(Call):
    to: str


class CallResolved(Call):
    ruling: str
    announced: bool
    timed_turns: bool


class Origins(TypedDict):
    origins: list[str]


AdminRow = dict[str, JsonValue]
"""An admin edit: the row's own fields by attname (`audit.admin`)."""

for _shape in [value for value in list(globals().values()) if is_typeddict(value) and value.__module__ == __name__]:
    with_config(ConfigDict(extra="forbid", strict=True))(_shape)  # pydantic would ignore an unknown key otherwise
