"""Staff sign-in throttling: which failures pause which sign-ins, for how long, and which browsers keep signing in.

django-axes records every failed sign-in (username, client address from `core.clients.client_address`,
time); the pause is decided here (`PausingHandler`, django-axes' handler) because django-axes ties the time
failures are counted over to the length of the lockout. Failures count per username *and* address, over a
day: every fifth one pauses that pair, 1 minute the first time and twice as long each further time that
day, at most 15 minutes. Attempts refused during a pause are not recorded, so hammering does not lengthen
it. Failures from other addresses never touch the real user's own address, so an attacker with many
addresses pauses nobody but themselves.

At a venue everyone shares one Wi-Fi address. A browser that signed in as a username gets a signed cookie
saying so; on the site's sign-in page it is not paused by other people's failures on that username
(django-axes' whitelist), but has an allowance of its own (10 failures an hour), after which it is counted
like any other browser. An organizer can lift a pause from the console's staff page (`lift_pause`).
"""
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from .clients import client_address
from .ratelimit import RateLimit

USERNAME_MAX = 255
"""The length of django-axes' username column."""
FAILURES_PER_PAUSE = 5
PAUSE_FIRST = timedelta(minutes=1)
PAUSE_MAX = timedelta(minutes=15)
FAILURES_REMEMBERED = timedelta(days=1)
"""Failures older than this count no longer (django-axes' failure log is pruned daily)."""
KNOWN_BROWSER_COOKIE = "known_browser"
KNOWN_BROWSER_DAYS = 90
KNOWN_BROWSER_USERS = 8
"""Usernames one browser remembers (a shared referee tablet)."""
KNOWN_BROWSER_FAILURES = RateLimit("signin-known-browser", limit=10, window=3600)
_SALT = "core.signin.known-browser"


def attempted_username(request: HttpRequest, credentials: Mapping[str, Any] | None) -> str | None:
    """The username tried, cut to what django-axes stores.

    Django's sign-in forms check the username's length only in the browser, so a longer one reached
    the record of the failure and made it a server error (on the site's and the admin's sign-in).
    """
    data = credentials or getattr(request, "data", None) or getattr(request, "POST", {})
    username = data.get("username")
    return username[:USERNAME_MAX] if isinstance(username, str) else None


def _pair(request: HttpRequest, credentials: Mapping[str, Any] | None = None) -> tuple[str | None, str | None]:
    username = attempted_username(request, credentials)
    return username, getattr(request, "axes_ip_address", None) or client_address(request)


def pause_left(username: str | None, address: str | None, now: datetime | None = None) -> tuple[timedelta, timedelta]:
    """(What is left of the pair's pause, its whole length); zeros when it is not paused."""
    now = now or timezone.now()
    failures = AccessFailureLog.objects.filter(username=username, ip_address=address,
                                               attempt_time__gt=now - FAILURES_REMEMBERED)
    counted = failures.count()
    if not counted or counted % FAILURES_PER_PAUSE:
        return timedelta(0), timedelta(0)
    length = min(PAUSE_FIRST * 2 ** min(counted // FAILURES_PER_PAUSE - 1, 16), PAUSE_MAX)
    left = failures.aggregate(last=Max("attempt_time"))["last"] + length - now
    return (left, length) if left > timedelta(0) else (timedelta(0), timedelta(0))


def request_pause(request: HttpRequest, credentials: Mapping[str, Any] | None = None) -> tuple[timedelta, timedelta]:
    """`pause_left` of the request's username and address."""
    return pause_left(*_pair(request, credentials))


class PausingHandler(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes ships no types
    """django-axes' database handler (it records every attempt), with the pause decided by `pause_left`."""

    def is_locked(self, request: HttpRequest, credentials: Mapping[str, Any] | None = None) -> bool:
        return request_pause(request, credentials)[0] > timedelta(0)

    def user_login_failed(self, sender: object, credentials: dict[str, Any], request: Any = None,
                          **kwargs: Any) -> None:
        """`request` carries django-axes' attributes (axes_locked_out, axes_credentials) besides Django's."""
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or request.axes_locked_out:
            return
        if self.is_whitelisted(request, credentials):
            count_known_browser_failure(request, attempted_username(request, credentials))
        elif self.is_locked(request, credentials):  # this failure began a pause: say so at once
            request.axes_locked_out = True
            request.axes_credentials = credentials


def _token(username: str) -> str:
    return salted_hmac(_SALT, username.casefold(), algorithm="sha256").hexdigest()[:24]


def _remembered(request: HttpRequest) -> list[str]:
    # Missing, tampered with or expired: the default.
    value = request.get_signed_cookie(KNOWN_BROWSER_COOKIE, default="", salt=_SALT, max_age=KNOWN_BROWSER_DAYS * 86400)
    return [token for token in (value or "").split(",") if token]


def remember_browser(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a successful sign-in: this browser is known for this username (and the ones it knew)."""
    tokens = [_token(username), *[t for t in _remembered(request) if t != _token(username)]]
    response.set_signed_cookie(KNOWN_BROWSER_COOKIE, ",".join(tokens[:KNOWN_BROWSER_USERS]), salt=_SALT,
                               max_age=KNOWN_BROWSER_DAYS * 86400, secure=settings.SESSION_COOKIE_SECURE,
                               httponly=True, samesite="Lax")


def _browser_key(request: HttpRequest, username: str) -> str | None:
    token = _token(username)
    return f"{token}:{request.COOKIES.get(KNOWN_BROWSER_COOKIE, '')}" if token in _remembered(request) else None


def known_browser(request: HttpRequest, credentials: Mapping[str, Any] | None) -> bool:
    """django-axes' whitelist: the site's sign-in page, from a browser known for this username, within
    that browser's own allowance."""
    username = attempted_username(request, credentials)
    match = getattr(request, "resolver_match", None)
    if not isinstance(username, str) or match is None or match.url_name != "login" or match.namespace:
        return False
    key = _browser_key(request, username)
    return key is not None and KNOWN_BROWSER_FAILURES.used(key) < KNOWN_BROWSER_FAILURES.limit


def count_known_browser_failure(request: HttpRequest, username: str | None) -> None:
    """A failure from a known browser: django-axes skipped it, so it is counted against that browser."""
    key = _browser_key(request, username) if isinstance(username, str) else None
    if key is not None:
        KNOWN_BROWSER_FAILURES.hit(key)


def paused_usernames(usernames: Iterable[str]) -> set[str]:
    """Which of these usernames are paused now from some address (what an organizer may lift)."""
    now = timezone.now()
    recent = AccessFailureLog.objects.filter(username__in=list(usernames), attempt_time__gt=now - FAILURES_REMEMBERED)
    pairs = set(recent.values_list("username", "ip_address"))
    return {username for username, address in pairs if pause_left(username, address, now)[0]}


def lift_pause(username: str) -> int:
    """Forget the username's failures from every address, and the rounds that lengthen its pauses."""
    removed: int = AccessAttempt.objects.filter(username=username).delete()[0]
    AccessFailureLog.objects.filter(username=username).delete()
    return removed
