"""Writes to the championship domain: presets, players, entries and staff roles.

Every function takes the acting `user`, checks their permission, validates, writes inside one
transaction (a refused change leaves nothing half-written) and records the change in the audit trail.
"""
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change, record_change_in
from core.changes import announce
from core.names import fold

from .countries import country_for_code
from .eligibility import check_can_enter, check_can_officiate
from .list_file import ListRow
from .list_import import Registered
from .models import RESERVED_SLUGS, Championship, Entry, Player, StaffRole, Tournament
from .permissions import (
    awaiting_player,
    may_change_player,
    require_championship_creator,
    require_championship_organizer,
    require_organizer,
)
from .relationships import declare_relationship


def unique_slug(model, base: str, also_taken=()) -> str:
    """A slug made from `base`, free in the table and not in `also_taken`; never a reserved word such as "new"."""
    slug = slugify(base)[:45] or "event"
    candidate, n = slug, 2
    while candidate in RESERVED_SLUGS or candidate in also_taken or model.objects.filter(slug=candidate).exists():
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


def create_championship_from_preset(key: str, *, user, year: int | None = None, name: str = "") -> Championship:
    """Create a championship with its tournaments and stages as the preset has them; dates move to `year` if given.

    The user who creates it becomes its organizer (`setup.create_championship`).
    """
    from .formats import plan_from_preset
    from .setup import create_championship

    require_championship_creator(user)
    try:
        plan = plan_from_preset(key, year=year, name=name)
    except KeyError:
        raise ValidationError({"preset": _("Unknown format preset %(key)s.") % {"key": key}}) from None
    return create_championship(plan, user=user)


@transaction.atomic
def enter_player(player: Player, tournament: Tournament, *, user, **fields) -> Entry:
    """Register a player, refusing those under the age cut-off and the tournament's own staff."""
    require_organizer(user, tournament)
    check_can_enter(player, tournament)
    if Entry.objects.filter(player=player, tournament=tournament).exists():
        raise ValidationError(_("%(player)s is already entered in %(tournament)s.")
                              % {"player": player.name, "tournament": tournament.name})
    entry = Entry.objects.create(player=player, tournament=tournament, **fields)
    record_change(user, tournament.pk, Action.ENTRY_REGISTERED, entry,
                  after={"player": player.name, "status": entry.status})
    announce(tournament.pk)
    return entry


@transaction.atomic
def assign_staff(member: AbstractBaseUser, role: str, *, user, tournament: Tournament | None = None,
                 championship: Championship | None = None) -> StaffRole:
    """Give `member` a staff role, refusing anyone entered as a player where they would officiate."""
    if tournament is not None and championship is None:
        require_organizer(user, tournament)
    elif championship is not None and tournament is None:
        require_championship_organizer(user, championship)
    else:
        raise ValidationError(_("A staff role belongs to exactly one tournament or championship."))
    if championship is not None and role != StaffRole.Role.ORGANIZER:
        raise ValidationError({"role": _("Referees are appointed per tournament.")})
    check_can_officiate(member, tournament=tournament, championship=championship)
    staff_role, created = StaffRole.objects.get_or_create(
        user=member, role=role, tournament=tournament, championship=championship,
    )
    if created:
        record_change(user, tournament.pk if tournament else None, Action.STAFF_ASSIGNED, staff_role,
                      championship_id=championship.pk if championship else None,
                      after={"user": member.get_username(), "role": role,
                             "championship": championship.name if championship else None})
    return staff_role


def match_rows(rows: list[ListRow], *, user) -> dict[int, Player]:
    """The registered players rows stand for, matched as the import preview matches them; refuses ambiguous rows."""
    registered = Registered(rows, user)
    matches, problems = {}, []
    for row in rows:
        player, problem = registered.match(row)
        if problem is not None:
            problems.append(_("Line %(line)d: %(problem)s") % {"line": row.line, "problem": problem.message})
        elif player is not None:
            matches[row.line] = player
    if problems:
        raise ValidationError(problems)
    return matches


@transaction.atomic
def change_player(player_id: int, *, user, tournament: Tournament, **fields) -> Player:
    """Change a player's name, date of birth or country (`fields`), audited in every tournament they are entered in.

    Only an organizer of every one of those tournaments may (`permissions.may_change_player`): the row is locked
    first, so nobody enters the player elsewhere meanwhile. `tournament` is where the change is made from.
    """
    require_organizer(user, tournament)
    player = Player.objects.select_for_update(of=("self",)).select_related("country").get(pk=player_id)
    if not may_change_player(user, player):
        raise PermissionDenied("Only an organizer of every tournament this player is entered in may change them.")
    before, after = {}, {}
    for field, value in fields.items():
        if field == "country":
            old, value = (player.country.code if player.country else ""), value or ""
            if old != value:
                player.country = country_for_code(value) if value else None
        else:
            old = getattr(player, field)
            if old != value:
                setattr(player, field, value)
        if old != value:
            before[field], after[field] = _audited(old), _audited(value)
    if after:
        player.save(update_fields=list(after))
        where = set(Entry.objects.filter(player=player).values_list("tournament_id", flat=True)) | {tournament.pk}
        awaiting = set(Entry.objects.filter(awaiting_player(), player=player).values_list("tournament_id", flat=True))
        if where - awaiting:
            record_change_in(user, where - awaiting, Action.PLAYER_UPDATED, player, before=before, after=after)
        if awaiting:  # their organizers see of the record only what they typed: that it changed, not to what
            record_change_in(user, awaiting, Action.PLAYER_UPDATED, player, before=_public(before),
                             after=_public(after))
        announce(*where)  # their name and country are on the pages of every tournament they are entered in
    return player


PRIVATE_FIELDS = ("email", "date_of_birth")
"""A player's details the organizers of an entry awaiting the player do not see (`permissions.personal_details`)."""


def _public(values: dict) -> dict:
    return {field: value for field, value in values.items() if field not in PRIVATE_FIELDS}


def _audited(value):
    return value.isoformat() if isinstance(value, date) else value


@transaction.atomic
def register_players(rows: list[ListRow], *, user, tournament: Tournament, matches: dict[int, Player] | None = None,
                     updates: frozenset[int] = frozenset(), friends: dict[str, Player] | None = None
                     ) -> dict[int, Player]:
    """Create the players of a parsed list, link or update registered ones, and declare their relationships.

    `matches` (from the import preview) says which registered player a line is; without it rows are matched
    here and a registered player is linked as registered. `updates`: lines whose registered player takes the
    row's details (blank cells keep what is registered). Friends are named in the file or, through `friends`
    (by name key), players of the organizer's tournaments. Pairs are declared for `tournament`'s championship.
    Returns players by line.
    """
    require_organizer(user, tournament)
    matches = match_rows(rows, user=user) if matches is None else matches
    friends = friends or {}
    by_line: dict[int, Player] = {}
    by_name: dict[str, Player] = {}
    for row in rows:
        player = matches.get(row.line)
        if player is None:
            player = Player.objects.create(name=row.name, email=row.email, date_of_birth=row.date_of_birth,
                                           country=country_for_code(row.country) if row.country else None)
            record_change(user, tournament.pk, Action.PLAYER_REGISTERED, player,
                          after={"name": player.name, "email": player.email, "country": row.country or None})
        elif row.line in updates:
            details = {"name": row.name, **({"date_of_birth": row.date_of_birth} if row.date_of_birth else {}),
                       **({"country": row.country} if row.country else {})}
            player = change_player(player.pk, user=user, tournament=tournament, **details)
        by_line[row.line] = player
        by_name.setdefault(fold(row.name), player)  # namesakes in one file are never named as friends
    for row in rows:
        for friend in row.friends_or_family:
            other = by_name.get(fold(friend)) or friends[fold(friend)]
            declare_relationship(by_line[row.line], other, user=user, tournament=tournament)
    return by_line


@transaction.atomic
def enter_players(tournament: Tournament, players: dict[int, Player], *, user) -> list[Entry]:
    """Enter players (keyed by the list's line); a refused one aborts all, naming its line."""
    entries = []
    for line, player in players.items():
        try:
            entry = Entry.objects.filter(player=player, tournament=tournament).first() or enter_player(
                player, tournament, user=user)
        except ValidationError as error:
            raise ValidationError(_("Line %(line)d: %(problem)s")
                                  % {"line": line, "problem": " ".join(error.messages)}) from error
        entries.append(entry)
    return entries
