"""Who may make the server lay a PDF out right now (issue 22: anonymous readers asking for the public PDFs in a
loop kept a 3-worker server busy laying them out).

A PDF is laid out only when the cache does not have it (`core.pdf_cache`); the views hold a slot around that
layout (`render_slot`), never around a cache hit or a wait for another request's layout:

* per client, at most PER_CLIENT layouts at once: a signed-in user counted by account, anyone else by address
  (`core.clients`), so an organizer printing at the venue is not refused because readers share its Wi-Fi;
* anonymous readers all together, at most ANONYMOUS layouts at once across the deployment (the slots are in the
  shared cache): with gunicorn's three workers a reader can never hold the last one that pages and staff need.

A refused layout answers 429 with Retry-After and a short page saying why (`render_limited`, a view decorator).
The background refresh that lays the likely PDFs out ahead holds no slot: it runs on the worker, one tournament at
a time, and calls the layouts without a request (`ranking.public.pdfs`).
"""
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .clients import client_address
from .ratelimit import Busy, ConcurrencyLimit

PER_CLIENT = ConcurrencyLimit("pdf-client", limit=2, hold=120, retry_after=5)
ANONYMOUS = ConcurrencyLimit("pdf-anonymous", limit=2, hold=120, retry_after=5)
"""A slot is held at most `hold` seconds (a worker is killed after 30), so one killed mid-layout frees its own."""


def client_key(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"address:{client_address(request) or 'unknown'}"


@contextmanager
def render_slot(request: HttpRequest) -> Iterator[None]:
    """Hold the client's slot (and an anonymous one) while a PDF is laid out; `Busy` when there is none."""
    key = client_key(request)
    with PER_CLIENT.slot(key):
        if key.startswith("user:"):
            yield
        else:
            with ANONYMOUS.slot("all"):
                yield


def busy_response(request: HttpRequest, busy: Busy) -> HttpResponse:
    """429, how long to wait, and why: a short page (the address was a PDF's, opened in a browser tab)."""
    response = render(request, "pdf_busy.html", {"seconds": busy.retry_after}, status=429)
    response["Retry-After"] = str(busy.retry_after)
    response["Cache-Control"] = "no-store"
    return response


def render_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A PDF view whose layouts hold slots (`render_slot`): a refused one answers `busy_response`."""
    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Busy as busy:
            return busy_response(request, busy)
    return limited
