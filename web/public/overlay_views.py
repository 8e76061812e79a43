"""The stream overlay: `/t/<slug>/overlay/`, a transparent page an OBS browser source lays over the video of a
livestreamed final (`web.public.overlay`), and the version it polls.

Like the projector it is live (304 while nothing changed, refreshed in place when something did) and cached whole
for readers who are not signed in; its version is the results version and its table's sheet token, so a VP the
referee saves shows within seconds although the other public pages wait for the sign-off.
"""

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from championships.models import Tournament
from ranking.live import POLL_SECONDS, cached_page, live_page, poll_answer, poll_state, request_version, tournament_id
from web.requests import HtmxHttpRequest

from .overlay import overlay_page, sheet_token, table_number


def _table(request: HtmxHttpRequest) -> int:
    return table_number(request.GET.get("table", ""))


def overlay_version(request: HtmxHttpRequest, slug: str, *args: Any, **kwargs: Any) -> str | None:
    """The results version this reader is shown and the token of the table's sheets (read once per request);
    None without a cache, or for no such tournament."""
    if not hasattr(request, "overlay_version"):
        results, pk = request_version(request, slug), tournament_id(slug)
        request.overlay_version = (None if results is None or pk is None
                                   else f"{results}.{sheet_token(pk, _table(request))}")
    return request.overlay_version


@require_GET
@live_page(version=overlay_version)
@cached_page(uses={"table": table_number}, version=overlay_version)
def overlay(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "public/overlay.html", {
        "tournament": tournament, "page": overlay_page(tournament, _table(request)),
        "version": overlay_version(request, slug) or "", "poll_seconds": POLL_SECONDS})


@require_GET
@live_page(version=poll_state(overlay_version))
def version(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """What an open overlay polls, as `/t/<slug>/version/` answers the other live pages (`ranking.live.poll_answer`):
    its version, 304 while it is the one the overlay holds."""
    return poll_answer(request, slug, overlay_version(request, slug))
