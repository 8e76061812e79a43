"""Which language a page opens in when its address names none (`/t/…`, not `/de/t/…`).

English is at the root and every other language under its prefix (Django's `i18n_patterns`), so an address is
one page in one language and can be cached whole. A visitor who arrives from outside (a typed address, a QR code,
a link in another site or an email) at an unprefixed page is sent to the same page in the language they chose
before (the language cookie, set when staff sign in: `keep_language`) or else the first of their browser's
`Accept-Language` the site speaks. Moving within the site never redirects: a reader who picked
English from the language menu stays in English, and the menu stays plain links (no form, no token).
"""
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, get_language_from_path, get_language_from_request, override


def _within_site(request: HttpRequest) -> bool:
    """The request follows a link, form or redirect of this site (the browser's Sec-Fetch-Site, else the referrer,
    which the site's same-origin referrer policy sends only to itself)."""
    fetch_site = request.headers.get("Sec-Fetch-Site", "")
    if fetch_site:
        return fetch_site in ("same-origin", "same-site")
    referer = request.headers.get("Referer", "")
    return bool(referer) and urlsplit(referer).netloc == request.get_host()


def preferred_address(request: HttpRequest) -> str | None:
    """The address of this page in the visitor's language, when that is not the unprefixed page asked for."""
    if request.method not in ("GET", "HEAD") or request.headers.get("HX-Request"):
        return None
    if get_language_from_path(request.path_info) is not None or _within_site(request):
        return None
    language = get_language_from_request(request)  # the cookie, else Accept-Language, else LANGUAGE_CODE
    if language == settings.LANGUAGE_CODE:
        return None
    here = request.get_full_path()
    there = translate_url(here, language)  # unchanged for an address outside i18n_patterns (/api/, /healthz)
    return there if there != here else None


class FirstVisitLanguageMiddleware:
    """After Django's LocaleMiddleware: a visitor from outside at an unprefixed page goes to their language's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        there = preferred_address(request)
        if there is not None:
            response: HttpResponse = HttpResponseRedirect(there)
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            patch_cache_control(response, private=True, no_cache=True)
            return response
        return self.get_response(request)


def address_in(url: str, language: str) -> str:
    """`url` (a path on this site, any language's) as the same page in `language`; unchanged when it is no page in
    every language. Django's translate_url reads the path in the active language, so it is read in its own."""
    with override(get_language_from_path(urlsplit(url).path) or settings.LANGUAGE_CODE):
        return translate_url(url, language)


def keep_language(request: HttpRequest, response: HttpResponse) -> None:
    """Remember the page's language in the language cookie, for the next visit from outside. Only staff signing in
    get it: a page for anyone is cached whole and so never sets a cookie."""
    language = get_language()
    if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                            secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                            samesite=settings.LANGUAGE_COOKIE_SAMESITE)  # type: ignore[arg-type]  # a str setting
