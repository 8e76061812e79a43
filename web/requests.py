"""The request the web layer's views are typed with: Django's, with what the project's middleware and page
decorators set on it, so mypy checks their use (they are plain attributes at run time)."""
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """django-htmx's middleware gives every request `htmx`; `ranking.live.cached_page` sets
    `page_query` (the query values a cached page depends on); the overlay keeps its `overlay_version` once made."""

    htmx: HtmxDetails
    page_query: str
    overlay_version: str | None
