"""A tournament's activity log for its organizers: every audited change, filtered by kind, and as CSV."""
import json

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from audit.selectors import KINDS, activity
from core.csv_export import csv_response

from ..models import Tournament
from ..permissions import require_organizer

PER_PAGE = 100


def _tournament_and_kind(request, slug: str) -> tuple[Tournament, str]:
    tournament = get_object_or_404(Tournament, slug=slug)
    require_organizer(request.user, tournament)
    kind = request.GET.get("kind", "")
    return tournament, kind if kind in KINDS else ""


@login_required
def activity_log(request, slug: str):
    tournament, kind = _tournament_and_kind(request, slug)
    page = Paginator(activity(tournament.pk, kind), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "championships/activity.html", {
        "tournament": tournament, "page": page, "kind": kind, "kinds": KINDS, "is_organizer": True})


@login_required
def activity_csv(request, slug: str):
    tournament, kind = _tournament_and_kind(request, slug)
    rows = ([entry.at.isoformat(), entry.user.get_username(), entry.action, entry.object_type, entry.object_id,
             json.dumps(entry.before, ensure_ascii=False) if entry.before is not None else "",
             json.dumps(entry.after, ensure_ascii=False) if entry.after is not None else "", entry.reason]
            for entry in activity(tournament.pk, kind).iterator())
    header = ["at", "user", "action", "object_type", "object_id", "before", "after", "reason"]
    return csv_response(f"{tournament.slug}-activity.csv", header, rows)
