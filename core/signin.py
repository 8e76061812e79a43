"""Staff sign-in throttling: what django-axes counts, how long a pause lasts, which browsers keep signing in.

Failures are counted per username *and* client address (`core.clients.client_address`, which reads the
proxy's header as `PROXY_COUNT` says). Five failures pause that pair; a pause is 1 minute at first and
doubles with every further round of five failures within a day, up to 15 minutes. Attempts refused
during a pause are not counted, so hammering does not lengthen it. Failures from elsewhere never touch
the real user's own address, so an attacker with many addresses locks out nobody but themselves.

At a venue everyone shares one Wi-Fi address. A browser that signed in successfully as a username gets
a signed cookie saying so; it is not paused by other people's failures on that username (django-axes
whitelists it) but has an allowance of its own (10 failures an hour), after which it is counted like
any other browser. An organizer can lift a pause from the console's staff page (`lift_pause`).
"""
from datetime import timedelta

from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.crypto import salted_hmac

from .clients import client_address
from .ratelimit import RateLimit

USERNAME_MAX = 255
"""The length of django-axes' username column."""
PAUSE_FIRST = timedelta(minutes=1)
PAUSE_MAX = timedelta(minutes=15)
ROUNDS_REMEMBERED = timedelta(days=1)
"""Rounds of failures older than this no longer lengthen the pause (django-axes' failure log is pruned daily)."""
KNOWN_BROWSER_COOKIE = "known_browser"
KNOWN_BROWSER_DAYS = 90
KNOWN_BROWSER_USERS = 8
"""Usernames one browser remembers (a shared referee tablet)."""
KNOWN_BROWSER_FAILURES = RateLimit("signin-known-browser", limit=10, window=3600)
_SALT = "core.signin.known-browser"


def attempted_username(request, credentials) -> str | None:
    """The username tried, cut to what django-axes stores.

    Django's sign-in forms check the username's length only in the browser, so a longer one reached
    the record of the failure and made it a server error (on the site's and the admin's sign-in).
    """
    data = credentials or getattr(request, "data", None) or getattr(request, "POST", {})
    username = data.get("username")
    return username[:USERNAME_MAX] if isinstance(username, str) else username


def pause(request=None) -> timedelta:
    """How long five failures pause this username from this address: doubled per earlier round today."""
    if request is None:
        return PAUSE_FIRST
    username = attempted_username(request, None)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    failures = AccessFailureLog.objects.filter(
        username=username, ip_address=address, attempt_time__gte=timezone.now() - ROUNDS_REMEMBERED).count()
    rounds = max(failures // settings.AXES_FAILURE_LIMIT, 1)
    return min(PAUSE_FIRST * 2 ** min(rounds - 1, 16), PAUSE_MAX)


def pause_left(request) -> timedelta:
    """What is left of the pause of this request's username and address."""
    username = attempted_username(request, None)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    last = (AccessAttempt.objects.filter(username=username, ip_address=address)
            .order_by("-attempt_time").values_list("attempt_time", flat=True).first())
    if last is None:
        return timedelta(0)
    return max(last + pause(request) - timezone.now(), timedelta(0))


def _token(username: str) -> str:
    return salted_hmac(_SALT, username.casefold(), algorithm="sha256").hexdigest()[:24]


def _remembered(request) -> list[str]:
    try:
        value = request.get_signed_cookie(KNOWN_BROWSER_COOKIE, salt=_SALT, max_age=KNOWN_BROWSER_DAYS * 86400)
    except (KeyError, signing.BadSignature):
        return []
    return [token for token in value.split(",") if token]


def remember_browser(request, response, username: str) -> None:
    """After a successful sign-in: this browser is known for this username (and the ones it knew)."""
    tokens = [_token(username), *[t for t in _remembered(request) if t != _token(username)]]
    response.set_signed_cookie(KNOWN_BROWSER_COOKIE, ",".join(tokens[:KNOWN_BROWSER_USERS]), salt=_SALT,
                               max_age=KNOWN_BROWSER_DAYS * 86400, secure=settings.SESSION_COOKIE_SECURE,
                               httponly=True, samesite="Lax")


def _browser_key(request, username: str) -> str | None:
    token = _token(username)
    return f"{token}:{request.COOKIES.get(KNOWN_BROWSER_COOKIE, '')}" if token in _remembered(request) else None


def known_browser(request, credentials) -> bool:
    """django-axes' whitelist: the site's sign-in page, from a browser known for this username, within
    that browser's own allowance."""
    username = attempted_username(request, credentials)
    match = getattr(request, "resolver_match", None)
    if not isinstance(username, str) or match is None or match.url_name != "login" or match.namespace:
        return False
    key = _browser_key(request, username)
    return key is not None and KNOWN_BROWSER_FAILURES.used(key) < KNOWN_BROWSER_FAILURES.limit


def count_known_browser_failure(request, username: str) -> None:
    """A failure from a known browser: django-axes skipped it, so it is counted against that browser."""
    key = _browser_key(request, username)
    if key is not None:
        KNOWN_BROWSER_FAILURES.hit(key)


def paused_usernames(usernames) -> set[str]:
    """Which of these usernames failed to sign in recently from somewhere (what an organizer may lift)."""
    since = timezone.now() - PAUSE_MAX
    return set(AccessAttempt.objects.filter(username__in=list(usernames), attempt_time__gte=since)
               .values_list("username", flat=True))


def lift_pause(username: str) -> int:
    """Forget the username's failures from every address, and the rounds that lengthen its pauses."""
    removed, _ = AccessAttempt.objects.filter(username=username).delete()
    AccessFailureLog.objects.filter(username=username).delete()
    return removed
