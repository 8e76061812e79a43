"""Live public pages, cheaply: an ETag from the tournament's results version, so a poll that finds nothing new
is answered 304 before anything is rendered, and a tiny version endpoint the pages poll."""
import contextlib
import hashlib
from functools import wraps

from django.core.cache import cache
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition

from championships.models import Tournament

from .standings import results_version

POLL_SECONDS = 4
"""How often an open page asks whether anything changed (a sign-off shows within 5 s)."""


def version_of(slug: str) -> str | None:
    """The results version of the tournament with this slug; None if there is none (or no cache)."""
    pk = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
    return None if pk is None else results_version(pk)


def request_version(request, slug: str) -> str | None:
    """The version this request's ETag was made from (read once per request)."""
    if not hasattr(request, "results_version"):
        request.results_version = version_of(slug)
    return request.results_version


def public_etag(request, slug: str, *args, **kwargs) -> str | None:
    """Same version, language, query, fragment-or-page and signed-in account: the same page."""
    version = request_version(request, slug)
    if version is None:
        return None
    user = request.user.pk if request.user.is_authenticated else 0
    parts = [version, get_language() or "", request.path, request.GET.urlencode(),
             "htmx" if getattr(request, "htmx", False) else "page", str(user)]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def live_page(view):
    """304 for an unchanged page; browsers and htmx must revalidate every time (private: it may name a user)."""
    conditional = condition(etag_func=public_etag)(view)

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = conditional(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


FRAGMENT_SECONDS = 300
"""Rendered fragments expire on their own too; a new results version makes new keys at once."""


def cached_fragment(request, name: str, version: str | None, render) -> str:
    """A page part that holds no per-visitor data (no form, no token), rendered once per results version,
    language and query, then served from the cache; rendered afresh when there is no version or no cache."""
    if not version:
        return render()
    key = "fragment:" + hashlib.sha256("|".join(
        [name, version, get_language() or "", request.path, request.GET.urlencode()]).encode()).hexdigest()
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        if (html := cache.get(key)) is not None:
            return mark_safe(html)  # noqa: S308 (our own rendered template, stored as rendered)
    html = render()
    with contextlib.suppress(Exception):
        cache.set(key, str(html), timeout=FRAGMENT_SECONDS)
    return html
