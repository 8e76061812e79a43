"""Inviting and removing staff: referees per tournament, organizers per tournament or championship.

A person is named by username or email. An email nobody uses yet creates an account without a
password; the caller sends its set-password link (Django's password-reset tokens) once the
transaction has committed. Every change is audited; permissions are checked here, not in views.
"""
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change

from .models import Championship, StaffRole, Tournament
from .permissions import require_championship_organizer, require_organizer
from .services import assign_staff

IDENTIFIER_MAX = 254


@dataclass(frozen=True)
class Invitation:
    role: StaffRole
    member: AbstractUser
    new_account: bool
    """The account was created now: it has no password yet and needs the set-password link."""


def _free_username(email: str) -> str:
    User = get_user_model()
    base = slugify(email.partition("@")[0])[:30] or "staff"
    candidate, n = base, 2
    while User.objects.filter(username__iexact=candidate).exists():
        candidate, n = f"{base}{n}", n + 1
    return candidate


def _member(identifier: str):
    """The account named (username or email, any case), or a new one for an unknown email; None otherwise."""
    User = get_user_model()
    found = list(User.objects.filter(Q(username__iexact=identifier) | Q(email__iexact=identifier))[:2])
    if len(found) > 1:
        raise ValidationError({"identifier": _("Several accounts match “%(who)s”: give the username.")
                               % {"who": identifier}})
    if found:
        return found[0], False
    try:
        validate_email(identifier)
    except ValidationError:
        raise ValidationError({"identifier": _("No account has the username “%(who)s”. To invite someone new, "
                                               "give their email address.") % {"who": identifier}}) from None
    member = User(username=_free_username(identifier), email=identifier)
    member.set_unusable_password()
    member.save()
    return member, True


def invite_staff(identifier: str, role: str, *, user, tournament: Tournament | None = None,
                 championship: Championship | None = None) -> Invitation:
    """Give the person named by `identifier` a staff role; an unknown email gets a new account."""
    identifier = identifier.strip()
    with transaction.atomic():
        if tournament is not None:
            require_organizer(user, tournament)
        elif championship is not None:
            require_championship_organizer(user, championship)
        if not identifier:
            raise ValidationError({"identifier": _("Give a username or an email address.")})
        if len(identifier) > IDENTIFIER_MAX:
            raise ValidationError({"identifier": _("At most %(n)d characters.") % {"n": IDENTIFIER_MAX}})
        if role not in StaffRole.Role.values:
            raise ValidationError({"role": _("Choose organizer or referee.")})
        member, created = _member(identifier)
        if not member.is_active:
            raise ValidationError({"identifier": _("The account “%(who)s” is disabled.")
                                   % {"who": member.get_username()}})
        if created:
            record_change(user, tournament.pk if tournament else None, Action.STAFF_ACCOUNT_CREATED, member,
                          championship_id=championship.pk if championship else None,
                          after={"user": member.get_username(), "email": member.email})
        staff_role = assign_staff(member, role, user=user, tournament=tournament, championship=championship)
    return Invitation(staff_role, member, created)


def remove_staff(role_id: int, *, user) -> StaffRole:
    """Take a staff role away. Nobody removes their own organizer role (another organizer must)."""
    with transaction.atomic():
        staff_role = (StaffRole.objects.select_for_update(of=("self",))
                      .select_related("user", "tournament", "championship").get(pk=role_id))
        if staff_role.tournament is not None:
            require_organizer(user, staff_role.tournament)
        else:
            assert staff_role.championship is not None  # a role has one or the other (constraint staff_role_scope)
            require_championship_organizer(user, staff_role.championship)
        if staff_role.user_id == user.pk and staff_role.role == StaffRole.Role.ORGANIZER:
            raise ValidationError(_("You cannot remove your own organizer role: ask another organizer."))
        record_change(user, staff_role.tournament_id, Action.STAFF_REMOVED, staff_role,
                      championship_id=staff_role.championship_id,
                      before={"user": staff_role.user.get_username(), "role": staff_role.role,
                              "championship": staff_role.championship.name if staff_role.championship else None})
        staff_role.delete()
    return staff_role
