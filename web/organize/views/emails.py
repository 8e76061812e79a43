"""A tournament's emails that could not be sent (notices/undelivered.py): who each was for, what it was, why it
failed; sent again one by one; the whole list as CSV and XLSX."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from championships.permissions import organized_tournament
from core.table_export import table_response
from notices import undelivered
from web.requests import HtmxHttpRequest

PER_PAGE = 50


def _chosen(value: str) -> int:
    return int(value) if value.isascii() and value.isdigit() and len(value) < 19 else 0


@login_required
@require_http_methods(["GET", "POST"])
def undelivered_emails(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """POST `send_again` (an email's id): it is queued again as it was written."""
    tournament = organized_tournament(request.user, slug)
    if request.method == "POST":
        try:
            email = undelivered.send_again(tournament, _chosen(request.POST.get("send_again", "")), user=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The email to %(to)s is sent again.") % {"to": email.to})
        return redirect("organize-emails", slug=slug)
    page = Paginator(undelivered.for_tournament(tournament, request.user), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "organize/emails.html", {"tournament": tournament, "page": page, "is_organizer": True})


@login_required
@require_GET
def undelivered_emails_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    """Every email of the page, newest first, with fixed English column names; as CSV or (`fmt`) a workbook."""
    tournament = organized_tournament(request.user, slug)
    rows = ([e.failed_at.isoformat(), e.to, e.subject, e.reason, e.failures,
             "tournament" if e.tournament_id else "championship",
             e.sent_again_at.isoformat() if e.sent_again_at else "",
             e.sent_again_by.get_username() if e.sent_again_by else ""]
            for e in undelivered.for_tournament(tournament, request.user).iterator(chunk_size=500))
    return table_response(fmt, f"{tournament.slug}-emails-not-sent",
                          ["failed_at", "to", "subject", "reason", "failures", "about", "sent_again_at",
                           "sent_again_by"], rows)
