"""Live public pages, cheaply: an ETag from the tournament's results version, so a poll that finds nothing new
is answered 304 before anything is rendered, and a tiny version endpoint the pages poll; whole pages cached for
readers who are not signed in, kept compressed, under a key made of the query parameters the page uses.

A reader who is not signed in is shown the version whose pages the background refresh has made ready
(`ranking.refresh.reader_version`); signed-in staff the newest one, rendered for them."""
import contextlib
import hashlib
import re
import time
from collections.abc import Callable, Mapping
from functools import wraps
from typing import overload

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition

from championships.models import Tournament
from core.compression import accepted, compressible, encoded, variants, weaken_etag

from . import refresh
from .standings import results_version

POLL_SECONDS = 4
"""How often an open page asks whether anything changed."""
SOON_SECONDS = 1
"""How soon it asks again when the answer says a newer version's pages are being made: a sign-off then shows
on every open page within about max(POLL_SECONDS, the refresh's time + SOON_SECONDS), under the 5 s target."""

View = Callable[..., HttpResponse]
"""A page view, as the page decorators below take and give it."""

SLUG_SECONDS = 30
"""How long a web process trusts the tournament id it found for a slug (slugs change only in the admin)."""
_tournament_ids: dict[str, tuple[int, float]] = {}


def forget_tournament_ids() -> None:
    """A tournament was saved or deleted in this process: look slugs up again (other processes within
    SLUG_SECONDS)."""
    _tournament_ids.clear()


SLUG_SHAPE = r"[-a-zA-Z0-9_]{1,50}"
"""A tournament's short name in an address, as its SlugField keeps them."""
_SLUG = re.compile(SLUG_SHAPE)


def tournament_id(slug: str) -> int | None:
    """The id of the tournament with this slug, remembered for a while: a poll then asks only the cache. A slug of
    another shape (the API's paths admit any text, a NUL byte included, which PostgreSQL refuses) names none."""
    if not _SLUG.fullmatch(slug):
        return None
    found = _tournament_ids.get(slug)
    if found and found[1] > time.monotonic():
        return found[0]
    pk = next(iter(Tournament.objects.filter(slug=slug).values_list("pk", flat=True).order_by()[:1]), None)
    if pk is not None:
        if len(_tournament_ids) > 10_000:
            _tournament_ids.clear()
        _tournament_ids[slug] = (pk, time.monotonic() + SLUG_SECONDS)
    return pk


def request_version(request, slug: str) -> str | None:
    """The version this request is shown and its ETag made from (read once per request): for staff the newest,
    for other readers the one whose pages are ready; None if there is no such tournament (or no cache).
    `request.newer_coming` then says whether a newer version's pages are being made (`refresh.reader_state`)."""
    if not hasattr(request, "results_version"):
        pk = tournament_id(slug)
        request.results_version, request.newer_coming = (
            (None, False) if pk is None else refresh.reader_state(pk) if _anonymous(request)
            else (results_version(pk), False))
    return request.results_version


def public_etag(request, slug: str, *args, **kwargs) -> str | None:
    """Same version, language, query, fragment-or-page and signed-in account: the same page."""
    return _etag(request, request_version(request, slug))


def _etag(request, version: str | None) -> str | None:
    if version is None:
        return None
    user = request.user.pk if request.user.is_authenticated else 0
    parts = [version, get_language() or "", request.path, request.GET.urlencode(),
             "htmx" if getattr(request, "htmx", False) else "page", str(user)]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


@overload
def live_page(view: View, *, version: Callable[..., str | None] | None = None) -> View: ...
@overload
def live_page(view: None = None, *, version: Callable[..., str | None] | None = None) -> Callable[[View], View]: ...
def live_page(view: View | None = None, *,
              version: Callable[..., str | None] | None = None) -> View | Callable[[View], View]:
    """304 for an unchanged page; browsers and htmx must revalidate every time (private: it may name a user).
    `version(request, *args, **kwargs)` names what the page shows (default: the tournament's results version)."""
    if view is None:
        return lambda view: live_page(view, version=version)
    etag = public_etag if version is None else (
        lambda request, *args, **kwargs: _etag(request, version(request, *args, **kwargs)))
    conditional = condition(etag_func=etag)(view)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = conditional(request, *args, **kwargs)
        if not getattr(response, "shared", False):  # a page for anyone (`cached_page`) says so itself
            patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("HX-Request",))
        if response.has_header("Content-Encoding"):
            weaken_etag(response)
        return response

    return wrapper


def poll_state(version: Callable[..., str | None]) -> Callable[..., str | None]:
    """What a live poll's answer, and so its ETag, depends on: the page's `version(request, slug)` and whether a
    newer results version is coming (`request_version` sets `request.newer_coming`)."""
    def state(request, slug: str, *args, **kwargs) -> str | None:
        current = version(request, slug)
        return None if current is None else f"{current}{'+' if request.newer_coming else ''}"
    return state


def poll_answer(request, slug: str, current: str | None) -> JsonResponse:
    """The poll's JSON: the version the page is shown, `coming` while a newer version's pages are being made (the
    page then asks again in SOON_SECONDS, not POLL_SECONDS), and the server's time (`now`, ms since 1970), which
    the map-study clock asks for uncached because a cached page's is stale."""
    if current is None and not Tournament.objects.filter(slug=slug).exists():
        raise Http404("No tournament with that slug.")
    response = JsonResponse({"version": current or "", "coming": getattr(request, "newer_coming", False),
                             "soon": SOON_SECONDS, "now": int(time.time() * 1000)})
    # The same for every anonymous reader: a proxy may keep it a second (the study clock's own `no-store` request,
    # which wants `now` to the millisecond, carries `Pragma: no-cache`, on which nginx asks the app)
    if _anonymous(request):
        shared(response)
    return response


FRAGMENT_SECONDS = 300
"""Rendered fragments expire on their own too; a new results version makes new keys at once."""


def cached_fragment(name: str, version: str | None, path: str, query: str, render) -> str:
    """A page part that holds no per-visitor data (no form, no token), rendered once per results version,
    language, path and the query parameters the page uses (`page_query`), then served from the cache; rendered
    afresh when there is no version or no cache."""
    if not version:
        return render()
    key = "fragment:" + hashlib.sha256("|".join([name, version, get_language() or "", path, query]).encode()
                                       ).hexdigest()
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        if (html := cache.get(key)) is not None:
            return mark_safe(html)  # our own rendered template, stored as rendered
    html = render()
    with contextlib.suppress(Exception):
        cache.set(key, str(html), timeout=FRAGMENT_SECONDS)
    return html


PAGE_SECONDS = 300
"""Whole pages for anonymous readers expire on their own too; a new results version makes new keys at once."""
PROXY_SECONDS = 1
"""How long a shared cache in front (the deployment's nginx) may keep a page served to anyone: a burst of readers
costs the replicas one request a second per page, and a new version reaches them at most this much later."""


def shared(response: HttpResponse) -> HttpResponse:
    """A page anyone not signed in is shown alike: browsers revalidate it each time (its ETag), a shared cache may
    keep it PROXY_SECONDS (`s-maxage`, which nginx obeys; `Vary: Cookie` keeps visitors with cookies apart)."""
    patch_cache_control(response, public=True, max_age=0, must_revalidate=True, s_maxage=PROXY_SECONDS)
    response.shared = True  # type: ignore[attr-defined]  # read by live_page
    return response


def _anonymous(request) -> bool:
    """No session and no pending message: the page shows nothing personal (staff have a session cookie)."""
    return not any(name in request.COOKIES for name in (settings.SESSION_COOKIE_NAME, "messages"))


def shared_when_anonymous(view: View) -> View:
    """A page anyone not signed in is shown alike that is not kept whole here (a list across tournaments, an
    export, a PDF): the proxy in front may still keep it PROXY_SECONDS, so a burst of readers costs one render a
    second. Only a plain 200 that set no caching of its own (a refusal's `no-store` stays) and holds nothing
    personal (`_unshareable`); staff, with a session, always get their own."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if (request.method in ("GET", "HEAD") and response.status_code == 200 and _anonymous(request)
                and not response.has_header("Cache-Control") and not response.streaming
                and not _unshareable(request, response) and not _own(response)):
            patch_vary_headers(response, ("Cookie",))
            shared(response)
        return response

    return wrapper


TIMED = b"data-server-now-ms"
"""The mark of a page that shows the server's present time (the map-study clock): it is never stored."""


def _unshareable(request, response) -> bool:
    """A response that used a CSRF token or changed the session must never be served to anyone else."""
    session = getattr(request, "session", None)
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or (session is not None and session.modified))


def _own(response: HttpResponse) -> bool:
    """A rendered answer that sets a cookie, holds a CSRF token or shows the time of its rendering: its reader's
    own, never kept for anyone else (here or by the proxy)."""
    return bool(response.cookies) or b"csrfmiddlewaretoken" in response.content or TIMED in response.content


def keep_page(key: str, response: HttpResponse) -> dict[str, bytes] | None:
    """Store a rendered page for anyone under `key` (`page_key`) with its compressed forms, which it returns; None,
    and nothing stored, when it is not for anyone: not a 200, streamed, or setting a cookie, holding a CSRF token
    or showing the time of its rendering."""
    if response.status_code != 200 or response.streaming or _own(response):
        return None
    body = response.content
    compressed = variants(body) if compressible(response["Content-Type"], len(body)) else {}
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        cache.set(key, (response["Content-Type"], body, compressed), timeout=PAGE_SECONDS)
    return compressed


def page_key(version: str, host: str, path: str, query: str, htmx: bool) -> str:
    """Where a whole page is kept: its version, the active language, the host and path it is read at, the query
    parameters it uses (`page_query`) and whether it is the page or its live part (htmx)."""
    return "page:" + hashlib.sha256("|".join(
        [version, get_language() or "", host, path, query, "htmx" if htmx else "page"]).encode()).hexdigest()


def page_query(uses: dict[str, Callable[[str], object]], params: Mapping[str, str]) -> str:
    """The query parameters the page uses, each as the page reads it; any other parameter is ignored."""
    return "&".join(f"{name}={uses[name](params.get(name, ''))}" for name in sorted(uses))


def _tournament_version(request, slug: str, *args, **kwargs) -> str | None:
    return request_version(request, slug)


@overload
def cached_page(view: View, *, uses: dict[str, Callable[[str], object]] | None = None,
                version: Callable[..., str | None] | None = None) -> View: ...
@overload
def cached_page(view: None = None, *, uses: dict[str, Callable[[str], object]] | None = None,
                version: Callable[..., str | None] | None = None) -> Callable[[View], View]: ...
def cached_page(view: View | None = None, *, uses: dict[str, Callable[[str], object]] | None = None,
                version: Callable[..., str | None] | None = None) -> View | Callable[[View], View]:
    """The whole rendered page for anonymous readers, per version, language, address, the query parameters it
    `uses` (name → the value as the page reads it: `?x=<random>` finds the same entry) and fragment-or-page;
    stored with its compressed forms, served in the one the reader accepts. Staff (any session) always get a
    fresh render, and nothing personal is ever stored. `version(request, *args, **kwargs)` names what the page
    shows (default: the results version of the tournament whose slug comes first); None: rendered, not stored."""
    if view is None:
        return lambda view: cached_page(view, uses=uses, version=version)
    uses = uses or {}
    of_tournament = version is None
    shown = version or _tournament_version

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        request.page_query = page_query(uses, request.GET)
        current = shown(request, *args, **kwargs) if _anonymous(request) else None
        if not current:
            return view(request, *args, **kwargs)
        key = page_key(current, request.get_host(), request.path, request.page_query,
                       bool(getattr(request, "htmx", False)))
        with contextlib.suppress(Exception):  # the cache is an optimisation only
            if (stored := cache.get(key)) is not None:
                content_type, body, compressed = stored
                response = HttpResponse(content_type=content_type)
                encoding = accepted(request, tuple(compressed)) if compressed else None
                encoded(response, encoding, compressed[encoding] if encoding else body)
                patch_vary_headers(response, ("Cookie",))  # as the rendered page: a proxy keeps staff apart
                return shared(response)
        response = view(request, *args, **kwargs)
        if not _unshareable(request, response) and (compressed := keep_page(key, response)) is not None:
            if of_tournament:
                pk = tournament_id(kwargs.get("slug", args[0] if args else ""))
                if pk is not None:
                    refresh.seen(pk, get_language() or "", request.get_host())
            if compressed:
                encoding = accepted(request, tuple(compressed))
                encoded(response, encoding, compressed[encoding] if encoding else response.content)
            shared(response)
        return response

    return wrapper
