"""Calendar files: a player's own tournaments (behind their token), and a tournament's or a championship's days
(public, like their pages)."""
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from championships.models import Championship, Entry, Player, Tournament
from core.ics import CONTENT_TYPE, calendar
from core.site import absolute
from scheduling.calendar import tournament_event
from web.requests import HtmxHttpRequest

from .tokens import player_link, private_page


@private_page
@require_GET
@player_link
def me_calendar(request: HtmxHttpRequest, token: str, *, player: Player) -> HttpResponse:
    entries = (Entry.objects.filter(player=player).exclude(tournament__status=Tournament.Status.FINISHED)
               .select_related("tournament"))
    events = [event for entry in entries if (event := tournament_event(
        entry.tournament, entry=entry,
        url=absolute(reverse("public-tournament", args=[entry.tournament.slug]))))]
    return _ics(calendar(events, name=_("My CATAN tournaments"), now=timezone.now()), "my-tournaments.ics")


def _ics(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
def tournament_calendar(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tournament's day as a calendar file: public, like the tournament's page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    event = tournament_event(tournament, url=absolute(reverse("public-tournament", args=[tournament.slug])))
    return _ics(calendar([event] if event else [], name=tournament.name, now=timezone.now()), f"{tournament.slug}.ics")


@require_GET
def championship_calendar(request: HtmxHttpRequest, championship_slug: str) -> HttpResponse:
    """The championship's days, one event per dated tournament (qualifiers and finals): public, like its page."""
    championship = get_object_or_404(Championship, slug=championship_slug)
    events = [event for tournament in championship.tournaments.all() if (event := tournament_event(
        tournament, url=absolute(reverse("public-tournament", args=[tournament.slug]))))]
    return _ics(calendar(events, name=championship.name, now=timezone.now()), f"{championship.slug}.ics")
