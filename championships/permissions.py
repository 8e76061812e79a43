"""Who may do what in a tournament, decided on the server from staff roles (docs/interfaces.md, Roles)."""
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404

from .eligibility import officiating_roles
from .models import Championship, Entry, Player, StaffRole, Tournament


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


def visible_players(user) -> QuerySet[Player]:
    """Players whose personal data (email, date of birth) the user may read: those entered in a tournament they
    organize. Players are shared by the whole deployment; anyone else is found only by exact email, or name and
    date of birth (`championships.people.find_player`)."""
    if user.is_superuser:
        return Player.objects.all()
    return Player.objects.filter(Exists(Entry.objects.filter(
        player=OuterRef("pk"), tournament__in=officiated_tournaments(user, StaffRole.Role.ORGANIZER))))


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
