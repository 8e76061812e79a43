"""Reading the audit trail: a tournament's activity log, filtered by kind of change."""
from django.db.models import QuerySet

from .models import AuditEntry

KINDS = ("seating", "sheet", "penalty", "draw", "qualification", "entry", "player", "relationship", "staff",
         "tournament", "admin")
"""The first part of an action ("sheet.signed_off" is of kind "sheet"), in the order the log offers them."""


def activity(tournament_id: int, kind: str | None = None) -> QuerySet[AuditEntry]:
    """The tournament's audit entries, newest first, with who made each change."""
    entries = AuditEntry.objects.filter(tournament_id=tournament_id).select_related("user")
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
    return entries.order_by("-at", "-id")
