"""Writes to the championship domain: presets, entries, relationships and staff roles.

Every function takes the acting `user`, checks their permission, validates, writes inside one
transaction (a refused change leaves nothing half-written) and records the change in the audit trail.
"""
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit.services import record_change

from .countries import country_for_code
from .eligibility import check_can_enter, check_can_officiate
from .models import RESERVED_SLUGS, Championship, Entry, Player, Relationship, StaffRole, Tournament
from .permissions import (
    require_championship_creator,
    require_championship_organizer,
    require_organizer,
    require_player_manager,
)
from .roster import RosterRow, name_key


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
    record_change(user, tournament.pk, "entry.registered", entry, after={"player": player.name, "status": entry.status})
    return entry


@transaction.atomic
def assign_staff(member: AbstractBaseUser, role: str, *, user, tournament: Tournament | None = None,
                 championship: Championship | None = None) -> StaffRole:
    """Give `member` a staff role, refusing anyone entered as a player where they would officiate."""
    if (tournament is None) == (championship is None):
        raise ValidationError(_("A staff role belongs to exactly one tournament or championship."))
    if tournament is not None:
        require_organizer(user, tournament)
    else:
        require_championship_organizer(user, championship)
    if championship is not None and role != StaffRole.Role.ORGANIZER:
        raise ValidationError({"role": _("Referees are appointed per tournament.")})
    check_can_officiate(member.pk, tournament=tournament, championship=championship)
    staff_role, created = StaffRole.objects.get_or_create(
        user=member, role=role, tournament=tournament, championship=championship,
    )
    if created:
        record_change(user, tournament.pk if tournament else None, "staff.assigned", staff_role,
                      after={"user": member.get_username(), "role": role,
                             "championship": championship.name if championship else None})
    return staff_role


def declare_relationship(one: Player, other: Player, kind: str = Relationship.Kind.FRIEND, *, user) -> Relationship:
    """Record a friend/family pair once, whichever order the two are named in."""
    require_player_manager(user)
    if one.pk == other.pk:
        raise ValidationError(_("A player cannot be declared a friend or family member of themselves."))
    low, high = sorted((one, other), key=lambda player: player.pk)
    relationship, created = Relationship.objects.get_or_create(
        player_a=low, player_b=high, defaults={"kind": kind},
    )
    if not created and relationship.kind != kind:
        relationship.kind = kind
        relationship.save(update_fields=["kind"])
    elif not created:
        return relationship
    record_change(user, None, "relationship.declared", relationship,
                  after={"players": [low.name, high.name], "kind": kind})
    return relationship


@transaction.atomic
def register_players(rows: list[RosterRow], *, user, matches: dict[int, Player] | None = None,
                     friends: dict[str, Player] | None = None) -> dict[int, Player]:
    """Create or update the players of a parsed roster and declare their relationships.

    Players are matched by email when one is given, otherwise by name, unless `matches` (from the
    import preview) says which registered player a line is; blank cells keep what is registered.
    Friends are named in the file or, through `friends` (by name key), registered. Returns players by line.
    """
    require_player_manager(user)
    matches, friends = matches or {}, friends or {}
    by_line: dict[int, Player] = {}
    by_name: dict[str, Player] = {}
    for row in rows:
        fields = {"name": row.name, **({"date_of_birth": row.date_of_birth} if row.date_of_birth else {}),
                  **({"country": country_for_code(row.country)} if row.country else {})}
        player = matches.get(row.line)
        if player is not None:
            Player.objects.filter(pk=player.pk).update(**fields)
            player, created = Player.objects.get(pk=player.pk), False
        else:
            lookup = {"email": row.email} if row.email else {"name": row.name, "email": ""}
            player, created = Player.objects.update_or_create(**lookup, defaults=fields)
        record_change(user, None, "player.registered" if created else "player.updated", player,
                      after={"name": player.name, "email": player.email,
                             "country": row.country or None})
        by_line[row.line] = by_name[name_key(row.name)] = player
    for row in rows:
        for friend in row.friends_or_family:
            other = by_name.get(name_key(friend)) or friends[name_key(friend)]
            declare_relationship(by_line[row.line], other, user=user)
    return by_line


@transaction.atomic
def enter_players(tournament: Tournament, players: dict[int, Player], *, user) -> list[Entry]:
    """Enter players (keyed by roster line); a refused one aborts all, naming its line."""
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


@transaction.atomic
def import_roster(tournament: Tournament, rows: list[RosterRow], *, user) -> list[Entry]:
    return enter_players(tournament, register_players(rows, user=user), user=user)
