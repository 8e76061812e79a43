"""Writing the audit trail: every service that changes data calls `record_change` inside its transaction."""
from django.db import models

from .models import AuditEntry


def record_change(user, tournament_id: int | None, action: str, obj: models.Model, *, before=None, after=None,
                  reason: str = "") -> AuditEntry:
    """One entry: who (`user`), where (`tournament_id`, None for a player or championship), what and why."""
    return AuditEntry.objects.create(
        tournament_id=tournament_id, user=user, action=action, object_type=obj._meta.model_name,
        object_id=obj.pk, before=before, after=after, reason=reason,
    )
