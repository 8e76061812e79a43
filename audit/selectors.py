"""Reading the audit trail: a tournament's activity log, filtered by kind of change."""
from django.db.models import QuerySet

from .models import AuditEntry


def activity(tournament_id: int, kind: str | None = None) -> QuerySet[AuditEntry]:
    """The tournament's audit entries, newest first, with who made each change.

    A kind ("sheet", a value of `audit.actions.Kind`) is the first part of the stored action, so the filter also
    keeps an entry whose action this version no longer knows."""
    entries = AuditEntry.objects.filter(tournament_id=tournament_id).select_related("user", "player")
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
    return entries.order_by("-at", "-id")
