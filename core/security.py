"""Response headers every page gets: a Content-Security-Policy, a Permissions-Policy, and no caching of staff pages.

Django's SecurityMiddleware sends HSTS, nosniff and the referrer policy; this adds what it does not.
The policies are settings (`CONTENT_SECURITY_POLICY`, `PERMISSIONS_POLICY`) so a deployment can tighten
them; `NO_STORE_PATH_PREFIXES` names the staff areas whose pages no browser or proxy may keep, with or
without a language prefix (`/ar/referee/…`). Every page refuses to be framed (`frame-ancestors 'none'`, and
X-Frame-Options from Django's middleware) except one that calls `framed_by` for the sites its owner listed.
"""
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers


def framed_by(response: HttpResponse, origins: list[str]) -> HttpResponse:
    """This response may be shown in a frame of a page from one of `origins` (none: by nobody): the site's policy
    with only its `frame-ancestors` changed, and no X-Frame-Options (which cannot name a site)."""
    sources = " ".join(origins) or "'none'"
    directives = [d.strip() for d in settings.CONTENT_SECURITY_POLICY.split(";") if d.strip()]
    kept = [d for d in directives if d.split()[0].lower() != "frame-ancestors"]
    response.headers["Content-Security-Policy"] = "; ".join([*kept, f"frame-ancestors {sources}"])
    response.xframe_options_exempt = True  # read by XFrameOptionsMiddleware
    return response


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        languages = "|".join(re.escape(code) for code, _name in settings.LANGUAGES)
        prefixes = "|".join(re.escape(p.strip("/")) for p in settings.NO_STORE_PATH_PREFIXES)
        self.no_store = re.compile(rf"^/(?:(?:{languages})/)?(?:{prefixes})/")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.CONTENT_SECURITY_POLICY:
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        if settings.PERMISSIONS_POLICY:
            response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        if self.no_store.match(request.path_info):
            add_never_cache_headers(response)  # Cache-Control: max-age=0, no-cache, no-store, must-revalidate, private
        return response
