"""A tournament's activity log for its organizers: every audited change, filtered by kind, and as CSV."""
import json

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import timezone

from audit.actions import Kind
from audit.selectors import activity
from championships.models import Tournament
from championships.permissions import organized_tournament
from core.table_export import table_response
from organize.activity import described, described_in_chunks

PER_PAGE = 50


def _tournament_and_kind(request, slug: str) -> tuple[Tournament, str]:
    tournament = organized_tournament(request.user, slug)
    kind = request.GET.get("kind", "")
    return tournament, kind if kind in Kind.values else ""


@login_required
def activity_log(request, slug: str):
    tournament, kind = _tournament_and_kind(request, slug)
    page = Paginator(activity(tournament.pk, kind), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "organize/activity.html", {
        "tournament": tournament, "page": page, "rows": described(page.object_list), "kind": kind,
        "kind_label": Kind(kind).label if kind else "", "kinds": Kind.choices,
        "is_organizer": True})


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False) if data is not None else ""


@login_required
def activity_csv(request, slug: str, fmt: str = "csv"):
    tournament, kind = _tournament_and_kind(request, slug)
    rows = ([timezone.localtime(row.entry.at).isoformat(), row.entry.who, row.entry.action,
             row.description, row.entry.object_type, row.entry.object_id, _json(row.entry.before),
             _json(row.entry.after), row.entry.reason]
            for row in described_in_chunks(activity(tournament.pk, kind)))
    header = ["at", "user", "action", "description", "object_type", "object_id", "before", "after", "reason"]
    name = f"{tournament.slug}-activity-{kind}" if kind else f"{tournament.slug}-activity"
    return table_response(fmt, name, header, rows)
