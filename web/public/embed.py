"""The embed for a federation's website: `/t/<slug>/embed/`, a small page meant for an `<iframe>` with the
tournament's standings, the current game's seating and "where do I sit?" (`ranking.public.embed`).

It is the one page of the site that a page elsewhere may frame, and only a page of a website the tournament's
organizers listed (`championships.embedding`): its answers, cached or 304, carry `frame-ancestors` with those
origins (`core.security.framed_by`). Like the other public pages it is live and cached whole for readers who are
not signed in; its links open the full pages outside the frame.
"""
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from championships.embedding import frame_origins
from championships.models import Tournament
from core.security import framed_by
from ranking.live import POLL_SECONDS, cached_page, live_page, request_version, tournament_id
from ranking.public.embed import embed_page
from ranking.public.pages import positive_number
from ranking.public.where import QUERY_MAX
from web.requests import HtmxHttpRequest

from .pages import page_number, query_text


def framed_by_listed_sites(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Every answer of `view` (rendered, from the page cache or 304) may be framed by the tournament's listed
    websites and by no other."""
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, slug, *args, **kwargs)
        pk = tournament_id(slug)
        return framed_by(response, frame_origins(pk) if pk is not None else [])
    return wrapper


@require_GET
@framed_by_listed_sites
@live_page
@cached_page(uses={"q": query_text, "page": positive_number})
def embed(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    query, page = query_text(request.GET.get("q", "")), page_number(request)
    shown = {**({"q": query} if query else {}), **({"page": page} if page > 1 else {})}
    return render(request, "public/embed.html", {
        "tournament": tournament, "page": embed_page(tournament, query, page), "query": query,
        "query_max": QUERY_MAX, "refresh_query": urlencode(shown),
        "version": request_version(request, slug) or "", "poll_seconds": POLL_SECONDS})
