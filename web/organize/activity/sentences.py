"""The activity log told in words: each audit entry of a tournament as a sentence, with its details.

What fills each action's sentence is here (`_TELLERS`); the words are activity_text.py's, the before and after
lines activity_details.py's. Audit entries name their object by type and id (like Django's admin log), so the
games, tables, stages and players they are about are looked up in activity_context.py, a few queries per page of
entries whatever its length. These modules sit above every app, so they may read all of them.
"""
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.html import format_html
from django.utils.translation import gettext as _

from audit.actions import BY_THE_SITE, Action, Kind
from audit.models import AuditEntry
from calls.models import Call
from championships.models import Relationship, StaffRole, Tournament
from results.models import Penalty
from scheduling.boards import LIMIT_LABELS
from scheduling.models import Game

from .context import Context
from .details import Detail, entry_details
from .text import Plain as _Plain
from .text import Said, game_at
from .text import choice_label as _choice_label
from .text import clock_text as _clock_text
from .text import qualified as _qualified


@dataclass(frozen=True)
class ActivityRow:
    """One audit entry as the activity log shows it."""

    entry: AuditEntry
    what: str
    """What happened, in a sentence of the current language; the action's code when it is not a known one."""
    what_html: str
    """The same with each name isolated for right-to-left pages."""
    where: str = ""
    """The game, table or stage it happened at, when there is one."""
    known: bool = True
    details: list[Detail] = field(default_factory=list)

    @property
    def by_site(self) -> bool:
        """Made by the site itself, no one acting (`audit.actions.BY_THE_SITE`)."""
        return self.entry.action in BY_THE_SITE

    @property
    def kind_label(self) -> str:
        return str(Kind(self.entry.kind).label) if self.entry.kind in Kind.values else self.entry.kind

    @property
    def description(self) -> str:
        return _("%(place)s: %(what)s") % {"place": self.where, "what": self.what} if self.where else self.what


def described(entries: Iterable[AuditEntry]) -> list[ActivityRow]:
    """The entries told in words; what they refer to is looked up in a few queries for all of them."""
    entries = list(entries)
    context = Context(entries)
    return [_describe(entry, context) for entry in entries]


def described_in_chunks(entries: QuerySet[AuditEntry], size: int = 500) -> Iterator[ActivityRow]:
    """`described` for a long export, without holding every entry in memory."""
    chunk = []
    for entry in entries.iterator(chunk_size=size):
        chunk.append(entry)
        if len(chunk) == size:
            yield from described(chunk)
            chunk = []
    yield from described(chunk)


@dataclass(frozen=True)
class _Facts:
    """An entry with its before and after as dicts, and what the batch of entries refers to."""

    entry: AuditEntry
    before: dict[str, Any]
    after: dict[str, Any]
    context: Context


@dataclass(frozen=True)
class _Telling:
    """Which of the action's sentences tells the entry (its variant), what fills the blanks, where it happened."""

    variant: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    game: int | None = None
    """The game it happened at, when the entry's object (a penalty, an entry) does not say."""


def _tell(variant: str = "", *, game: int | None = None, **values: Any) -> _Telling:
    return _Telling(variant, values, game)


def _player(f: _Facts) -> _Telling:
    return _tell(player=f.after.get("player", "?"))


def _user(f: _Facts) -> _Telling:
    return _tell(user=f.after.get("user", "?"))


def _status(f: _Facts) -> _Telling:
    return _tell(status=_Plain(_choice_label(Tournament.Status, f.after.get("status"))))


def _webhook(f: _Facts) -> _Telling:
    return _tell(url=f.after.get("url", "?"))


def _admin(f: _Facts) -> _Telling:
    return _tell(object=f.context.admin_object(f.entry))


def _draw(f: _Facts) -> _Telling:
    return _tell(order=list(f.after.get("order", [])))


def _penalty(f: _Facts, variant: str = "", **values: Any) -> _Telling:
    """A penalty's sentence names the player; it happened at the game the penalty was given for."""
    return _tell(variant, game=f.after.get("game"), player=f.after.get("player", "?"), **values)


def _timed_turns(f: _Facts) -> _Telling:
    left = _Plain(_clock_text(f.after.get("turn_seconds") or 0))
    if f.after.get("finish_seconds"):
        return _tell("finish", left=left, finish=_Plain(_clock_text(f.after["finish_seconds"])))
    if f.after.get("placement_seconds"):
        return _tell("placement", left=left, placement=_Plain(_clock_text(f.after["placement_seconds"])))
    return _tell(left=left)


_TELLERS: dict[Action, Callable[[_Facts], _Telling]] = {
    Action.SEATING_GENERATED: lambda f: (_tell("games", games=list(f.after["games"])) if f.after.get("games")
                                        else _tell()),
    Action.SEATING_SWAPPED: lambda f: _tell(**dict[str, Any](
        zip(("first", "second"), (list(f.before) + ["?", "?"])[:2]))),
    Action.SEATING_STATUS_REPAIRED: lambda f: _tell("finished" if f.after.get("status") == Game.Status.FINISHED
                                                    else "reopened"),
    Action.SEATING_PLAY_ORDER: lambda f: _tell(order=[f.context.entry_name(pk) for pk in f.after.get("order", [])]),
    Action.BOARD_CHANGED: lambda f: _tell("typed" if f.after.get("typed") else "random",
                                          board=f.after.get("board", "?")),
    Action.BOARD_LIMITS: lambda f: (
        _tell(limits=_Plain("; ".join(str(LIMIT_LABELS.get(k, k)) for k in f.after["limits"])))
        if f.after.get("limits") else _tell("off")),
    Action.CLOCK_START: lambda f: _tell(minutes=_Plain((f.after.get("seconds") or 0) // 60)),
    Action.CLOCK_PAUSE: lambda f: _tell(left=_Plain(_clock_text(f.after.get("paused_remaining") or 0))),
    Action.TURNS_ON: _timed_turns,
    Action.SHEET_ENTERED: lambda f: _tell("" if not f.before else "cleared" if f.after.get("signatures_cleared")
                                          else "changed"),
    Action.SHEET_SIGNATURE_DRAWN: _player,
    Action.SHEET_SIGNATURE_TAP: _player,
    Action.SHEET_SIGNATURE_OVERRULED: _player,
    Action.SHEET_SIGNATURE_PHONE: _player,
    Action.SHEET_OBJECTION: _player,
    Action.SHEET_BANKER: lambda f: (_tell("referee") if f.after.get("banker") == "referee"
                                    else _tell(player=f.after.get("banker") or "?")),
    Action.PENALTY_LATENESS: lambda f: _penalty(f, "minutes" if f.after.get("minutes") else "",
                                                vp=f.after.get("vp", 0), minutes=_Plain(f.after.get("minutes"))),
    Action.PENALTY_WARNING: _penalty,
    Action.PENALTY_COLLUSION: lambda f: _penalty(f, other=f.after.get("other", "?")),
    Action.PENALTY_VP_DEDUCTION: lambda f: _penalty(f, vp=f.after.get("vp", 0)),
    Action.PENALTY_DISQUALIFICATION: lambda f: _penalty(
        f, f.after["ground"] if f.after.get("ground") in Penalty.Ground.values else ""),
    Action.PENALTY_WITHDRAWN: lambda f: _penalty(
        f, kind=_Plain(_choice_label(Penalty.Kind, f.after.get("withdrawn_kind")))),
    Action.PENALTY_COLLUSION_RULING: lambda f: _penalty(f, "disqualified" if f.after.get("disqualified") else "kept",
                                                        n=_Plain(f.after.get("collusion_warnings", "?"))),
    Action.DRAW_CARDS: _draw,
    **dict.fromkeys((Action.CALL_PLACED, Action.CALL_TAKEN, Action.CALL_PASSED, Action.CALL_RESOLVED), lambda f: _tell(
        "ruling" if f.after.get("ruling") else "", game=f.after.get("game"), table=_Plain(f.after.get("table", "?")),
        reason=_Plain(_choice_label(Call.Reason, f.after.get("reason"))), player=f.after.get("player", "?"),
        user=f.after.get("user", "?"), to=_Plain(_choice_label(Call.PassedTo, f.after.get("to"))),
        ruling=f.after.get("ruling", ""))),
    Action.DRAW_LOTS: _draw,
    Action.QUALIFICATION_ADVANCED: lambda f: _tell(
        qualifier=f.context.tournaments.get(f.entry.object_id, (f"#{f.entry.object_id}",))[0],
        players=_qualified(f.after.get("qualified"))),
    Action.QUALIFICATION_REPLACED: lambda f: (
        _tell(player=f.before.get("player", "?"), replacement=f.after["replacement"]) if f.after.get("replacement")
        else _tell("nobody", player=f.before.get("player", "?"))),
    Action.ENTRY_REGISTERED: _player,
    Action.ENTRY_CHECKED_IN: lambda f: _tell(
        "_".join(word for word, said in (("late", f.after.get("minutes_late")), ("self", f.after.get("self"))) if said),
        player=f.after.get("player", "?"), minutes=_Plain(f.after.get("minutes_late") or 0)),
    Action.ENTRY_SELF_CHECK_IN_OPENED: lambda f: _tell(until=_Plain(f.after.get("until", "?"))),
    Action.ENTRY_CHECK_IN_UNDONE: _player,
    Action.ENTRY_NOT_ADMITTED_UNDONE: _player,
    Action.ENTRY_NO_SHOW_UNDONE: _player,
    Action.ENTRY_WITHDRAWAL_UNDONE: _player,
    Action.ENTRY_NO_SHOW: _player,
    Action.ENTRY_WITHDRAWN: _player,
    Action.ENTRY_REMOVED: lambda f: _tell(player=f.before.get("player", "?")),
    Action.ENTRY_INVITED: _player,
    Action.ENTRY_CONFIRMED: _player,
    Action.ENTRY_NOT_ADMITTED: lambda f: _tell(player=f.after.get("player", "?"), game=f.after.get("game"),
                                               minutes=_Plain(f.after.get("minutes_late", "?"))),
    Action.PLAYER_REGISTERED: lambda f: _tell(player=f.after.get("name", "?")),
    Action.PLAYER_UPDATED: lambda f: _tell(player=f.after.get("name") or f.context.player_name(f.entry)),
    Action.PLAYER_LOOKED_UP: lambda f: _tell(
        str(f.after.get("by", "email")) + ("" if f.after.get("found") else "_missed"),
        player=f.after.get("player", "?")),
    Action.PLAYER_LOOKED_UP_ELSEWHERE: lambda f: _tell(str(f.after.get("by", "email")),
                                                       player=f.after.get("player", "?"),
                                                       tournament=f.after.get("tournament", "?")),
    Action.PLAYER_ENTERED_ELSEWHERE: lambda f: _tell(player=f.after.get("player", "?"),
                                                     tournament=f.after.get("tournament", "?")),
    Action.PLAYER_REMOVED_ELSEWHERE: lambda f: _tell(player=f.after.get("player", "?"),
                                                     tournament=f.after.get("tournament", "?")),
    Action.PLAYER_LINK_ROTATED: lambda f: (
        _tell("elsewhere", player=f.after.get("player", "?"), tournament=f.after.get("from", "?"))
        if f.after.get("from_id", f.entry.tournament_id) != f.entry.tournament_id else _player(f)),
    Action.PLAYER_LINK_SENT: _player,
    Action.PLAYER_PUSH_ON: _player,
    Action.PLAYER_PUSH_OFF: _player,
    Action.PLAYER_ERASED: lambda f: _tell(str(f.after.get("by", "organizer")), player=f.after.get("player", "?")),
    Action.REGISTRATION_SUBMITTED: _player,
    Action.REGISTRATION_CONFIRMED: lambda f: _tell(str(f.after.get("status", "")), player=f.after.get("player", "?")),
    Action.REGISTRATION_APPROVED: lambda f: _tell(str(f.after.get("status", "")), player=f.after.get("player", "?")),
    Action.REGISTRATION_REFUSED: _player,
    Action.REGISTRATION_PROMOTED: _player,
    Action.REGISTRATION_CANCELLED: _player,
    Action.RELATIONSHIP_DECLARED: lambda f: _tell(players=list(f.after.get("players", [])),
                                                  kind=_Plain(_choice_label(Relationship.Kind, f.after.get("kind")))),
    Action.RELATIONSHIP_REMOVED: lambda f: _tell("elsewhere" if f.after.get("declared_elsewhere") else "",
                                                 players=list(f.before.get("players", []))),
    Action.STAFF_ASSIGNED: lambda f: _tell(str(f.after.get("role")), user=f.after.get("user", "?")),
    Action.STAFF_REMOVED: lambda f: _tell(user=f.before.get("user", "?"),
                                          role=_Plain(_choice_label(StaffRole.Role, f.before.get("role")))),
    Action.STAFF_UNLOCKED: _user,
    Action.STAFF_ACCOUNT_CREATED: _user,
    Action.ANNOUNCEMENT_POSTED: lambda f: _tell(text=f.after.get("text", "")),
    Action.ANNOUNCEMENT_REMOVED: lambda f: _tell(text=f.before.get("text", "")),
    Action.TOURNAMENT_STATUS: _status,
    Action.TOURNAMENT_REOPENED: _status,
    Action.TOURNAMENT_REGISTRATION: lambda f: _tell(str(f.after.get("variant", "changed"))),
    Action.CHAMPIONSHIP_CREATED: lambda f: _tell(name=f.after.get("name", "?")),
    Action.PRIVACY_NOTICE_CHANGED: lambda f: _tell(version=_Plain(f.after.get("version", "?"))),
    Action.CONSENT_COLLECTED: lambda f: _tell(version=_Plain(f.after.get("version", "?")),
                                              players=_Plain(f.after.get("players", "?"))),
    Action.WEBHOOK_ADDED: _webhook,
    Action.WEBHOOK_TURNED_OFF: _webhook,
    Action.WEBHOOK_TURNED_ON: _webhook,
    Action.WEBHOOK_REMOVED: lambda f: _tell(url=f.before.get("url", "?")),
    Action.WEBHOOK_PINGED: _webhook,
    Action.WEBHOOK_SECRET_CHANGED: _webhook,
    Action.WEBHOOK_REDELIVERED: _webhook,
    Action.WEBHOOK_FORMAT_CHANGED: _webhook,
    Action.WEBHOOK_FAILING: _webhook,
    Action.EMAIL_SENT_AGAIN: lambda f: _tell(to=f.after.get("to", "?"), subject=f.after.get("subject", "?")),
    Action.ADMIN_ADDED: _admin,
    Action.ADMIN_CHANGED: _admin,
    Action.ADMIN_DELETED: _admin,
}
"""What fills each action's sentence, by action; an action whose sentences have no blanks needs none."""


def _describe(entry: AuditEntry, context: Context) -> ActivityRow:
    """The entry told by its action's sentence from the registry; an action this version does not know by its code."""
    action = Action.stored(entry.action)
    if action is None:
        return ActivityRow(entry, entry.action, format_html("<code>{}</code>", entry.action),
                           f"{entry.object_type} #{entry.object_id}", known=False,
                           details=entry_details(entry, context))
    facts = _Facts(entry, entry.before or {}, entry.after or {}, context)
    telling = _TELLERS[action](facts) if action in _TELLERS else _tell()
    said = Said(str(action.sentences.get(telling.variant, action.label)), **telling.values)
    where = game_at(telling.game) if telling.game else context.where(entry)
    return ActivityRow(entry, said.text, said.html, where,
                       details=entry_details(entry, context) if action.details else [])
