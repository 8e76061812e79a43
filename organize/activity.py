"""The activity log told in words: each audit entry of a tournament as a sentence, with its details.

Audit entries name their object by type and id (like Django's admin log), so the games, tables,
stages and players they are about are looked up here, a few queries per page of entries whatever
its length. This module sits above every app, so it may read all of them.
"""
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.apps import apps
from django.db.models import QuerySet, TextChoices
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from audit.actions import BY_THE_SITE, Action, Kind
from audit.models import AuditEntry
from calls.models import Call
from championships.models import Entry, Player, Relationship, StaffRole, Stage, Tournament
from results.models import Penalty, RecordSheet
from scheduling.boards import LIMIT_LABELS
from scheduling.models import Game, Table

from .activity_labels import DETAIL_LABELS, HIDDEN_DETAILS, OBJECT_LABELS


@dataclass(frozen=True)
class Detail:
    label: str
    value: str
    """Safe HTML: names and data isolated for right-to-left pages."""
    was: str | None = None
    """The value before the change, when it was different (safe HTML too)."""


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
    context = _Context(entries)
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


class _Context:
    """Numbers and names of the objects a batch of entries refers to, looked up once per type."""

    def __init__(self, entries: list[AuditEntry]):
        ids: dict[str, set[int]] = defaultdict(set)
        entry_ids: set[int] = set()
        player_ids: set[int] = set()
        for e in entries:
            ids[e.object_type].add(e.object_id)
            if e.action == Action.SEATING_PLAY_ORDER:
                for side in (e.before, e.after):
                    entry_ids.update(pk for pk in (side or {}).get("order", []) if isinstance(pk, int))
            if e.kind == Kind.PLAYER:
                player_ids.add(e.object_id)
            if e.kind == Kind.ADMIN:
                for side in (e.before, e.after):
                    player_id = (side or {}).get("player_id")
                    if isinstance(player_id, int):
                        player_ids.add(player_id)
        self.sheets = self._rows(RecordSheet, ids["recordsheet"], "table__game__number", "table__number")
        self.tables = self._rows(Table, ids["table"], "game__number", "number")
        self.games = self._rows(Game, ids["game"], "number")
        self.stages = self._rows(Stage, ids["stage"], "name")
        self.tournaments = self._rows(Tournament, ids["tournament"], "name")
        self.entries = self._rows(Entry, entry_ids, "player__name")
        self.players = self._rows(Player, player_ids, "name")
        self.model_names = {m._meta.model_name: m._meta.verbose_name for m in apps.get_models()}

    @staticmethod
    def _rows(model, pks: set[int], *fields: str) -> dict[int, tuple]:
        if not pks:
            return {}
        rows = model.objects.filter(pk__in=pks).values_list("pk", *fields)
        return {pk: tuple(values) for pk, *values in rows}

    def where(self, entry: AuditEntry) -> str:
        pk = entry.object_id
        if entry.object_type == "recordsheet" and pk in self.sheets:
            game, table = self.sheets[pk]
            return _game_and_table(game, table)
        if entry.object_type == "table" and pk in self.tables:
            game, table = self.tables[pk]
            return _game_and_table(game, table)
        if entry.object_type == "game" and pk in self.games:
            return _game(self.games[pk][0])
        if entry.object_type == "stage" and pk in self.stages:
            return self.stages[pk][0]
        return ""

    def player_name(self, entry: AuditEntry) -> str:
        return self.players[entry.object_id][0] if entry.object_id in self.players else f"#{entry.object_id}"

    def entry_name(self, pk) -> str:
        return self.entries[pk][0] if pk in self.entries else f"#{pk}"

    def admin_object(self, entry: AuditEntry) -> "_Said":
        data = entry.after or entry.before or {}
        kind = str(OBJECT_LABELS.get(entry.object_type) or self.model_names.get(entry.object_type, entry.object_type))
        name = data.get("name")
        if not name and data.get("player_id") in self.players:
            name = self.players[data["player_id"]][0]
        if name:
            return _Said(_("%(type)s “%(name)s”"), type=_Plain(kind), name=name)
        return _Said(_("%(type)s #%(id)s"), type=_Plain(kind), id=entry.object_id)


def _game(number) -> str:
    return _("Game %(n)s") % {"n": number}


def _game_and_table(game, table) -> str:
    return _("Game %(g)s · Table %(t)s") % {"g": game, "t": table}


def _names(names) -> str:
    return ", ".join(str(n) for n in names or [])


class _Plain(str):
    """Words of the current language put into a sentence as they are (not isolated like a name)."""


class _Said:
    """A sentence with its values filled in, as text and as HTML with each name isolated (<bdi>) for right-to-left.

    A value may be a list (of names), a `_Plain` text, or another `_Said`.
    """

    def __init__(self, sentence: str, **values):
        self.text = sentence % {k: _text(v) for k, v in values.items()}
        self.html = mark_safe(conditional_escape(sentence) % {k: _html(v) for k, v in values.items()})

    def __str__(self) -> str:
        return self.text


def _text(value) -> str:
    if isinstance(value, list):
        return _names(_text(v) for v in value)
    return value.text if isinstance(value, _Said) else str(value)


def _html(value) -> str:
    if isinstance(value, list):
        return mark_safe(", ".join(_html(v) for v in value))
    if isinstance(value, _Said):
        return value.html
    if isinstance(value, _Plain):
        return conditional_escape(value)
    return format_html("<bdi>{}</bdi>", value)


def _clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class _Facts:
    """An entry with its before and after as dicts, and what the batch of entries refers to."""

    entry: AuditEntry
    before: dict
    after: dict
    context: _Context


@dataclass(frozen=True)
class _Telling:
    """Which of the action's sentences tells the entry (its variant), what fills the blanks, where it happened."""

    variant: str = ""
    values: dict = field(default_factory=dict)
    game: int | None = None
    """The game it happened at, when the entry's object (a penalty, an entry) does not say."""


def _tell(variant: str = "", *, game: int | None = None, **values) -> _Telling:
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


def _penalty(f: _Facts, variant: str = "", **values) -> _Telling:
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
    Action.SEATING_SWAPPED: lambda f: _tell(**dict(zip(("first", "second"), (list(f.before) + ["?", "?"])[:2]))),
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


def _describe(entry: AuditEntry, context: _Context) -> ActivityRow:
    """The entry told by its action's sentence from the registry; an action this version does not know by its code."""
    action = Action.stored(entry.action)
    if action is None:
        return ActivityRow(entry, entry.action, format_html("<code>{}</code>", entry.action),
                           f"{entry.object_type} #{entry.object_id}", known=False, details=_details(entry, context))
    facts = _Facts(entry, entry.before or {}, entry.after or {}, context)
    telling = _TELLERS[action](facts) if action in _TELLERS else _tell()
    said = _Said(str(action.sentences.get(telling.variant, action.label)), **telling.values)
    where = _game(telling.game) if telling.game else context.where(entry)
    return ActivityRow(entry, said.text, said.html, where, details=_details(entry, context) if action.details else [])


def _choice_label(choices: type[TextChoices], value) -> str:
    """The value's label in the current language, "?" for a value the choices do not (or no longer) have."""
    return str(choices(value).label) if value in choices.values else "?"


def _qualified(rows) -> list:
    """[name, rank] pairs as "name (rank)", each name isolated."""
    return [_Said("%(name)s (%(rank)s)", name=row[0], rank=_Plain(row[1]))
            if isinstance(row, list | tuple) and len(row) == 2 else row for row in rows or []]


def _details(entry: AuditEntry, context: _Context) -> list[Detail]:
    """The before/after of an entry as label: value lines; for a change, only what changed, with what it was."""
    before, after = entry.before, entry.after
    admin = entry.kind == Kind.ADMIN
    if entry.action == Action.SEATING_SWAPPED:
        return [Detail(str(name), _seat(place), _seat(before.get(name)) if isinstance(before, dict) else None)
                for name, place in (after or {}).items()]
    if not isinstance(before, dict) or not isinstance(after, dict):
        data = after if isinstance(after, dict) else before
        if not isinstance(data, dict):
            return []
        return [Detail(_label(key, admin), _value(key, value, entry, context))
                for key, value in data.items()
                if admin or (key not in HIDDEN_DETAILS and value not in (None, "", [], {}))]
    details = []
    for key in list(after) + [k for k in before if k not in after]:
        if not admin and key in HIDDEN_DETAILS:
            continue
        new, old = after.get(key), before.get(key)
        if key in before and key in after and new == old:
            if admin or entry.action == Action.SHEET_CORRECTED:
                continue
            details.append(Detail(_label(key, admin), _value(key, new, entry, context)))
        else:
            details.append(Detail(_label(key, admin), _value(key, new, entry, context),
                                  _value(key, old, entry, context) if key in before else None))
    return details


def _label(key: str, admin: bool) -> str:
    if admin:
        return key
    return str(DETAIL_LABELS.get(key, key.replace("_", " ")))


def _seat(place) -> str:
    if isinstance(place, list | tuple) and len(place) == 2:
        return _Said(_("table %(table)s, position %(position)s"), table=_Plain(place[0]),
                     position=_Plain(place[1])).html
    return _value("", place, None, None)


def _value(key: str, value, entry: AuditEntry | None, context: _Context | None) -> str:
    """A before or after value as safe HTML: words of the current language as they are, names and data isolated."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "scores" and isinstance(value, list):
        return mark_safe("; ".join(
            _Said(_("%(player)s: %(vp)s VP (winner)") if s.get("winner") else _("%(player)s: %(vp)s VP"),
                  player=s.get("player", "?"), vp=_Plain("—" if s.get("vp") is None else s["vp"])).html
            for s in value if isinstance(s, dict)))
    if key == "order" and entry is not None and context is not None and entry.action == Action.SEATING_PLAY_ORDER:
        return _html([context.entry_name(pk) for pk in value])
    if key == "qualified" and isinstance(value, list):
        return _html(_qualified(value))
    if key == "tables" and isinstance(value, list):
        return mark_safe("; ".join(
            _Said(_("Table %(n)s"), n=_Plain(n)).html + ": " + _html(list(names)) for n, names in enumerate(value, 1)))
    if isinstance(value, dict):
        return mark_safe(", ".join(format_html("{}: {}", k, _value(k, v, entry, context)) for k, v in value.items()))
    if isinstance(value, list):
        return mark_safe(", ".join(_value("", v, entry, context) for v in value))
    return _html(value)
