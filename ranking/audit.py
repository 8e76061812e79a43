"""The audit trail: every change to a result says who made it, when, and what it was before and after."""
from django.db import models

from .models import AuditEntry


def audit(user, tournament_id: int, action: str, obj: models.Model, *, before=None, after=None,
          reason: str = "") -> AuditEntry:
    return AuditEntry.objects.create(
        tournament_id=tournament_id, user=user, action=action, object_type=obj._meta.model_name,
        object_id=obj.pk, before=before, after=after, reason=reason,
    )
