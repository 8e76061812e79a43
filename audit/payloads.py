"""Which shape each audited change's before and after take (`PAYLOADS`), checked where it is recorded.

Audit entries are kept forever, and read back by the activity log's tellers (web/organize/activity/sentences.py), the
backup's re-linking of ids (backup/payloads.py), the seating's proven bounds (scheduling/selectors.py) and the
reliability check (reliability/verify.py). What each action stores is written down once (the TypedDicts of
audit/shapes.py), so a service that drifts from it fails in development and tests instead of leaving entries the
readers misread. Entries stored before a shape changed keep what they hold: the readers still take any key as
possibly missing.

`problem` checks a payload as the database will store it (its JSON) with pydantic in strict mode: an id is not a
string of digits, True is not 1, a key the shape does not name is refused.
"""
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from . import shapes
from .actions import Action


@dataclass(frozen=True)
class Payload:
    """The types of an action's before and after (`None`: that side is always left empty)."""

    before: Any = None
    after: Any = None


PAYLOADS: dict[Action, Payload] = {
    Action.SEATING_GENERATED: Payload(after=shapes.SeatingGenerated),
    Action.SEATING_SWAPPED: Payload(shapes.Seats, shapes.Seats),
    Action.SEATING_PUBLISHED: Payload(shapes.Status, shapes.Published),
    Action.SEATING_UNPUBLISHED: Payload(shapes.Status, shapes.Status),
    Action.SEATING_STATUS_REPAIRED: Payload(shapes.Status, shapes.Status),
    Action.SEATING_PLAY_ORDER: Payload(shapes.PlayOrder, shapes.PlayOrder),
    Action.SEATING_SEEDED: Payload(after=shapes.SeatedTables),
    Action.SEATING_CLEARED: Payload(shapes.SeatedTables, shapes.SeatedTables),
    Action.BOARD_CHANGED: Payload(shapes.Boards, shapes.BoardChanged),
    Action.BOARD_LIMITS: Payload(shapes.BoardLimits, shapes.BoardLimits),
    Action.CLOCK_START: Payload(shapes.Clock, shapes.Clock),
    Action.CLOCK_PAUSE: Payload(shapes.Clock, shapes.Clock),
    Action.CLOCK_RESUME: Payload(shapes.Clock, shapes.Clock),
    Action.CLOCK_END: Payload(shapes.Clock, shapes.Clock),
    Action.CLOCK_RESET: Payload(shapes.Clock, shapes.Clock),
    Action.TURNS_ON: Payload(shapes.TimedTurns, shapes.TimedTurns),
    Action.TURNS_OFF: Payload(shapes.TimedTurns, shapes.TimedTurns),
    Action.SHEET_ENTERED: Payload(shapes.Sheet | None, shapes.SheetEntered),
    Action.SHEET_SIGNATURE_DRAWN: Payload(after=shapes.Signed),
    Action.SHEET_SIGNATURE_TAP: Payload(after=shapes.Signed),
    Action.SHEET_SIGNATURE_PHONE: Payload(after=shapes.SignedOnPhone),
    Action.SHEET_OBJECTION: Payload(after=shapes.Objection),
    Action.SHEET_SIGNATURE_OVERRULED: Payload(after=shapes.Signed),
    Action.SHEET_SIGNED_OFF: Payload(after=shapes.Sheet),
    Action.SHEET_CORRECTED: Payload(shapes.Sheet, shapes.Sheet),
    Action.SHEET_BANKER: Payload(shapes.Banker, shapes.Banker),
    Action.PENALTY_LATENESS: Payload(shapes.MinutesLate | None, shapes.Lateness),
    Action.PENALTY_WARNING: Payload(after=shapes.Penalty),
    Action.PENALTY_COLLUSION: Payload(after=shapes.Collusion),
    Action.PENALTY_VP_DEDUCTION: Payload(after=shapes.Penalty),
    Action.PENALTY_DISQUALIFICATION: Payload(shapes.Status, shapes.Disqualification),
    Action.PENALTY_WITHDRAWN: Payload(shapes.Withdrawal, shapes.PenaltyWithdrawn),
    Action.PENALTY_COLLUSION_RULING: Payload(after=shapes.CollusionRuling),
    Action.DRAW_CARDS: Payload(after=shapes.Draw),
    Action.DRAW_LOTS: Payload(after=shapes.Draw),
    Action.QUALIFICATION_ADVANCED: Payload(after=shapes.Qualified),
    Action.QUALIFICATION_REPLACED: Payload(shapes.Named, shapes.Replacement),
    Action.ENTRY_REGISTERED: Payload(after=shapes.EntryStatus),
    Action.ENTRY_CHECKED_IN: Payload(shapes.Status, shapes.CheckedIn),
    Action.ENTRY_SELF_CHECK_IN_OPENED: Payload(after=shapes.WindowOpened),
    Action.ENTRY_SELF_CHECK_IN_CLOSED: Payload(),
    Action.ENTRY_CHECK_IN_UNDONE: Payload(shapes.StatusAndLateness, shapes.EntryLateness),
    Action.ENTRY_NOT_ADMITTED_UNDONE: Payload(shapes.StatusAndLateness, shapes.EntryLateness),
    Action.ENTRY_NO_SHOW_UNDONE: Payload(shapes.StatusAndLateness, shapes.EntryLateness),
    Action.ENTRY_WITHDRAWAL_UNDONE: Payload(shapes.StatusAndLateness, shapes.EntryLateness),
    Action.ENTRY_NO_SHOW: Payload(shapes.Status, shapes.EntryStatus),
    Action.ENTRY_WITHDRAWN: Payload(shapes.Status, shapes.EntryStatus),
    Action.ENTRY_REMOVED: Payload(before=shapes.EntryStatus),
    Action.ENTRY_INVITED: Payload(after=shapes.Invited),
    Action.ENTRY_CONFIRMED: Payload(after=shapes.Named),
    Action.ENTRY_NOT_ADMITTED: Payload(shapes.StatusAndLateness, shapes.EntryLateness),
    Action.PLAYER_REGISTERED: Payload(after=shapes.NewPlayer),
    Action.PLAYER_UPDATED: Payload(shapes.PlayerDetails | None, shapes.PlayerDetails),
    Action.PLAYER_LOOKED_UP: Payload(after=shapes.LookedUp),
    Action.PLAYER_LOOKED_UP_ELSEWHERE: Payload(after=shapes.LookedUpElsewhere),
    Action.PLAYER_ENTERED_ELSEWHERE: Payload(after=shapes.Elsewhere),
    Action.PLAYER_REMOVED_ELSEWHERE: Payload(after=shapes.Elsewhere),
    Action.PLAYER_LINK_ROTATED: Payload(after=shapes.LinkRotated),
    Action.PLAYER_LINK_SENT: Payload(after=shapes.Named),
    Action.PLAYER_PUSH_ON: Payload(after=shapes.Named),
    Action.PLAYER_PUSH_OFF: Payload(after=shapes.Named),
    Action.PLAYER_ERASED: Payload(after=shapes.Erased),
    Action.REGISTRATION_SUBMITTED: Payload(after=shapes.Submitted),
    Action.REGISTRATION_CONFIRMED: Payload(after=shapes.Registration),
    Action.REGISTRATION_APPROVED: Payload(after=shapes.Registration),
    Action.REGISTRATION_REFUSED: Payload(after=shapes.EntryStatus),
    Action.REGISTRATION_PROMOTED: Payload(after=shapes.Registration),
    Action.REGISTRATION_CANCELLED: Payload(after=shapes.EntryStatus),
    Action.RELATIONSHIP_DECLARED: Payload(after=shapes.Pair),
    Action.RELATIONSHIP_REMOVED: Payload(shapes.Pair, shapes.DeclaredElsewhere | None),
    Action.STAFF_ASSIGNED: Payload(after=shapes.StaffRole),
    Action.STAFF_REMOVED: Payload(before=shapes.StaffRole),
    Action.STAFF_UNLOCKED: Payload(after=shapes.Account),
    Action.STAFF_ACCOUNT_CREATED: Payload(after=shapes.NewAccount),
    Action.ANNOUNCEMENT_POSTED: Payload(after=shapes.Text),
    Action.ANNOUNCEMENT_REMOVED: Payload(before=shapes.Text),
    Action.TOURNAMENT_STATUS: Payload(shapes.Status, shapes.AutomaticStatus),
    Action.TOURNAMENT_CLOSED: Payload(shapes.Status, shapes.Status),
    Action.TOURNAMENT_REGISTRATION: Payload(shapes.RegistrationSettings, shapes.RegistrationChanged),
    Action.TOURNAMENT_REOPENED: Payload(shapes.Status, shapes.Status),
    Action.TOURNAMENT_EMBED_ORIGINS: Payload(shapes.Origins, shapes.Origins),
    Action.CALL_PLACED: Payload(after=shapes.CallPlaced),
    Action.CALL_TAKEN: Payload(after=shapes.CallTaken),
    Action.CALL_PASSED: Payload(after=shapes.CallPassed),
    Action.CALL_RESOLVED: Payload(after=shapes.CallResolved),
    Action.CHAMPIONSHIP_CREATED: Payload(after=shapes.ChampionshipCreated),
    Action.PRIVACY_NOTICE_CHANGED: Payload(after=shapes.Version),
    Action.CONSENT_COLLECTED: Payload(after=shapes.Consent),
    Action.TOKEN_CREATED: Payload(after=shapes.Token),
    Action.TOKEN_REVOKED: Payload(after=shapes.TokenName),
    Action.WEBHOOK_ADDED: Payload(after=shapes.WebhookAdded),
    Action.WEBHOOK_TURNED_OFF: Payload(after=shapes.Webhook),
    Action.WEBHOOK_TURNED_ON: Payload(after=shapes.Webhook),
    Action.WEBHOOK_REMOVED: Payload(before=shapes.Webhook),
    Action.WEBHOOK_PINGED: Payload(after=shapes.Webhook),
    Action.WEBHOOK_SECRET_CHANGED: Payload(after=shapes.Webhook),
    Action.WEBHOOK_FORMAT_CHANGED: Payload(shapes.Format, shapes.WebhookFormat),
    Action.WEBHOOK_REDELIVERED: Payload(after=shapes.Redelivered),
    Action.WEBHOOK_FAILING: Payload(after=shapes.Webhook),
    Action.EMAIL_SENT_AGAIN: Payload(after=shapes.Email),
    Action.SEASON_CREATED: Payload(after=shapes.Season),
    Action.SEASON_CHANGED: Payload(shapes.Season, shapes.Season),
    Action.SEASON_DELETED: Payload(before=shapes.Season),
    Action.ADMIN_ADDED: Payload(after=shapes.AdminRow),
    Action.ADMIN_CHANGED: Payload(shapes.AdminRow | None, shapes.AdminRow),
    Action.ADMIN_DELETED: Payload(before=shapes.AdminRow),
}
"""Each action's payload; `tests/audit/test_payloads.py` asks one of every member."""


def missing(action: Action) -> str:
    """What to write for an action that has no shape yet."""
    return (f"Action.{action.name} ({action.value!r}) has no payload shape: add `Action.{action.name}: "
            f"Payload(before=..., after=...)` to PAYLOADS in audit/payloads.py, with a TypedDict in audit/shapes.py "
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
