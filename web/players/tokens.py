"""What every player page behind a token shares: its headers, the misses counted per address, the cookie.

A page behind a token is `private_page`: never stored by a browser or proxy, never indexed, and its address goes
to no other site as a referrer (`same-origin`: "no-referrer" would make the browser send `Origin: null` with the
page's forms, which Django's CSRF check refuses; our own logs redact the token, core/logging.py). None of them goes
through the public page cache. Opening one's private link leaves a cookie holding it, so the check-in QR code
opened on the same phone knows who is checking in.
"""
import math
from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.core import signing
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy, ngettext

from championships import links
from championships.models import Player
from core.ratelimit import RateLimit
from web.requests import HtmxHttpRequest

HOUR = 3600
TOKEN_MISSES = RateLimit("player-token-miss", 30, HOUR)
"""Addresses with a token or check-in code that opens nothing, per client address and hour: past the limit, that
address is answered "wait" for every token until the hour ends, so nobody tries tokens at speed. A mistyped or
replaced link is one miss; a venue's players behind one address stay far below it."""
COOKIE = "catan_me"
COOKIE_SALT = "web.players.me"
COOKIE_DAYS = 30


def private_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page that shows or takes a token: no-store, noindex, its address never sent to another site."""
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        add_never_cache_headers(response)  # Cache-Control: max-age=0, no-cache, no-store, must-revalidate, private
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "same-origin"
        return response
    return wrapper


def too_many(request: HtmxHttpRequest, template: str, context: dict[str, Any], wait: int,
             problem: str) -> HttpResponse:
    response = render(request, template, {**context, "problem": problem}, status=429)
    response["Retry-After"] = str(wait)
    return response


def wait_minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))


def miss(request: HtmxHttpRequest) -> int:
    """Counts a token or code that opens nothing against the client's address: the seconds it must wait, or 0."""
    return TOKEN_MISSES.hit_client(request)


def invalid_link(request: HtmxHttpRequest, problem: str = "") -> HttpResponse:
    """A token or code that opens nothing: counted against the client's address (TOKEN_MISSES)."""
    if wait := miss(request):
        return guessing(request, wait)
    return render(request, "players/invalid_link.html", {"problem": problem}, status=404)


def guessing(request: HtmxHttpRequest, wait: int) -> HttpResponse:
    return too_many(request, "players/invalid_link.html", {}, wait, ngettext(
        "Too many links that open nothing came from your network: try again in %(n)d minute.",
        "Too many links that open nothing came from your network: try again in %(n)d minutes.", wait_minutes(wait))
        % {"n": wait_minutes(wait)})


def tokens_checked(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuses, before looking a token up, an address that has had too many that open nothing."""
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if wait := TOKEN_MISSES.client_wait(request):
            return guessing(request, wait)
        return view(request, *args, **kwargs)
    return wrapper


def player_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view behind a player's private link, `view(request, token=…, player=…, …)`: refused before the lookup past
    the misses (`tokens_checked`), the invalid-link page (a miss) for a token that opens nothing."""
    @tokens_checked
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, token: str, **kwargs: Any) -> HttpResponse:
        player = token_player(token)
        if player is None:
            return invalid_link(request)
        return view(request, *args, token=token, player=player, **kwargs)
    return wrapper


def set_cookie(response: HttpResponse, token: str) -> None:
    response.set_cookie(COOKIE, signing.dumps(token, salt=COOKIE_SALT), max_age=COOKIE_DAYS * 24 * 3600,
                        secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax")


def cookie_token(request: HtmxHttpRequest) -> str | None:
    value = request.COOKIES.get(COOKIE)
    if not value:
        return None
    try:
        return cast(str, signing.loads(value, salt=COOKIE_SALT, max_age=COOKIE_DAYS * 24 * 3600))
    except signing.BadSignature:
        return None


def token_player(token: str) -> Player | None:
    return links.player_for(token)


HANDED_OVER = gettext_lazy("The link you have was handed to you by the organizers of another event: confirm results "
                           "of this tournament at the table.")
