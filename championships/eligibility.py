"""Who may play and who may officiate: the checks behind entries and staff roles (docs/rules.md §1)."""
from datetime import date

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Championship, Entry, Player, StaffRole, Tournament

OLDEST = 120
"""Years: a date of birth further back is a slip of the keyboard (1800 for 1980), not a player."""


def age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def check_birth_date(born: date) -> None:
    """Refuses a date of birth in the future or more than OLDEST years ago: the one rule of every form and list
    that takes one (registration, the organizer's player and find forms, the admin, every import). A validator,
    so forms name it at their field; not the model field's, so a backup with an older date still restores."""
    today = timezone.localdate()
    if born > today:
        raise ValidationError(_("%(date)s is in the future: it cannot be a date of birth."),
                              code="future", params={"date": born.isoformat()})
    if age_on(born, today) > OLDEST:
        raise ValidationError(_("%(date)s is more than %(years)d years ago: check the date of birth."),
                              code="too_old", params={"date": born.isoformat(), "years": OLDEST})


def check_age(player: Player, tournament: Tournament) -> None:
    championship = tournament.championship
    if championship is None or championship.age_cutoff is None:
        return
    cutoff, minimum = championship.age_cutoff, championship.minimum_age
    if player.date_of_birth is None:
        raise ValidationError(
            {"date_of_birth": _("%(player)s has no date of birth; it is needed to check the minimum age.")
             % {"player": player.name}}
        )
    if age_on(player.date_of_birth, cutoff) < minimum:
        raise ValidationError(
            {"date_of_birth": _("%(player)s is under %(age)d on the cut-off date %(cutoff)s and cannot be entered.")
             % {"player": player.name, "age": minimum, "cutoff": cutoff.isoformat()}}
        )


def staff_roles(tournament: Tournament):
    """Roles that make users staff of this tournament, directly or through its championship.

    A tournament not saved yet (an admin form being filled in) has roles only through its championship.
    """
    scope = Q(tournament=tournament) if tournament.pk else Q(pk__in=[])
    if tournament.championship_id:
        scope |= Q(championship_id=tournament.championship_id)
    return StaffRole.objects.filter(scope)


def officiating_roles(user_id: int, tournament: Tournament):
    """The user's roles among `staff_roles`: staff may not play."""
    return staff_roles(tournament).filter(user_id=user_id)


def _staff_role_of(player: Player, tournament: Tournament) -> StaffRole | None:
    """The player's staff role in the tournament, by their account or by their email: an organizer who entered a
    player, then invited that email as referee, has made that person staff. Emails are compared as the database
    compares them everywhere (`iexact`), so the case of a letter hides nobody."""
    same = Q(user_id=player.user_id) if player.user_id else Q(pk__in=[])
    if player.email:
        same |= Q(user__email__iexact=player.email)
    return staff_roles(tournament).filter(same).select_related("user").order_by("pk").first()


def check_not_staff(player: Player, tournament: Tournament) -> None:
    """Referees and organizers may not play in their own tournament (seed 001 §5)."""
    role = _staff_role_of(player, tournament)
    if role is None:
        return
    if role.user_id == player.user_id:
        raise ValidationError(
            _("%(player)s is %(role)s of %(tournament)s and cannot play in it.")
            % {"player": player.name, "role": role.get_role_display(), "tournament": tournament.name})
    raise ValidationError(
        _("The email of %(player)s is that of %(user)s, %(role)s of %(tournament)s: staff may not play in their own "
          "tournament.")
        % {"player": player.name, "user": role.user.get_username(), "role": role.get_role_display(),
           "tournament": tournament.name})


def check_can_enter(player: Player, tournament: Tournament) -> None:
    check_age(player, tournament)
    check_not_staff(player, tournament)


def check_can_officiate(member, *, tournament: Tournament | None = None,
                        championship: Championship | None = None) -> None:
    """Refuse a staff role to someone entered as a player where it applies (one tournament or all of a championship):
    a player linked to the account, or one with the account's email (compared as the database does, `iexact`)."""
    scope = tournament if tournament is not None else championship
    if scope is None or scope.pk is None:
        return  # not saved yet: nobody is entered in it
    where: dict[str, Tournament | Championship | None] = (
        {"tournament": tournament} if tournament is not None else {"tournament__championship": championship})
    same = Q(player__user_id=member.pk)
    if member.email:
        same |= Q(player__email__iexact=member.email)
    entered = (Entry.objects.filter(same, **where).select_related("player", "tournament").order_by("pk").first())
    if entered is None:
        return
    if entered.player.user_id == member.pk:
        raise ValidationError(
            _("%(player)s is entered as a player in %(tournament)s and cannot officiate it.")
            % {"player": entered.player.name, "tournament": entered.tournament.name})
    raise ValidationError(
        _("%(email)s is the email of %(player)s, entered as a player in %(tournament)s: staff may not play in their "
          "own tournament, so they cannot officiate it.")
        % {"email": member.email, "player": entered.player.name, "tournament": entered.tournament.name})
