"""Writing the audit trail: every service that changes data calls `record_change` inside its transaction."""
import logging
from typing import cast

from django.conf import settings
from django.db import models

from . import payloads
from .actions import Action
from .models import AuditEntry

logger = logging.getLogger(__name__)


class PayloadMismatch(TypeError):
    """A before or after that does not fit its action's shape (`audit.payloads`), refused in strict mode."""


def record_change(user, tournament_id: int | None, action: Action, obj: models.Model, *, before=None, after=None,
                  reason: str = "", player=None, championship_id: int | None = None) -> AuditEntry:
    """One entry: who (`user`), where (`tournament_id`, None for a player or championship; `championship_id` for a
    change to a championship as a whole, shown in its activity log), what and why.

    `action` is a member of the registry, never a string: the activity log can tell only what it has there.
    A player acting from their own phone has no account: `user` is None and `player` says who (both None: a
    visitor, such as someone registering who has not confirmed their email yet).

    `before` and `after` take the action's shape (`audit.payloads.PAYLOADS`): a mismatch raises with
    `AUDIT_STRICT_PAYLOADS` (development and tests) and is logged otherwise, the entry recorded all the same (a
    change made is never left out of the trail)."""
    if not isinstance(action, Action):
        raise TypeError(f"record_change takes a member of audit.actions.Action, not {action!r}: add one there")
    if problem := payloads.problem(action, before, after):
        if settings.AUDIT_STRICT_PAYLOADS:
            raise PayloadMismatch(problem)
        logger.error("Audit payload recorded as it came: %s", problem)
    return AuditEntry.objects.create(
        tournament_id=tournament_id, championship_id=None if tournament_id else championship_id, user=user,
        player=player, action=action.value,
        object_type=cast(str, obj._meta.model_name),  # None only for a class that is not a model
        object_id=obj.pk, before=before, after=after, reason=reason,
    )


def record_change_in(user, tournament_ids, action: Action, obj: models.Model, *, before=None, after=None,
                     reason: str = "", player=None) -> None:
    """The same change in the activity log of each tournament it touches (a shared player's record, a pair)."""
    for tournament_id in sorted({pk for pk in tournament_ids if pk is not None}) or [None]:
        record_change(user, tournament_id, action, obj, before=before, after=after, reason=reason, player=player)
