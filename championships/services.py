"""Writes to the championship domain: presets, entries, relationships and staff roles.

Every function validates first and writes inside one transaction, so a refused change leaves
nothing half-written.
"""
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .countries import country_for_code
from .eligibility import check_can_enter, check_can_officiate
from .models import Championship, Entry, Player, Relationship, StaffRole, Stage, Tournament
from .presets import PRESETS, Preset
from .roster import RosterRow


def _shifted(day: date | None, years: int) -> date | None:
    return day.replace(year=day.year + years) if day else None


def unique_slug(model, base: str) -> str:
    slug = slugify(base)[:45] or "event"
    candidate, n = slug, 2
    while model.objects.filter(slug=candidate).exists():
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


@transaction.atomic
def create_championship_from_preset(key: str, *, year: int | None = None, name: str = "") -> Championship:
    """Create a championship with its tournaments and stages; dates move to `year` if given."""
    try:
        preset: Preset = PRESETS[key]
    except KeyError:
        raise ValidationError({"preset": _("Unknown format preset %(key)s.") % {"key": key}}) from None
    year = year or preset.year
    shift = year - preset.year
    name = name or preset.name.format(year=year)
    championship = Championship.objects.create(
        name=name, slug=unique_slug(Championship, name), scope=preset.scope, year=year,
        country=country_for_code(preset.country) if preset.country else None,
        age_cutoff=_shifted(preset.age_cutoff, shift), preset=key,
    )
    for spec in preset.tournaments:
        tournament = Tournament.objects.create(
            championship=championship, name=spec.name, kind=spec.kind, city=spec.city,
            slug=unique_slug(Tournament, f"{preset.short} {year} {spec.name}"),
            date=_shifted(spec.date, shift), ruleset=preset.ruleset, advance_count=spec.advance_count,
            capacity=spec.capacity,
        )
        Stage.objects.bulk_create(
            Stage(tournament=tournament, order=order, kind=stage.kind, name=stage.name, games=stage.games,
                  seating=stage.seating, players=stage.players)
            for order, stage in enumerate(spec.stages, start=1)
        )
    return championship


@transaction.atomic
def enter_player(player: Player, tournament: Tournament, **fields) -> Entry:
    """Register a player, refusing those under the age cut-off and the tournament's own staff."""
    check_can_enter(player, tournament)
    if Entry.objects.filter(player=player, tournament=tournament).exists():
        raise ValidationError(_("%(player)s is already entered in %(tournament)s.")
                              % {"player": player.name, "tournament": tournament.name})
    return Entry.objects.create(player=player, tournament=tournament, **fields)


@transaction.atomic
def assign_staff(user: AbstractBaseUser, role: str, *, tournament: Tournament | None = None,
                 championship: Championship | None = None) -> StaffRole:
    """Give a staff role, refusing anyone entered as a player where they would officiate."""
    if (tournament is None) == (championship is None):
        raise ValidationError(_("A staff role belongs to exactly one tournament or championship."))
    if championship is not None and role != StaffRole.Role.ORGANIZER:
        raise ValidationError({"role": _("Referees are appointed per tournament.")})
    check_can_officiate(user.pk, tournament=tournament, championship=championship)
    staff_role, _created = StaffRole.objects.get_or_create(
        user=user, role=role, tournament=tournament, championship=championship,
    )
    return staff_role


def declare_relationship(one: Player, other: Player, kind: str = Relationship.Kind.FRIEND) -> Relationship:
    """Record a friend/family pair once, whichever order the two are named in."""
    if one.pk == other.pk:
        raise ValidationError(_("A player cannot be declared a friend or family member of themselves."))
    low, high = sorted((one, other), key=lambda player: player.pk)
    relationship, created = Relationship.objects.get_or_create(
        player_a=low, player_b=high, defaults={"kind": kind},
    )
    if not created and relationship.kind != kind:
        relationship.kind = kind
        relationship.save(update_fields=["kind"])
    return relationship


@transaction.atomic
def register_players(rows: list[RosterRow]) -> dict[int, Player]:
    """Create or update the players of a parsed roster and declare their relationships.

    Players are matched by email when one is given, otherwise by name. Returns players by line.
    """
    by_line: dict[int, Player] = {}
    by_name: dict[str, Player] = {}
    for row in rows:
        fields = {"name": row.name, "date_of_birth": row.date_of_birth,
                  "country": country_for_code(row.country) if row.country else None}
        lookup = {"email": row.email} if row.email else {"name": row.name, "email": ""}
        player, _created = Player.objects.update_or_create(**lookup, defaults=fields)
        by_line[row.line] = by_name[row.name.casefold()] = player
    for row in rows:
        for friend in row.friends_or_family:
            declare_relationship(by_line[row.line], by_name[friend.casefold()])
    return by_line


@transaction.atomic
def enter_players(tournament: Tournament, players: dict[int, Player]) -> list[Entry]:
    """Enter players (keyed by roster line); a refused one aborts all, naming its line."""
    entries = []
    for line, player in players.items():
        try:
            entry = Entry.objects.filter(player=player, tournament=tournament).first() or enter_player(
                player, tournament)
        except ValidationError as error:
            raise ValidationError(_("Line %(line)d: %(problem)s")
                                  % {"line": line, "problem": " ".join(error.messages)}) from error
        entries.append(entry)
    return entries


@transaction.atomic
def import_roster(tournament: Tournament, rows: list[RosterRow]) -> list[Entry]:
    return enter_players(tournament, register_players(rows))
