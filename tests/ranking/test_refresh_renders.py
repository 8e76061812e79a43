"""The background refresh renders the public pages by calling their renderers with the version it renders (issue 35
item 2): it builds no request and runs no middleware, and what it keeps is what a reader's request would keep, under
the same key, byte for byte, so nothing can tell the two apart by an attribute the worker forgot to set."""
import logging

import pytest
from django.core.cache import cache
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest
from django.test import override_settings

from ranking import live, refresh, tasks
from ranking.standings import results_version
from tests.ranking import test_refresh
from tests.ranking.test_page_cache import CountingCache
from tests.ranking.test_refresh import sign_off

event, worker = test_refresh.event, test_refresh.worker  # the fixtures

pytestmark = pytest.mark.django_db


class RefusedMiddleware:
    """A middleware that refuses to be loaded: the refresh must not need the stack."""

    def __init__(self, get_response):
        raise AssertionError("the refresh loaded the middleware")


def refuse(*args, **kwargs):
    raise AssertionError("the refresh built or handled a request")


@pytest.fixture
def recorded(monkeypatch):
    """The keys the live pages and their parts are kept under, from now on."""
    recording = CountingCache()
    monkeypatch.setattr(live, "cache", recording)
    return recording


def test_the_refresh_builds_no_request_and_runs_no_middleware(client, event, worker, recorded, monkeypatch, caplog,
                                                              django_capture_on_commit_callbacks):
    from ranking import printing

    layouts = []
    monkeypatch.setattr(printing, "render_pdf", lambda template, context, **kw: layouts.append(template) or b"%PDF-")
    pk = event["t"].pk
    assert client.get("/t/cup/").status_code == 200  # a reader: the address the refresh renders for
    sign_off(event, 0, django_capture_on_commit_callbacks)
    recorded.pages.clear()
    with monkeypatch.context() as patched, override_settings(MIDDLEWARE=[f"{__name__}.RefusedMiddleware"]), \
            caplog.at_level(logging.WARNING):
        for cls, method in ((HttpRequest, "__init__"), (WSGIRequest, "__init__"), (BaseHandler, "get_response"),
                            (BaseHandler, "load_middleware")):
            patched.setattr(cls, method, refuse)
        tasks.refresh_task(pk)
        tasks.pdf_warming_task(pk)
    assert [record.getMessage() for record in caplog.records if record.name.startswith("ranking")] == []
    assert refresh.announced_version(pk) == results_version(pk)
    assert len(recorded.pages) == 7  # overview and game 1 (as page and live part), standings (both), the screen
    assert sorted(layouts) == ["print/seating.html", "print/standings.html"]


def clear(recorded: CountingCache) -> None:
    recorded.pages.clear()
    recorded.fragments.clear()


def read(client, players: list[int]) -> dict[str, tuple[int, dict[str, str], bytes]]:
    """Every live page the refresh keeps, as a reader gets it: status, headers and body (brotli accepted)."""
    read: dict[str, tuple[int, dict[str, str], bytes]] = {}
    for prefix in ("", "/he"):
        for path, htmx in [("/t/cup/", False), ("/t/cup/", True), ("/t/cup/standings/", False),
                           ("/t/cup/standings/?page=1", True), ("/t/cup/screen/", False), ("/t/cup/games/1/", False),
                           ("/t/cup/games/1/", True), *((f"/t/cup/players/{player}/", False) for player in players)]:
            response = client.get(prefix + path, HTTP_ACCEPT_ENCODING="br, gzip",
                                  **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
            headers = {name: value for name, value in response.headers.items() if name != "X-Request-ID"}  # one each
            read[f"{prefix}{path} {htmx}"] = (response.status_code, headers, response.content)
    return read


def test_a_reader_finds_what_the_refresh_kept_byte_for_byte(client, event, worker, recorded,
                                                           django_capture_on_commit_callbacks):
    pk = event["t"].pk
    for path in ("/t/cup/", "/he/t/cup/"):  # readers in English and Hebrew: both languages are kept warm
        assert client.get(path).status_code == 200
    tasks.refresh_task(pk)  # a first round: from now on, which tables are new is known
    sign_off(event, 3, django_capture_on_commit_callbacks, vps=(4, 10, 6, 2))
    clear(recorded)
    tasks.refresh_task(pk)
    kept = {key: cache.get(key) for key in recorded.pages | recorded.fragments}
    players = [entry.player_id for entry in event["entries"][12:16]]
    assert len(recorded.pages) == 2 * (7 + len(players))
    clear(recorded)
    from_refresh = read(client, players)
    assert recorded.pages == set()  # every page read was the refresh's: none rendered again

    cache.delete_many(list(kept))  # the same pages, now rendered for readers who ask
    read(client, players)
    # the same keys, each with the same content type, body and compressed forms
    assert {key: cache.get(key) for key in recorded.pages | recorded.fragments} == kept
    assert read(client, players) == from_refresh  # and what readers get from them: status, headers, body
    assert all(status == 200 and headers["Content-Encoding"] == "br" for status, headers, _ in from_refresh.values())
