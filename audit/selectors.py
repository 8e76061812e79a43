"""Reading the audit trail: a tournament's activity log and a championship's, filtered by kind of change."""
from django.db.models import QuerySet

from .models import AuditEntry


def activity(tournament_id: int, kind: str | None = None) -> QuerySet[AuditEntry]:
    """The tournament's audit entries, newest first, with who made each change.

    A kind ("sheet", a value of `audit.actions.Kind`) is the first part of the stored action, so the filter also
    keeps an entry whose action this version no longer knows."""
    return _of_kind(AuditEntry.objects.filter(tournament_id=tournament_id), kind)


def championship_activity(championship_id: int, kind: str | None = None) -> QuerySet[AuditEntry]:
    """The changes to the championship as a whole (its webhooks, API tokens, organizers, board limits), newest
    first; each of its tournaments has its own log."""
    return _of_kind(AuditEntry.objects.filter(championship_id=championship_id), kind)


def _of_kind(entries: QuerySet[AuditEntry], kind: str | None) -> QuerySet[AuditEntry]:
    entries = entries.select_related("user", "player")
    if kind:
        entries = entries.filter(action__startswith=f"{kind}.")
    return entries.order_by("-at", "-id")
