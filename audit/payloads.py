"""The shape of every audited change's before and after, checked where the change is recorded (`record_change`).

Audit entries are kept forever, and read back by the activity log's tellers (organize/activity.py), the backup's
re-linking of ids (organize/backup/payloads.py), the seating's proven bounds (scheduling/selectors.py) and the
reliability check (reliability/verify.py). What each action stores is written here once, so a service that drifts
from it fails in development and tests instead of leaving entries the readers misread. Entries stored before a
shape changed keep what they hold: the readers still take any key as possibly missing.

A shape is the data as the database keeps it (JSON: a tuple is an array, a dict's keys are strings): a TypedDict
that refuses keys it does not name, `None` where the service records nothing on that side. `problem` checks a
payload with pydantic in strict mode, so an id is not a string of digits and True is not 1.
"""
import json
from dataclasses import dataclass
from functools import cache
from typing import Any, NotRequired

from pydantic import ConfigDict, JsonValue, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from .actions import Action

shape = with_config(ConfigDict(extra="forbid", strict=True))
"""Every TypedDict below: a key it does not name is a mismatch (pydantic ignores extra keys by default)."""


@dataclass(frozen=True)
class Payload:
    """The types of an action's before and after (`None`: that side is always left empty)."""

    before: Any = None
    after: Any = None


# ---- seating, boards, clocks ---------------------------------------------------------------------------------

@shape
class Status(TypedDict):
    status: str


@shape
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


Seats = dict[str, tuple[int, int]]
"""A swap: each player's name → [table number, position]."""


@shape
class Published(TypedDict):
    status: str
    board: NotRequired[str]
    tables: NotRequired[dict[int, str]]
    """The boards dealt when the game is published without one: the game's, and each table's in a per-table stage."""


@shape
class PlayOrder(TypedDict):
    order: list[int]
    """Entry ids in play order."""


@shape
class SeatedTables(TypedDict):
    tables: list[list[str]]
    """Each table's players by name, in seat order."""


@shape
class Boards(TypedDict):
    board: str
    tables: NotRequired[dict[int, str]]


@shape
class BoardChanged(TypedDict):
    board: str
    tables: NotRequired[dict[int, str]]
    typed: bool


@shape
class BoardLimits(TypedDict):
    limits: list[str]


@shape
class Clock(TypedDict):
    seconds: int | None
    ends_at: str | None
    paused_remaining: int | None


@shape
class TimedTurns(TypedDict):
    turn_seconds: int | None
    placement_seconds: int | None
    finish_seconds: NotRequired[int]


# ---- record sheets -------------------------------------------------------------------------------------------

@shape
class Score(TypedDict):
    seat: int
    position: int
    entry: int
    player: str
    vp: int | None
    winner: bool


@shape
class PlayerBanker(TypedDict):
    entry: int
    player: str


@shape
class Sheet(TypedDict):
    """A sheet's content (`results.sheets.snapshot`); the banker is "referee", a player, or None while unknown."""

    scores: list[Score]
    start_time: str | None
    end_time: str | None
    banker: PlayerBanker | str | None


@shape
class SheetEntered(TypedDict):
    scores: list[Score]
    start_time: str | None
    end_time: str | None
    banker: PlayerBanker | str | None
    signatures_cleared: list[str]
    """The names of those whose signatures the new scores cleared."""


@shape
class Signed(TypedDict):
    entry: int
    player: str
    version: int
    decision: str


@shape
class SignedOnPhone(TypedDict):
    entry: int
    player: str
    version: int


@shape
class Objection(TypedDict):
    entry: int
    player: str
    version: int
    note: str


@shape
class Banker(TypedDict):
    banker: str | None
    """"referee", a player's name, or None (left to the rule)."""
    entry: NotRequired[int]


# ---- penalties and draws -------------------------------------------------------------------------------------

@shape
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


@shape
class Lateness(Penalty):
    minutes: int


@shape
class Collusion(Penalty):
    other_entry: int
    other: str
    incident: str


@shape
class Disqualification(Penalty):
    status: str
    collusion_warnings: NotRequired[int]


@shape
class MinutesLate(TypedDict):
    minutes_late: int


@shape
class Withdrawal(TypedDict):
    withdrawn: bool
    minutes_late: NotRequired[int]
    status: NotRequired[str]


@shape
class PenaltyWithdrawn(Penalty):
    withdrawn: bool
    minutes_late: NotRequired[int]
    status: NotRequired[str]
    withdrawn_kind: str


@shape
class CollusionRuling(TypedDict):
    entry: int
    player: str
    collusion_warnings: int
    disqualified: bool
    game: int | None


@shape
class Draw(TypedDict):
    order: list[str]
    """The players' names, best first."""
    note: str


# ---- qualification, entries, registrations -------------------------------------------------------------------

@shape
class Qualified(TypedDict):
    qualified: list[tuple[str, int]]
    """(name, rank in the qualifier) of each player sent on."""


@shape
class Named(TypedDict):
    player: str


@shape
class Replacement(TypedDict):
    replacement: str | None


@shape
class EntryStatus(TypedDict):
    player: str
    status: str


@shape
class CheckedIn(TypedDict):
    player: str
    status: str
    minutes_late: int
    self: NotRequired[bool]
    """Present (True) when the player checked in by themselves."""


@shape
class StatusAndLateness(TypedDict):
    status: str
    minutes_late: int


@shape
class EntryLateness(TypedDict):
    player: str
    status: str
    minutes_late: int


@shape
class WindowOpened(TypedDict):
    until: str
    minutes: int


@shape
class Invited(TypedDict):
    player: str
    by: str
    """"email" or "name": what the organizer typed to find them."""


@shape
class Registration(TypedDict):
    player: str
    status: str
    entry: int | None


# ---- players -------------------------------------------------------------------------------------------------

@shape
class NewPlayer(TypedDict):
    name: str
    email: str
    country: str | None


@shape
class PlayerDetails(TypedDict, total=False):
    """Only the details that changed (`championships.services.change_player`, `championships.signup`)."""

    name: str
    date_of_birth: str | None
    country: str
    listed: bool
    language: str
    media_opt_out: bool


@shape
class LookedUp(TypedDict):
    by: str
    found: bool
    player: NotRequired[str]


@shape
class LookedUpElsewhere(TypedDict):
    player: str
    by: str
    tournament: str


@shape
class Elsewhere(TypedDict):
    player: str
    tournament: str


LinkRotated = TypedDict("LinkRotated", {  # "from" is a keyword: the functional form
    "player": str, "links_removed": int, "emailed": bool, "from": str, "from_id": int})
shape(LinkRotated)


@shape
class Erased(TypedDict):
    player: str
    """The pseudonym the player's name became."""
    by: str


@shape
class Submitted(TypedDict):
    player: str
    email: str
    country: str | None
    city: str


@shape
class Pair(TypedDict):
    players: list[str]
    kind: str


@shape
class DeclaredElsewhere(TypedDict):
    declared_elsewhere: bool


# ---- staff, announcements, tournaments, championships --------------------------------------------------------

@shape
class StaffRole(TypedDict):
    user: str
    role: str
    championship: str | None


@shape
class Account(TypedDict):
    user: str


@shape
class NewAccount(TypedDict):
    user: str
    email: str


@shape
class Text(TypedDict):
    text: str


@shape
class AutomaticStatus(TypedDict):
    status: str
    automatic: bool


@shape
class RegistrationSettings(TypedDict):
    self_registration: bool
    capacity: int | None
    registration_closes: str | None
    registration_approval: bool


@shape
class RegistrationChanged(RegistrationSettings):
    variant: str
    """"opened", "closed" or "changed"."""


@shape
class ChampionshipCreated(TypedDict):
    preset: str
    name: str
    year: int
    tournaments: list[str]


@shape
class Version(TypedDict):
    version: int


@shape
class Consent(TypedDict):
    version: int
    players: int


@shape
class Token(TypedDict):
    name: str
    championship: str


@shape
class TokenName(TypedDict):
    name: str


# ---- webhooks, emails, seasons -------------------------------------------------------------------------------

@shape
class Webhook(TypedDict):
    url: str


@shape
class WebhookAdded(TypedDict):
    url: str
    events: list[str]
    format: str
    championship: str


@shape
class Format(TypedDict):
    format: str


@shape
class WebhookFormat(TypedDict):
    url: str
    format: str


@shape
class Redelivered(TypedDict):
    url: str
    delivery: str


@shape
class Email(TypedDict):
    to: str
    subject: str


@shape
class Season(TypedDict):
    name: str
    championships: list[str]
    points: dict[str, list[int]]
    tiebreaks: list[str]


AdminRow = dict[str, JsonValue]
"""An admin edit: the row's own fields by attname (`audit.admin`)."""


PAYLOADS: dict[Action, Payload] = {
    Action.SEATING_GENERATED: Payload(after=SeatingGenerated),
    Action.SEATING_SWAPPED: Payload(Seats, Seats),
    Action.SEATING_PUBLISHED: Payload(Status, Published),
    Action.SEATING_UNPUBLISHED: Payload(Status, Status),
    Action.SEATING_STATUS_REPAIRED: Payload(Status, Status),
    Action.SEATING_PLAY_ORDER: Payload(PlayOrder, PlayOrder),
    Action.SEATING_SEEDED: Payload(after=SeatedTables),
    Action.SEATING_CLEARED: Payload(SeatedTables, SeatedTables),
    Action.BOARD_CHANGED: Payload(Boards, BoardChanged),
    Action.BOARD_LIMITS: Payload(BoardLimits, BoardLimits),
    Action.CLOCK_START: Payload(Clock, Clock),
    Action.CLOCK_PAUSE: Payload(Clock, Clock),
    Action.CLOCK_RESUME: Payload(Clock, Clock),
    Action.CLOCK_END: Payload(Clock, Clock),
    Action.CLOCK_RESET: Payload(Clock, Clock),
    Action.TURNS_ON: Payload(TimedTurns, TimedTurns),
    Action.TURNS_OFF: Payload(TimedTurns, TimedTurns),
    Action.SHEET_ENTERED: Payload(Sheet | None, SheetEntered),
    Action.SHEET_SIGNATURE_DRAWN: Payload(after=Signed),
    Action.SHEET_SIGNATURE_TAP: Payload(after=Signed),
    Action.SHEET_SIGNATURE_PHONE: Payload(after=SignedOnPhone),
    Action.SHEET_OBJECTION: Payload(after=Objection),
    Action.SHEET_SIGNATURE_OVERRULED: Payload(after=Signed),
    Action.SHEET_SIGNED_OFF: Payload(after=Sheet),
    Action.SHEET_CORRECTED: Payload(Sheet, Sheet),
    Action.SHEET_BANKER: Payload(Banker, Banker),
    Action.PENALTY_LATENESS: Payload(MinutesLate, Lateness),
    Action.PENALTY_WARNING: Payload(after=Penalty),
    Action.PENALTY_COLLUSION: Payload(after=Collusion),
    Action.PENALTY_VP_DEDUCTION: Payload(after=Penalty),
    Action.PENALTY_DISQUALIFICATION: Payload(Status, Disqualification),
    Action.PENALTY_WITHDRAWN: Payload(Withdrawal, PenaltyWithdrawn),
    Action.PENALTY_COLLUSION_RULING: Payload(after=CollusionRuling),
    Action.DRAW_CARDS: Payload(after=Draw),
    Action.DRAW_LOTS: Payload(after=Draw),
    Action.QUALIFICATION_ADVANCED: Payload(after=Qualified),
    Action.QUALIFICATION_REPLACED: Payload(Named, Replacement),
    Action.ENTRY_REGISTERED: Payload(after=EntryStatus),
    Action.ENTRY_CHECKED_IN: Payload(Status, CheckedIn),
    Action.ENTRY_SELF_CHECK_IN_OPENED: Payload(after=WindowOpened),
    Action.ENTRY_SELF_CHECK_IN_CLOSED: Payload(),
    Action.ENTRY_CHECK_IN_UNDONE: Payload(StatusAndLateness, EntryLateness),
    Action.ENTRY_NOT_ADMITTED_UNDONE: Payload(StatusAndLateness, EntryLateness),
    Action.ENTRY_NO_SHOW_UNDONE: Payload(StatusAndLateness, EntryLateness),
    Action.ENTRY_WITHDRAWAL_UNDONE: Payload(StatusAndLateness, EntryLateness),
    Action.ENTRY_NO_SHOW: Payload(Status, EntryStatus),
    Action.ENTRY_WITHDRAWN: Payload(Status, EntryStatus),
    Action.ENTRY_REMOVED: Payload(before=EntryStatus),
    Action.ENTRY_INVITED: Payload(after=Invited),
    Action.ENTRY_CONFIRMED: Payload(after=Named),
    Action.ENTRY_NOT_ADMITTED: Payload(StatusAndLateness, EntryLateness),
    Action.PLAYER_REGISTERED: Payload(after=NewPlayer),
    Action.PLAYER_UPDATED: Payload(PlayerDetails | None, PlayerDetails),
    Action.PLAYER_LOOKED_UP: Payload(after=LookedUp),
    Action.PLAYER_LOOKED_UP_ELSEWHERE: Payload(after=LookedUpElsewhere),
    Action.PLAYER_ENTERED_ELSEWHERE: Payload(after=Elsewhere),
    Action.PLAYER_REMOVED_ELSEWHERE: Payload(after=Elsewhere),
    Action.PLAYER_LINK_ROTATED: Payload(after=LinkRotated),
    Action.PLAYER_LINK_SENT: Payload(after=Named),
    Action.PLAYER_PUSH_ON: Payload(after=Named),
    Action.PLAYER_PUSH_OFF: Payload(after=Named),
    Action.PLAYER_ERASED: Payload(after=Erased),
    Action.REGISTRATION_SUBMITTED: Payload(after=Submitted),
    Action.REGISTRATION_CONFIRMED: Payload(after=Registration),
    Action.REGISTRATION_APPROVED: Payload(after=Registration),
    Action.REGISTRATION_REFUSED: Payload(after=EntryStatus),
    Action.REGISTRATION_PROMOTED: Payload(after=Registration),
    Action.REGISTRATION_CANCELLED: Payload(after=EntryStatus),
    Action.RELATIONSHIP_DECLARED: Payload(after=Pair),
    Action.RELATIONSHIP_REMOVED: Payload(Pair, DeclaredElsewhere | None),
    Action.STAFF_ASSIGNED: Payload(after=StaffRole),
    Action.STAFF_REMOVED: Payload(before=StaffRole),
    Action.STAFF_UNLOCKED: Payload(after=Account),
    Action.STAFF_ACCOUNT_CREATED: Payload(after=NewAccount),
    Action.ANNOUNCEMENT_POSTED: Payload(after=Text),
    Action.ANNOUNCEMENT_REMOVED: Payload(before=Text),
    Action.TOURNAMENT_STATUS: Payload(Status, AutomaticStatus),
    Action.TOURNAMENT_CLOSED: Payload(Status, Status),
    Action.TOURNAMENT_REGISTRATION: Payload(RegistrationSettings, RegistrationChanged),
    Action.TOURNAMENT_REOPENED: Payload(Status, Status),
    Action.CHAMPIONSHIP_CREATED: Payload(after=ChampionshipCreated),
    Action.PRIVACY_NOTICE_CHANGED: Payload(after=Version),
    Action.CONSENT_COLLECTED: Payload(after=Consent),
    Action.TOKEN_CREATED: Payload(after=Token),
    Action.TOKEN_REVOKED: Payload(after=TokenName),
    Action.WEBHOOK_ADDED: Payload(after=WebhookAdded),
    Action.WEBHOOK_TURNED_OFF: Payload(after=Webhook),
    Action.WEBHOOK_TURNED_ON: Payload(after=Webhook),
    Action.WEBHOOK_REMOVED: Payload(before=Webhook),
    Action.WEBHOOK_PINGED: Payload(after=Webhook),
    Action.WEBHOOK_SECRET_CHANGED: Payload(after=Webhook),
    Action.WEBHOOK_FORMAT_CHANGED: Payload(Format, WebhookFormat),
    Action.WEBHOOK_REDELIVERED: Payload(after=Redelivered),
    Action.WEBHOOK_FAILING: Payload(after=Webhook),
    Action.EMAIL_SENT_AGAIN: Payload(after=Email),
    Action.SEASON_CREATED: Payload(after=Season),
    Action.SEASON_CHANGED: Payload(Season, Season),
    Action.SEASON_DELETED: Payload(before=Season),
    Action.ADMIN_ADDED: Payload(after=AdminRow),
    Action.ADMIN_CHANGED: Payload(AdminRow | None, AdminRow),
    Action.ADMIN_DELETED: Payload(before=AdminRow),
}
"""Each action's payload; `tests/audit/test_payloads.py` asks one of every member."""


def missing(action: Action) -> str:
    """What to write for an action that has no shape yet."""
    return (f"Action.{action.name} ({action.value!r}) has no payload shape: add `Action.{action.name}: "
            f"Payload(before=..., after=...)` to PAYLOADS in audit/payloads.py, with a TypedDict (decorated @shape) "
            f"for each dict its record_change calls pass as before and after, and None for a side they leave empty")


def problem(action: Action, before, after) -> str | None:
    """Why the payload does not fit the action's shape, or None when it does. Names where and what, never the
    values themselves (they hold names, and the message may be logged)."""
    payload = PAYLOADS.get(action)
    if payload is None:
        return missing(action)
    for side, value, wanted in (("before", before, payload.before), ("after", after, payload.after)):
        try:
            _adapter(wanted).validate_json(json.dumps(value), strict=True)
        except ValidationError as error:
            found = "; ".join(": ".join(filter(None, (".".join(map(str, e["loc"])), e["msg"])))
                              for e in error.errors(include_url=False, include_input=False))
            return f"the {side} of {action.value} does not fit audit/payloads.py (PAYLOADS[Action.{action.name}]): " \
                   f"{found}"
    return None


@cache
def _adapter(wanted) -> TypeAdapter:
    return TypeAdapter(wanted)
