"""The organizer's list of a day's calls for a referee, with the waits per game (median and 95th percentile), and
the same calls as CSV and XLSX."""
import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from calls import selectors
from championships.models import Tournament
from championships.permissions import organized_tournament
from core.table_export import table_response
from web.requests import HtmxHttpRequest

HEADER = ["placed_at", "game", "table", "reason", "note", "placed_by", "taken_by", "first_taken_at", "wait_seconds",
          "passed_to", "resolved_at", "resolved_by", "ruling"]


def _day(request: HtmxHttpRequest, tournament: Tournament) -> datetime.date:
    """The day asked for (`?day=`), else that of the latest call, else the tournament's, else today."""
    try:
        return datetime.date.fromisoformat(request.GET.get("day", "")[:10])
    except ValueError:
        return selectors.last_call_day(tournament) or tournament.date or timezone.localdate()


@login_required
@require_GET
def calls_day(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    day = _day(request, tournament)
    calls = selectors.day_calls(tournament, day)
    return render(request, "organize/calls.html", {
        "tournament": tournament, "day": day, "calls": calls, "waits": selectors.waits_by_game(calls),
        "is_organizer": True})


@login_required
@require_GET
def calls_day_csv(request: HtmxHttpRequest, slug: str, fmt: str = "csv") -> HttpResponse:
    tournament = organized_tournament(request.user, slug)
    day = _day(request, tournament)
    rows = ([c.placed_at.isoformat(), c.table.game.number, c.table.number, c.reason, c.note, c.placed_by.player.name,
             c.taken_by.get_username() if c.taken_by else "",
             c.first_taken_at.isoformat() if c.first_taken_at else "",
             selectors.wait_seconds(c) if c.first_taken_at else "", c.passed_to,
             c.resolved_at.isoformat() if c.resolved_at else "",
             c.resolved_by.get_username() if c.resolved_by else "", c.ruling]
            for c in selectors.day_calls(tournament, day))
    return table_response(fmt, f"{tournament.slug}-calls-{day.isoformat()}", HEADER, rows)
