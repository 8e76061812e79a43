"""A registration list checked against the database before anything is saved (the import preview).

The same check runs when the organizer confirms, inside the import's transaction, so what was
previewed is what is written, or nothing is (docs/rules.md §1: minimum age, staff may not play).
Reads only: a fixed handful of queries whatever the number of rows.

Players are shared by the whole deployment, so a row that names a registered player is a decision
the organizer makes (keep the record as it is, the default, or update it with the list's details),
offered only when they organize every tournament that player is entered in; otherwise the record is
linked unchanged. A row is matched by email; without one, by name and date of birth, or by name
alone among the organizer's own players. Namesakes are registered when an email or a date of birth
tells them apart.
"""
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.names import fold
from engines.csv_input import InputProblem, Record

from .eligibility import age_on, staff_roles
from .list_dates import ISO, Guess, default_format, guess_format
from .list_file import ListLine, ListRow, check_records
from .models import Declaration, Entry, Player, StaffRole, Tournament
from .permissions import officiated_tournaments, visible_players
from .relationships import declaration_scope

KEEP, UPDATE = "keep", "update"
DECISIONS = (KEEP, UPDATE)
"""What the organizer chose for a row whose registered player has other details."""


@dataclass
class Match:
    """The registered player a row stands for, and what the row would change in their record."""

    player: Player
    changes: dict[str, tuple[str, str]]
    """Field → (as registered, as in the list) for each detail the list gives otherwise; blank cells change nothing."""
    may_change: bool
    """The organizer organizes every tournament the player is entered in (`permissions.may_change_player`)."""
    decision: str = KEEP

    @property
    def updates(self) -> bool:
        return self.decision == UPDATE and self.may_change and bool(self.changes)

    @property
    def needs_decision(self) -> bool:
        return self.may_change and bool(self.changes)


@dataclass(frozen=True)
class Counts:
    """What confirming the list does: players created, linked as they are, updated, entered; pairs declared."""

    new: int
    linked: int
    updated: int
    entered: int
    relationships: int

    @property
    def nothing_to_do(self) -> bool:
        return not (self.new or self.updated or self.entered or self.relationships)


@dataclass(frozen=True)
class PreviewRow:
    item: ListLine
    match: Match | None
    entered: bool


@dataclass
class ListPreview:
    lines: list[ListLine]
    matches: dict[int, Match]
    """Registered players the rows stand for, by line."""
    friends: dict[str, Player]
    """Players of the organizer's tournaments named as friends who are not in the file, by name key."""
    entered: set[int]
    """Lines whose player is already entered in the tournament."""
    pairs_to_declare: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.lines) and all(item.ok for item in self.lines)

    @property
    def list_rows(self) -> list[ListRow]:
        """What the lines mean, in order: one a line once the preview is ok (only a line with problems has none)."""
        return [item.row for item in self.lines if item.row is not None]

    @property
    def problems(self) -> list[InputProblem]:
        return [p for item in self.lines for p in item.problems]

    @property
    def decisions(self) -> list[ListLine]:
        """Lines whose registered player the list describes differently, for the organizer to decide."""
        return [item for item in self.lines if item.line in self.matches and self.matches[item.line].needs_decision]

    @property
    def rows(self) -> list[PreviewRow]:
        return [PreviewRow(item, self.matches.get(item.line), item.line in self.entered) for item in self.lines]

    @property
    def counts(self) -> Counts:
        rows = [item for item in self.lines if item.row and item.ok]
        updated = sum(1 for item in rows if item.line in self.matches and self.matches[item.line].updates)
        matched = sum(1 for item in rows if item.line in self.matches)
        return Counts(new=len(rows) - matched, linked=matched - updated, updated=updated,
                      entered=sum(1 for item in rows if item.line not in self.entered),
                      relationships=self.pairs_to_declare)


def _staff(tournament: Tournament) -> tuple[set[int], set[str]]:
    """Ids and email addresses of the tournament's staff (its own and its championship's)."""
    users = get_user_model().objects.filter(pk__in=staff_roles(tournament).values("user_id"))
    rows = list(users.values_list("pk", "email"))
    return {pk for pk, _email in rows}, {email.lower() for _pk, email in rows if email}


class Registered:
    """The registered players a list can mean, read in a few queries, with what the user may do with each."""

    def __init__(self, rows: list[ListRow], user):
        emails = {row.email for row in rows if row.email}
        keys = {fold(row.name) for row in rows} | {fold(f) for row in rows for f in row.friends_or_family}
        self.players = list(Player.objects.select_related("country").annotate(lower_email=Lower("email"))
                            .filter(Q(lower_email__in=emails) | Q(search_name__in=keys)))
        self.by_email = {p.email.lower(): p for p in self.players if p.email}
        self.by_name: dict[str, list[Player]] = {}
        for player in self.players:
            self.by_name.setdefault(player.search_name, []).append(player)
        entries = Entry.objects.filter(player__in=self.players)
        if user.is_superuser:
            self.own, self.foreign = {p.pk for p in self.players}, set()
        else:
            organized = officiated_tournaments(user, StaffRole.Role.ORGANIZER)
            self.own = set(visible_players(user).filter(pk__in=[p.pk for p in self.players])
                           .values_list("pk", flat=True))
            """Players whose record the user may read (`permissions.visible_players`)."""
            self.foreign = set(entries.exclude(tournament__in=organized).values_list("player_id", flat=True))

    def may_change(self, player: Player) -> bool:
        """The user may read the record and organizes every tournament the player is in."""
        return player.pk in self.own and player.pk not in self.foreign

    def match(self, row: ListRow) -> tuple[Player | None, InputProblem | None]:
        """The player the row stands for (None: a new one), or why that cannot be told."""
        if row.email:
            return self.by_email.get(row.email), None
        same = self.by_name.get(fold(row.name), [])
        if row.date_of_birth:
            exact = [p for p in same if p.date_of_birth == row.date_of_birth]
            if len(exact) > 1:
                return None, InputProblem(row.line, _("%(n)d players named %(name)s and born on %(date)s are "
                                                      "registered: give the email of the one meant.")
                                          % {"n": len(exact), "name": row.name,
                                             "date": row.date_of_birth.isoformat()}, "email")
            if len(exact) == 1:
                return exact[0], None
            undated = [p for p in same if p.pk in self.own and not p.email and p.date_of_birth is None]
            return (undated[0] if len(undated) == 1 else None), None
        own = [p for p in same if p.pk in self.own]
        if len(own) == 1:
            return own[0], None
        if same:
            return None, InputProblem(row.line, ngettext(
                "A player named %(name)s is already registered: give an email or a date of birth to tell this one "
                "apart (or to reuse them).",
                "%(n)d players named %(name)s are registered: give an email or a date of birth to tell this one "
                "apart (or to reuse one of them).", len(same)) % {"n": len(same), "name": row.name}, "name")
        return None, None

    def friend(self, name: str) -> list[Player]:
        """Players of the organizer's own tournaments with that name (a friend is named, not an email given)."""
        return [p for p in self.by_name.get(fold(name), []) if p.pk in self.own]


def _changes(player: Player, row: ListRow) -> dict[str, tuple[str, str]]:
    changes = {}
    if player.name != row.name:
        changes["name"] = (player.name, row.name)
    if row.date_of_birth and row.date_of_birth != player.date_of_birth:
        changes["date_of_birth"] = (player.date_of_birth.isoformat() if player.date_of_birth else "",
                                    row.date_of_birth.isoformat())
    registered_country = player.country.code if player.country else ""
    if row.country and row.country != registered_country:
        changes["country"] = (registered_country, row.country)
    return changes


def date_guess(records: list[Record], tournament: Tournament) -> Guess:
    """The format the list's dates of birth seem written in; without proof, the one usual in the championship's
    country (day first when it has none: `list_dates.default_format`)."""
    country = tournament.championship.country if tournament.championship else None
    return guess_format(((line, cells.get("date_of_birth", "")) for line, cells in records),
                        default_format(country.code if country else ""))


def preview_list(records: list[Record], tournament: Tournament, *, user, decisions: dict[int, str] | None = None,
                 read_problems: Sequence[InputProblem] = (), allow_existing: bool = True,
                 date_format: str = ISO) -> ListPreview:
    """Every row with its problems: the file's own (see `list_file.check_records`) and the database's.

    `decisions` (line → KEEP or UPDATE) say what to do with a registered player the row describes
    differently; KEEP where not given. Every row is entered in `tournament`, so its age cut-off and staff apply.
    Dates of birth are read in `date_format` (`list_dates.FORMATS`).
    """
    decisions = decisions or {}
    lines = check_records(records, list(read_problems), date_format=date_format)
    rows = [item.row for item in lines if item.row]
    registered = Registered(rows, user)
    in_file = {fold(row.name) for row in rows}
    staff_ids, staff_emails = _staff(tournament)
    entered = set(Entry.objects.filter(tournament=tournament, player__in=registered.players)
                  .values_list("player_id", flat=True))
    preview = ListPreview(lines, {}, {}, set())
    championship = tournament.championship
    for item in lines:
        row = item.row
        if row is None:
            continue
        add = item.problems.append
        player, problem = registered.match(row)
        if problem is not None:
            add(problem)
        if player is not None and not allow_existing:  # another championship's is named as typed
            preview.matches[item.line] = Match(player, {}, False)
            add(InputProblem(item.line, _("%(name)s is already registered: enter them from the entries page.")
                             % {"name": player.name if player.pk in registered.own else row.name},
                             "email" if row.email else "name"))
            continue
        match = None
        if player is not None:
            may_change = registered.may_change(player)
            changes = _changes(player, row)
            match = Match(player, changes if may_change else {}, may_change,
                          decisions.get(item.line, KEEP) if may_change and changes else KEEP)
            preview.matches[item.line] = match
            if not may_change:
                item.notes.append(_("%(name)s plays in another organizer's championship: linked as registered; "
                                    "the list's name, date of birth and country are not used.")
                                  % {"name": row.name})
            elif not changes:
                item.notes.append(_("Already registered: this player is reused."))
            if player.pk in entered:
                preview.entered.add(item.line)
                item.notes.append(_("Already entered in %(tournament)s.") % {"tournament": tournament.name})
        elif registered.by_name.get(fold(row.name)) and problem is None:
            item.notes.append(_("Another player named %(name)s is registered: this row registers a new player, told "
                                "apart by email or date of birth.") % {"name": row.name})
        for friend in row.friends_or_family:
            key = fold(friend)
            if key in in_file:
                continue
            known = registered.friend(friend)
            if len(known) == 1:
                preview.friends[key] = known[0]
            elif known:
                add(InputProblem(item.line, _("%(n)d players named %(name)s are entered in your tournaments: "
                                              "declare this relationship from the relationships page")
                                 % {"n": len(known), "name": friend}, "friends_or_family"))
            else:
                add(InputProblem(item.line, _("%(name)s is neither in the file nor a player of your tournaments")
                                 % {"name": friend}, "friends_or_family"))
        if (player is not None and player.user_id in staff_ids) or (row.email and row.email in staff_emails):
            add(InputProblem(item.line, _("%(name)s is on the staff of %(tournament)s and cannot play in it.")
                             % {"name": row.name, "tournament": tournament.name}, "email"))
        born = row.date_of_birth if match is None or match.updates else match.player.date_of_birth
        unreadable_date = any(p.column == "date_of_birth" for p in item.problems)
        if championship is not None and championship.age_cutoff is not None and not unreadable_date:
            if born is None and match is not None and match.needs_decision and row.date_of_birth:
                add(InputProblem(item.line, _("no date of birth is registered, and it is needed to check the "
                                              "minimum age: choose to update the record with the list's"),
                                 "date_of_birth"))
            elif born is None:
                add(InputProblem(item.line, _("no date of birth: it is needed to check the minimum age"),
                                 "date_of_birth"))
            elif age_on(born, championship.age_cutoff) < championship.minimum_age:
                add(InputProblem(item.line, _("under %(age)d on the cut-off date %(cutoff)s")
                                 % {"age": championship.minimum_age,
                                    "cutoff": championship.age_cutoff.isoformat()}, "date_of_birth"))
    preview.pairs_to_declare = _pairs_to_declare(preview, tournament)
    return preview


def _pairs_to_declare(preview: ListPreview, tournament: Tournament) -> int:
    """Friend pairs the list names that this tournament's championship has not declared yet."""
    pairs: set[frozenset] = set()
    who: dict[int, object] = {}
    """Each line's player: a registered one's id, or the line for a new one."""
    by_key: dict[str, object] = {}
    for item in preview.lines:
        if item.row is not None:
            match = preview.matches.get(item.line)
            who[item.line] = by_key[fold(item.row.name)] = match.player.pk if match else ("line", item.line)
    for item in preview.lines:
        if item.row is None:
            continue
        one = who[item.line]
        for friend in item.row.friends_or_family:
            key = fold(friend)
            other = by_key.get(key) or (preview.friends[key].pk if key in preview.friends else None)
            if other is not None and other != one:
                pairs.add(frozenset((one, other)))
    known = [tuple(pair) for pair in pairs if all(isinstance(p, int) for p in pair)]
    if known:
        ids = {p for pair in known for p in pair}
        declared = {frozenset(pair) for pair in Declaration.objects.filter(
            relationship__player_a__in=ids, relationship__player_b__in=ids, **declaration_scope(tournament))
            .values_list("relationship__player_a", "relationship__player_b")}
        pairs -= declared
    return len(pairs)
