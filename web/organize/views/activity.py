"""Activity logs for organizers, every audited change filtered by kind and as CSV or XLSX: a tournament's, and a
championship's changes as a whole (its organizers, API tokens, webhooks, board limits)."""
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from audit.actions import Kind
from audit.models import AuditEntry
from audit.selectors import activity, championship_activity
from championships.permissions import organized_championship, organized_tournament
from core.table_export import table_response
from web.organize.activity.sentences import described, described_in_chunks
from web.requests import HtmxHttpRequest

PER_PAGE = 50
HEADER = ["at", "user", "action", "description", "object_type", "object_id", "before", "after", "reason"]


def _kind(request: HtmxHttpRequest) -> str:
    kind = request.GET.get("kind", "")
    return kind if kind in Kind.values else ""


def _listed(request: HtmxHttpRequest, entries: QuerySet[AuditEntry], kind: str, csv_name: str, xlsx_name: str,
            slug: str) -> dict[str, Any]:
    """What organize/_activity_log.html shows: a page of entries told in words, the filter and the downloads."""
    page = Paginator(entries, PER_PAGE).get_page(request.GET.get("page"))
    return {"page": page, "rows": described(page.object_list), "kind": kind,
            "kind_label": Kind(kind).label if kind else "", "kinds": Kind.choices,
            "csv_url": reverse(csv_name, args=[slug]), "xlsx_url": reverse(xlsx_name, args=[slug])}


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False) if data is not None else ""


def _export(fmt: str, name: str, entries: QuerySet[AuditEntry]) -> HttpResponse:
    rows = ([timezone.localtime(row.entry.at).isoformat(), row.entry.who, row.entry.action,
             row.description, row.entry.object_type, row.entry.object_id, _json(row.entry.before),
             _json(row.entry.after), row.entry.reason]
            for row in described_in_chunks(entries))
    return table_response(fmt, name, HEADER, rows)


@login_required
def activity_log(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament, kind = organized_tournament(request.user, slug), _kind(request)
    return render(request, "organize/activity.html", {
        "tournament": tournament, "is_organizer": True,
        **_listed(request, activity(tournament.pk, kind), kind, "activity-log-csv", "activity-log-xlsx", slug)})


@login_required
def activity_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament, kind = organized_tournament(request.user, slug), _kind(request)
    return _export(fmt, f"{tournament.slug}-activity-{kind}" if kind else f"{tournament.slug}-activity",
                   activity(tournament.pk, kind))


@login_required
@require_GET
def championship_activity_log(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    championship, kind = organized_championship(request.user, championship_slug), _kind(request)
    return render(request, "organize/championship_activity.html", {
        "championship": championship,
        **_listed(request, championship_activity(championship.pk, kind), kind, "championship-activity-csv",
                  "championship-activity-xlsx", championship.slug)})


@login_required
@require_GET
def championship_activity_csv(request: HtmxHttpRequest, championship_slug: str, fmt: str = "csv") -> HttpResponse:
    championship, kind = organized_championship(request.user, championship_slug), _kind(request)
    name = f"{championship.slug}-activity-{kind}" if kind else f"{championship.slug}-activity"
    return _export(fmt, name, championship_activity(championship.pk, kind))
