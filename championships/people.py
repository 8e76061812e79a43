"""The organizer's writes about people: players one by one or from a list, relationships, entries in bulk.

Players are shared by every event, but these pages sit under a tournament, so each write checks that
the user organizes it, and a registered player is changed only by an organizer of every tournament they
are entered in (`permissions.may_change_player`). One transaction each: a refused row or player leaves
nothing written, and the message names the line or the player.
"""
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from core.changes import announce
from engines.csv_input import Record

from . import foreign_players
from .foreign_players import Typed
from .list_dates import ISO
from .list_file import ListRow
from .list_import import ListPreview, preview_list
from .models import Entry, Player, Relationship, Tournament
from .permissions import require_organizer, visible_players
from .relationships import declare_relationship
from .services import enter_player, match_rows, register_players
from .waiting_list import place_freed

FIELDS = {"name": "name", "email": "email", "date_of_birth": "date_of_birth", "country": "country",
          "friends_or_family": "friend"}
"""The add-a-player form's field for each list column a problem names."""


@dataclass(frozen=True)
class ImportResult:
    created: int
    linked: int
    updated: int
    entered: int
    relationships: int


def _line_messages(preview: ListPreview) -> list[str]:
    return [_("Line %(line)d, %(column)s: %(problem)s") % {"line": p.line, "column": p.column, "problem": p.message}
            if p.column else _("Line %(line)d: %(problem)s") % {"line": p.line, "problem": p.message}
            for p in preview.problems]


def typed(row: ListRow) -> Typed:
    """What a list's row gives to find a registered player by: its email, else its date of birth."""
    return Typed(email=row.email) if row.email else Typed(date_of_birth=row.date_of_birth)


def _on_line(line: int, player: Player, tournament: Tournament, *, user, row: ListRow, foreign: bool) -> Entry:
    """`foreign_players.enter` for a list's line, its refusal named by the line."""
    try:
        return foreign_players.enter(player, tournament, user=user, typed=typed(row), foreign=foreign)[0]
    except ValidationError as error:
        raise ValidationError(_("Line %(line)d: %(problem)s")
                              % {"line": line, "problem": " ".join(error.messages)}) from error


def _changed_meanwhile() -> ValidationError:
    return ValidationError(_("Another organizer registered or entered some of these players meanwhile. Nothing was "
                             "saved: check the list again."))


def import_list(tournament: Tournament, records: list[Record], *, user,
                decisions: dict[int, str] | None = None, expected: dict[int, int] | None = None,
                date_format: str = ISO) -> ImportResult:
    """Register and enter every row of a list, or nothing: the preview's checks run again here.

    `decisions` (line → keep or update) are the organizer's for rows naming a registered player with other
    details; `expected` (line → player id) is what the preview matched, so a list that now means other players
    is refused rather than written. Dates of birth are read in `date_format` (`list_dates.FORMATS`), as previewed.
    A registered player of another championship is entered with an invitation (`foreign_players.enter`); the
    lookup was counted when the list was previewed (`foreign_players.look_up_list`).
    """
    require_organizer(user, tournament)
    try:
        with transaction.atomic():
            preview = preview_list(records, tournament, user=user, decisions=decisions, date_format=date_format)
            if not preview.ok:
                raise ValidationError(_line_messages(preview) or [_("The list has no players.")])
            matches = {line: match.player for line, match in preview.matches.items()}
            if expected is not None and {line: p.pk for line, p in matches.items()} != expected:
                raise _changed_meanwhile()
            counts = preview.counts
            foreign = foreign_players.unseen(user, matches.values())
            rows = {row.line: row for row in preview.list_rows}
            players = register_players(preview.list_rows, user=user, tournament=tournament,
                                       matches=matches, friends=preview.friends,
                                       updates=frozenset(line for line, m in preview.matches.items() if m.updates))
            for line, player in players.items():
                if line not in preview.entered:
                    _on_line(line, player, tournament, user=user, row=rows[line], foreign=player.pk in foreign)
            return ImportResult(created=counts.new, linked=counts.linked, updated=counts.updated,
                                entered=counts.entered, relationships=counts.relationships)
    except (IntegrityError, PermissionDenied) as error:  # a player registered, or entered elsewhere, meanwhile
        raise _changed_meanwhile() from error


def looked_up_in(preview: ListPreview, tournament: Tournament, *, user) -> None:
    """The registered players a previewed list names, counted and logged as lookups where the user could not see
    them (`foreign_players.look_up_list`); refused whole past the user's hourly allowance."""
    rows = {item.line: item.row for item in preview.lines if item.row is not None}
    foreign_players.look_up_list(tournament, {line: (match.player, typed(rows[line]))
                                              for line, match in preview.matches.items()}, user=user)


def add_player(tournament: Tournament, *, user, name: str, email: str = "", date_of_birth: date | None = None,
               country: str = "", friend: str = "", kind: str = Relationship.Kind.FRIEND) -> Player:
    """One player typed in and entered: the same checks as a list's row (a registered one is refused: enter
    them from the entries page, by exact email or name and date of birth; the refusal is a lookup, counted)."""
    require_organizer(user, tournament)
    cells = {"name": name, "email": email, "date_of_birth": date_of_birth.isoformat() if date_of_birth else "",
             "country": country, "friends_or_family": friend.replace(";", " ")}
    preview = preview_list([(1, cells)], tournament, user=user, allow_existing=False)
    looked_up_in(preview, tournament, user=user)
    with transaction.atomic():
        return _add(preview, tournament, user=user, kind=kind)


def _add(preview: ListPreview, tournament: Tournament, *, user, kind: str) -> Player:
    if not preview.ok:
        errors: dict[str, list[str]] = {}
        for problem in preview.problems:
            errors.setdefault(FIELDS.get(problem.column or "", "__all__"), []).append(problem.message)
        raise ValidationError(errors)
    (row,) = preview.list_rows
    try:
        with transaction.atomic():
            (player,) = register_players([row], user=user, tournament=tournament, matches={},
                                         friends=preview.friends).values()
    except IntegrityError as error:
        raise _changed_meanwhile() from error
    if kind != Relationship.Kind.FRIEND and preview.friends:
        (other,) = preview.friends.values()
        declare_relationship(player, other, kind, user=user, tournament=tournament)
    enter_player(player, tournament, user=user)
    return player


@transaction.atomic
def declare_pair(tournament: Tournament, one_id: int, other_id: int, kind: str, *, user) -> Relationship:
    """A pair of players entered in this tournament, declared for its championship."""
    require_organizer(user, tournament)
    if kind not in Relationship.Kind.values:
        raise ValidationError({"kind": _("Choose friend or family.")})
    players = Player.objects.filter(entries__tournament=tournament).in_bulk([one_id, other_id])
    if len({one_id, other_id} & players.keys()) < 2 and one_id != other_id:
        raise ValidationError(_("Both players must be entered in %(tournament)s.") % {"tournament": tournament.name})
    return declare_relationship(players[one_id], players[other_id], kind, user=user, tournament=tournament)


def enter_found(tournament: Tournament, *, user, email: str = "", name: str = "",
                born: date | None = None) -> tuple[Entry, bool]:
    """Enter a player found by exact email, or exact name and date of birth: how a player of another
    championship is entered without any list of them being shown. The lookup is counted and logged whatever it
    finds (`foreign_players.look_up`); returns the entry and whether it awaits the player's confirmation."""
    require_organizer(user, tournament)
    found_by = Typed(email=email.strip()) if email.strip() else Typed(date_of_birth=born)
    player = foreign_players.look_up(tournament, user=user, typed=found_by, name=name)
    if player is None:
        raise ValidationError(_("No registered player has that email, or that name and date of birth."))
    return foreign_players.enter(player, tournament, user=user, typed=found_by)


def import_rows(tournament: Tournament, rows: list[ListRow], *, user) -> list[tuple[ListRow, Entry, bool]]:
    """A parsed list registered and entered, or nothing (the API's import): each row with its entry and whether its
    player is one of another championship's, looked up and counted first (`foreign_players.look_up_list`), entered
    with an invitation, and of whom the caller may answer nothing but what the row says."""
    require_organizer(user, tournament)
    matches = match_rows(rows, user=user)
    by_line = {row.line: row for row in rows}
    foreign = foreign_players.look_up_list(
        tournament, {line: (player, typed(by_line[line])) for line, player in matches.items()}, user=user)
    with transaction.atomic():
        players = register_players(rows, user=user, tournament=tournament, matches=matches)
        entered = []
        for line, player in players.items():
            entry = Entry.objects.filter(player=player, tournament=tournament).first() or _on_line(
                line, player, tournament, user=user, row=by_line[line], foreign=player.pk in foreign)
            entered.append((by_line[line], entry, player.pk in foreign))
        return entered


@transaction.atomic
def enter_selected(tournament: Tournament, player_ids: Iterable[int], *, user) -> list[Entry]:
    """Enter the chosen players of the organizer's tournaments (`permissions.visible_players`; anyone else is
    entered by `enter_found`); one refused (age, staff) refuses all, naming them."""
    require_organizer(user, tournament)
    players = visible_players(user).filter(pk__in=set(player_ids)).order_by("sort_key", "pk")
    already = set(tournament.entries.values_list("player_id", flat=True))
    entries, refused = [], []
    for player in players:
        if player.pk in already:
            continue
        try:
            with transaction.atomic():
                entries.append(enter_player(player, tournament, user=user))
        except ValidationError as error:
            refused.extend(error.messages)
    if refused:
        raise ValidationError(refused)
    return entries


@transaction.atomic
def remove_entries(tournament: Tournament, entry_ids: Iterable[int], *, user) -> int:
    """Take players out of a tournament before they are seated; a seated one refuses all (withdraw them instead).
    The places freed go to the waiting list (`waiting_list.place_freed`)."""
    require_organizer(user, tournament)
    entries = list(Entry.objects.select_for_update(of=("self",)).select_related("player")
                   .filter(tournament=tournament, pk__in=set(entry_ids)).order_by("pk"))
    seated_ids = set(Entry.objects.filter(pk__in=[e.pk for e in entries], seats__isnull=False)
                     .values_list("pk", flat=True))
    seated = [e.player.name for e in entries if e.pk in seated_ids]
    if seated:
        raise ValidationError(_("Already seated, so they can only withdraw (from the check-in page): %(names)s.")
                              % {"names": ", ".join(seated)})
    for entry in entries:
        record_change(user, tournament.pk, Action.ENTRY_REMOVED, entry,
                      before={"player": entry.player.name, "status": entry.status})
        foreign_players.removed(entry, user=user)
        try:
            with transaction.atomic():
                entry.delete()
        except IntegrityError as error:  # a penalty or a replacement refers to it
            raise ValidationError(_("%(player)s has records in this tournament and can only withdraw.")
                                  % {"player": entry.player.name}) from error
    if entries:
        place_freed(tournament.pk, user=user)
        announce(tournament.pk)
    return len(entries)
