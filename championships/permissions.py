"""Who may do what in a tournament, decided on the server from staff roles (docs/interfaces.md, Roles)."""
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, DateField, Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.expressions import Case, When
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from .eligibility import officiating_roles
from .models import Championship, Entry, EntryInvitation, Player, StaffRole, Tournament


def roles_in(user, tournament: Tournament) -> set[str]:
    """The user's roles in this tournament; an organizer of its championship organizes it too."""
    if not user.is_authenticated:
        return set()
    roles = set(officiating_roles(user.pk, tournament).values_list("role", flat=True))
    if user.is_superuser:
        roles.add(StaffRole.Role.ORGANIZER)
    return roles


def is_organizer(user, tournament: Tournament) -> bool:
    return StaffRole.Role.ORGANIZER in roles_in(user, tournament)


def is_official(user, tournament: Tournament) -> bool:
    """Referees and organizers both run the tables: sheets, penalties, draws."""
    return bool(roles_in(user, tournament))


def require_organizer(user, tournament: Tournament) -> None:
    if not is_organizer(user, tournament):
        raise PermissionDenied("Only an organizer of this tournament may do this.")


def require_official(user, tournament: Tournament) -> None:
    if not is_official(user, tournament):
        raise PermissionDenied("Only a referee or organizer of this tournament may do this.")


def require_championship_organizer(user, championship: Championship) -> None:
    if not (user.is_authenticated and (user.is_superuser or StaffRole.objects.filter(
            user=user, role=StaffRole.Role.ORGANIZER, championship=championship).exists())):
        raise PermissionDenied("Only an organizer of this championship may do this.")


def require_championship_creator(user) -> None:
    """Superusers, and the accounts they allowed to add championships."""
    if not (user.is_authenticated and user.has_perm("championships.add_championship")):
        raise PermissionDenied("This account may not create championships.")


def officiated_tournaments(user, role: str | None = None):
    """Tournaments where the user is staff (in `role`, if given), directly or through the championship."""
    if user.is_superuser:
        return Tournament.objects.all()
    roles = StaffRole.objects.filter(user=user, **({"role": role} if role else {}))
    return Tournament.objects.filter(
        Q(pk__in=roles.filter(tournament__isnull=False).values("tournament"))
        | Q(championship__in=roles.filter(championship__isnull=False).values("championship"))
    )


def awaiting_player(entry: str = "pk") -> Exists:
    """The entry (reached from the query's rows by `entry`) was made by an organizer who could not see the player's
    record and waits for the player to confirm it (`championships.foreign_players`): until then it discloses nothing
    of the record to its tournament's organizers."""
    return Exists(EntryInvitation.objects.filter(entry=OuterRef(entry), confirmed_at__isnull=True))


def visible_players(user) -> QuerySet[Player]:
    """Players whose personal data (email, date of birth) the user may read: those entered in a tournament they
    organize, by an entry that is not awaiting the player's confirmation. Players are shared by the whole
    deployment; anyone else is found only by exact email, or name and date of birth, within a limit
    (`championships.foreign_players`)."""
    if user.is_superuser:
        return Player.objects.all()
    return Player.objects.filter(Exists(Entry.objects.filter(
        ~awaiting_player(), player=OuterRef("pk"),
        tournament__in=officiated_tournaments(user, StaffRole.Role.ORGANIZER))))


def personal_details(user, tournament: Tournament, player: str = "") -> dict:
    """Annotations `shown_email` and `shown_born`: what the user may read of the record of the player each row
    reaches through `player` ("" for players, "player__" for entries) on the pages of `tournament`. The record's
    own for a player the user may read (`visible_players`), else only what was typed to enter them in `tournament`
    (an entry awaiting the player), else nothing. Every organizer page, export and API answer shows and searches
    these, never the record's fields: the one place the rule lives."""
    ref = f"{player.removesuffix('__')}_id" if player else "pk"
    typed = EntryInvitation.objects.filter(entry__tournament=tournament, entry__player=OuterRef(ref))
    readable = Exists(visible_players(user).filter(pk=OuterRef(ref)))
    return {
        "shown_email": Case(When(readable, then=F(f"{player}email")),
                            default=Coalesce(Subquery(typed.values("email")[:1]), Value("")), output_field=CharField()),
        "shown_born": Case(When(readable, then=F(f"{player}date_of_birth")),
                           default=Subquery(typed.values("date_of_birth")[:1]), output_field=DateField()),
    }


def may_change_player(user, player: Player) -> bool:
    """Only when every tournament the player is entered in is one the user organizes (docs/interfaces.md, Roles).

    A change shows in every one of those tournaments (standings, PDFs, the API), so one championship's organizer
    may not make it for another's. Checked after locking the player's row, so no entry can slip in meanwhile.
    """
    if user.is_superuser:
        return True
    organized = officiated_tournaments(user, StaffRole.Role.ORGANIZER)
    return not Entry.objects.filter(player=player).exclude(tournament__in=organized).exists()


def official_tournament(user, slug: str) -> Tournament:
    """The tournament of that slug (404 if none) for one of its referees or organizers (403 otherwise)."""
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    require_official(user, tournament)
    return tournament


def organized_championship(user, slug: str) -> Championship:
    """The championship of that slug (404 if none) for one of its organizers (403 otherwise)."""
    championship = get_object_or_404(Championship, slug=slug)
    require_championship_organizer(user, championship)
    return championship


def organized_tournament(user, slug: str) -> Tournament:
    """The tournament of that slug (404 if none) for one of its organizers (403 otherwise)."""
    tournament = get_object_or_404(Tournament.objects.select_related("championship"), slug=slug)
    require_organizer(user, tournament)
    return tournament
