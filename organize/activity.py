"""The activity log told in words: each audit entry of a tournament as a sentence, with its details.

Audit entries name their object by type and id (like Django's admin log), so the games, tables,
stages and players they are about are looked up here, a few queries per page of entries whatever
its length. This module sits above every app, so it may read all of them.
"""
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from django.apps import apps
from django.db.models import QuerySet
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from championships.models import Entry, Player, Relationship, StaffRole, Stage, Tournament
from results.models import Penalty, RecordSheet
from scheduling.boards import LIMIT_LABELS
from scheduling.models import Game, Table

from .activity_labels import DETAIL_LABELS, HIDDEN_DETAILS, KIND_LABELS, NO_DETAILS, OBJECT_LABELS


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
    def kind_label(self) -> str:
        return str(KIND_LABELS.get(self.entry.kind, self.entry.kind))

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
        entry_ids, player_ids = set(), set()
        for e in entries:
            ids[e.object_type].add(e.object_id)
            if e.action == "seating.play_order":
                for side in (e.before, e.after):
                    entry_ids.update(pk for pk in (side or {}).get("order", []) if isinstance(pk, int))
            if e.kind == "player":
                player_ids.add(e.object_id)
            if e.kind == "admin":
                for side in (e.before, e.after):
                    if isinstance((side or {}).get("player_id"), int):
                        player_ids.add(side["player_id"])
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


def _describe(entry: AuditEntry, context: _Context) -> ActivityRow:
    before, after = entry.before or {}, entry.after or {}
    action, where = entry.action, context.where(entry)
    said = None
    if action == "seating.generated":
        said = (_Said(_("Seating generated for games %(games)s"), games=list(after["games"]))
                if after.get("games") else _Said(_("Seating generated")))
    elif action == "seating.swapped":
        first, second = (list(before) + ["?", "?"])[:2]
        said = _Said(_("Seats of %(first)s and %(second)s swapped"), first=first, second=second)
    elif action == "seating.published":
        said = _Said(_("Seating published"))
    elif action == "seating.unpublished":
        said = _Said(_("Seating taken back to be planned again"))
    elif action == "seating.status_repaired":
        said = (_Said(_("Game status repaired from its record sheets: every table is signed off, the game is finished"))
                if after.get("status") == Game.Status.FINISHED else
                _Said(_("Game status repaired from its record sheets: a table is not signed off, the game is "
                        "published again")))
    elif action == "seating.play_order":
        said = _Said(_("Play order recorded: %(order)s"),
                     order=[context.entry_name(pk) for pk in after.get("order", [])])
    elif action == "seating.seeded":
        said = _Said(_("Tables seated by rank"))
    elif action == "sheet.entered":
        if not before:
            said = _Said(_("Scores entered"))
        elif after.get("signatures_cleared"):
            said = _Said(_("Scores changed; the signatures given were cleared"))
        else:
            said = _Said(_("Scores changed"))
    elif action == "sheet.signature.drawn":
        said = _Said(_("%(player)s signed (drawn signature)"), player=after.get("player", "?"))
    elif action == "sheet.signature.tap":
        said = _Said(_("%(player)s confirmed the result by tap"), player=after.get("player", "?"))
    elif action == "sheet.signature.overruled":
        said = _Said(_("%(player)s refused to sign; the referee overruled the refusal"),
                     player=after.get("player", "?"))
    elif action == "sheet.signed_off":
        said = _Said(_("Result signed off and locked"))
    elif action == "sheet.corrected":
        said = _Said(_("Signed-off result corrected"))
    elif action == "sheet.banker":
        said = (_Said(_("Banker recorded: the referee")) if after.get("banker") == "referee"
                else _Said(_("Banker recorded: %(player)s"), player=after.get("banker") or "?"))
    elif action == "board.changed":
        said = (_Said(_("Board replaced by a typed code: %(board)s"), board=after.get("board", "?"))
                if after.get("typed") else _Said(_("Board replaced by a new random board: %(board)s"),
                                                 board=after.get("board", "?")))
    elif action == "board.limits":
        said = (_Said(_("Fairness limits for random boards: %(limits)s"),
                      limits=_Plain("; ".join(str(LIMIT_LABELS.get(k, k)) for k in after["limits"])))
                if after.get("limits") else _Said(_("Fairness limits for random boards switched off")))
    elif action == "clock.start":
        said = _Said(_("Map-study clock started: %(minutes)s minutes"),
                     minutes=_Plain((after.get("seconds") or 0) // 60))
    elif action == "clock.pause":
        said = _Said(_("Map-study clock paused with %(left)s left"),
                     left=_Plain(_clock_text(after.get("paused_remaining") or 0)))
    elif action == "clock.resume":
        said = _Said(_("Map-study clock resumed"))
    elif action == "clock.end":
        said = _Said(_("Map study ended early (all players agreed)"))
    elif action == "clock.reset":
        said = _Said(_("Map-study clock reset"))
    elif action == "turns.on" and after.get("finish_seconds"):
        said = _Said(_("Timed turns imposed: %(finish)s to finish the slow turn, then %(left)s a turn"),
                     finish=_Plain(_clock_text(after["finish_seconds"])),
                     left=_Plain(_clock_text(after.get("turn_seconds") or 0)))
    elif action == "turns.on" and after.get("placement_seconds"):
        said = _Said(_("Timed turns imposed: %(left)s a turn, %(placement)s a placement"),
                     left=_Plain(_clock_text(after.get("turn_seconds") or 0)),
                     placement=_Plain(_clock_text(after["placement_seconds"])))
    elif action == "turns.on":
        said = _Said(_("Timed turns imposed: %(left)s a turn"),
                     left=_Plain(_clock_text(after.get("turn_seconds") or 0)))
    elif action == "turns.off":
        said = _Said(_("Timed turns lifted"))
    elif entry.kind == "penalty":
        said = _penalty(action.partition(".")[2], after)
        if said is not None and after.get("game"):
            where = _game(after["game"])
    elif action == "announcement.posted":
        said = _Said(_("Announcement posted: %(text)s"), text=after.get("text", ""))
    elif action == "announcement.removed":
        said = _Said(_("Announcement taken down: %(text)s"), text=before.get("text", ""))
    elif action == "draw.cards":
        said = _Said(_("Development card draw, best first: %(order)s"), order=list(after.get("order", [])))
    elif action == "draw.lots":
        said = _Said(_("Drawing of lots, best first: %(order)s"), order=list(after.get("order", [])))
    elif action == "qualification.advanced":
        said = _Said(_("Qualifiers of %(qualifier)s sent to the finals: %(players)s"),
                     qualifier=context.tournaments.get(entry.object_id, (f"#{entry.object_id}",))[0],
                     players=_qualified(after.get("qualified")))
    elif action == "qualification.replaced":
        player = before.get("player", "?")
        said = (_Said(_("%(player)s cannot attend the finals; %(replacement)s takes the place"),
                      player=player, replacement=after["replacement"])
                if after.get("replacement") else
                _Said(_("%(player)s cannot attend the finals; nobody was left to take the place"), player=player))
    elif action == "entry.registered":
        said = _Said(_("%(player)s entered"), player=after.get("player", "?"))
    elif action == "entry.checked_in":
        said = (_Said(_("%(player)s checked in, %(minutes)s minutes late"), player=after.get("player", "?"),
                      minutes=_Plain(after["minutes_late"]))
                if after.get("minutes_late") else _Said(_("%(player)s checked in"), player=after.get("player", "?")))
    elif action == "entry.check_in_undone":
        said = _Said(_("Check-in of %(player)s undone"), player=after.get("player", "?"))
    elif action == "entry.not_admitted_undone":
        said = _Said(_("“Not admitted” of %(player)s undone"), player=after.get("player", "?"))
    elif action == "entry.no_show_undone":
        said = _Said(_("“Did not come” of %(player)s undone"), player=after.get("player", "?"))
    elif action == "entry.withdrawal_undone":
        said = _Said(_("Withdrawal of %(player)s undone"), player=after.get("player", "?"))
    elif action == "entry.no_show":
        said = _Said(_("%(player)s did not come"), player=after.get("player", "?"))
    elif action == "entry.withdrawn":
        said = _Said(_("%(player)s withdrew"), player=after.get("player", "?"))
    elif action == "entry.removed":
        said = _Said(_("%(player)s taken out of the tournament"), player=before.get("player", "?"))
    elif action == "entry.not_admitted":
        said = _Said(_("%(player)s not admitted: %(minutes)s minutes late, more than 15"),
                     player=after.get("player", "?"), minutes=_Plain(after.get("minutes_late", "?")))
        if after.get("game"):
            where = _game(after["game"])
    elif action == "player.registered":
        said = _Said(_("%(player)s registered"), player=after.get("name", "?"))
    elif action == "player.updated":
        said = _Said(_("Details of %(player)s changed"), player=after.get("name") or context.player_name(entry))
    elif action == "relationship.declared":
        said = _Said(_("%(players)s declared friends or family (%(kind)s)"), players=list(after.get("players", [])),
                     kind=_Plain(_kind_label(after.get("kind"))))
    elif action == "relationship.removed":
        players = list(before.get("players", []))
        said = (_Said(_("This championship's declaration of %(players)s removed; another championship's keeps them "
                        "apart"), players=players)
                if after.get("declared_elsewhere") else
                _Said(_("%(players)s no longer declared friends or family"), players=players))
    elif action == "staff.assigned":
        role = after.get("role")
        if role == "organizer":
            said = _Said(_("%(user)s appointed organizer"), user=after.get("user", "?"))
        elif role == "referee":
            said = _Said(_("%(user)s appointed referee"), user=after.get("user", "?"))
    elif action == "staff.removed":
        said = _Said(_("%(user)s no longer %(role)s"), user=before.get("user", "?"),
                     role=_Plain(StaffRole.Role(before["role"]).label if before.get("role") in StaffRole.Role.values
                                 else "?"))
    elif action == "staff.unlocked":
        said = _Said(_("Sign-in pause of %(user)s lifted"), user=after.get("user", "?"))
    elif action == "staff.account_created":
        said = _Said(_("Account %(user)s created and sent a set-password link"), user=after.get("user", "?"))
    elif action == "tournament.status":
        said = _Said(_("Tournament status: %(status)s"), status=_Plain(_status_label(after.get("status"))))
    elif action == "tournament.closed":
        said = _Said(_("Tournament closed by hand"))
    elif action == "tournament.reopened":
        said = _Said(_("Tournament reopened: %(status)s"), status=_Plain(_status_label(after.get("status"))))
    elif action == "admin.added":
        said = _Said(_("Added in the admin: %(object)s"), object=context.admin_object(entry))
    elif action == "admin.changed":
        said = _Said(_("Changed in the admin: %(object)s"), object=context.admin_object(entry))
    elif action == "admin.deleted":
        said = _Said(_("Deleted in the admin: %(object)s"), object=context.admin_object(entry))
    if said is None:
        return ActivityRow(entry, action, format_html("<code>{}</code>", action),
                           f"{entry.object_type} #{entry.object_id}", known=False, details=_details(entry, context))
    plain = action in NO_DETAILS or entry.kind == "penalty"  # a penalty's sentence, place and reason say it all
    return ActivityRow(entry, said.text, said.html, where, details=[] if plain else _details(entry, context))


def _penalty(kind: str, after: dict) -> _Said | None:
    player = after.get("player", "?")
    if kind == "lateness":
        if after.get("minutes"):
            return _Said(_("Late arrival (%(minutes)s minutes): %(player)s loses %(vp)s VP"), player=player,
                         minutes=_Plain(after["minutes"]), vp=after.get("vp", 0))
        return _Said(_("Late arrival: %(player)s loses %(vp)s VP"), player=player, vp=after.get("vp", 0))
    if kind == "warning":
        return _Said(_("Warning for %(player)s"), player=player)
    if kind == "collusion":
        return _Said(_("Collusion warning for %(player)s and %(other)s"), player=player,
                     other=after.get("other", "?"))
    if kind == "vp_deduction":
        return _Said(_("VP deduction: %(player)s loses %(vp)s VP"), player=player, vp=after.get("vp", 0))
    if kind == "disqualification":
        if after.get("ground") == "rules":
            return _Said(_("%(player)s disqualified for breaking the game's rules"), player=player)
        if after.get("ground") == "conduct":
            return _Said(_("%(player)s disqualified for breaching the code of conduct"), player=player)
        return _Said(_("%(player)s disqualified"), player=player)
    if kind == "withdrawn":
        return _Said(_("Penalty withdrawn (%(kind)s): %(player)s"), player=player,
                     kind=_Plain(Penalty.Kind(after["withdrawn_kind"]).label
                                 if after.get("withdrawn_kind") in Penalty.Kind.values else "?"))
    if kind == "collusion_ruling":
        if after.get("disqualified"):
            return _Said(_("Repeated collusion (%(n)s warnings): %(player)s disqualified by the referee's ruling"),
                         player=player, n=_Plain(after.get("collusion_warnings", "?")))
        return _Said(_("Repeated collusion (%(n)s warnings): the referee ruled not to disqualify %(player)s"),
                     player=player, n=_Plain(after.get("collusion_warnings", "?")))
    return None


def _kind_label(kind) -> str:
    return str(Relationship.Kind(kind).label) if kind in Relationship.Kind.values else "?"


def _status_label(status) -> str:
    return str(Tournament.Status(status).label) if status in Tournament.Status.values else "?"


def _qualified(rows) -> list:
    """[name, rank] pairs as "name (rank)", each name isolated."""
    return [_Said("%(name)s (%(rank)s)", name=row[0], rank=_Plain(row[1]))
            if isinstance(row, list | tuple) and len(row) == 2 else row for row in rows or []]


def _details(entry: AuditEntry, context: _Context) -> list[Detail]:
    """The before/after of an entry as label: value lines; for a change, only what changed, with what it was."""
    before, after = entry.before, entry.after
    admin = entry.kind == "admin"
    if entry.action == "seating.swapped":
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
            if admin or entry.action == "sheet.corrected":
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
    if key == "order" and entry is not None and entry.action == "seating.play_order":
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
