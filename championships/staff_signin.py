"""Lifting a staff member's sign-in pause (core/signin.py): an organizer does it for their own tournament's staff.

A referee who mistyped their password at a venue where someone else hammered their username need not
wait: an organizer of the tournament (or of its championship, for the championship's organizers) lifts
the pause from the staff page. It is audited in that tournament; nobody may lift the pause of an
account that is not staff of a tournament they organize.
"""
from django.db import transaction

from audit.actions import Action
from audit.services import record_change
from core.signin import lift_pause, paused_usernames

from .models import StaffRole
from .permissions import require_championship_organizer, require_organizer


def paused_roles(roles) -> set[int]:
    """The ids of these roles whose account failed to sign in recently (the staff page offers to lift it)."""
    roles = list(roles)
    paused = paused_usernames({role.user.get_username() for role in roles})
    return {role.pk for role in roles if role.user.get_username() in paused}


def lift_signin_pause(role_id: int, *, user) -> StaffRole:
    """Forget the failed sign-ins of the role's account, from every address."""
    with transaction.atomic():
        role = StaffRole.objects.select_related("user", "tournament", "championship").get(pk=role_id)
        if role.tournament is not None:
            require_organizer(user, role.tournament)
        else:
            assert role.championship is not None  # a role has one or the other (constraint staff_role_scope)
            require_championship_organizer(user, role.championship)
        username = role.user.get_username()
        lift_pause(username)
        record_change(user, role.tournament_id, Action.STAFF_UNLOCKED, role, after={"user": username})
    return role
