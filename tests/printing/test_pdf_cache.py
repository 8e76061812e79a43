"""PDFs laid out once (issue 22 item 4, issue 23 item 1): the public ones per results version, language and
paper; the organizer's per content, behind their permission; two requests for one missing PDF lay it out once."""
import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import pdf_cache
from ranking import printing as public_printing
from scheduling.models import Game
from scheduling.services import swap_seats
from tests.factories import make_entries, make_game, make_official, make_tournament, play
from web.organize.views import printing as organizer_printing

pytestmark = pytest.mark.django_db


@pytest.fixture
def layouts(monkeypatch):
    """Every layout counted (and skipped: what is laid out does not matter here, how often does)."""
    laid_out = []

    def fake(template, context, **kwargs):
        laid_out.append((template, kwargs.get("paper")))
        return b"%PDF-1.7 " + str(len(laid_out)).encode()

    monkeypatch.setattr(public_printing, "render_pdf", fake)
    monkeypatch.setattr(organizer_printing, "render_pdf", fake)
    return laid_out


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="cup", name="Cup", status="running")
    entries = make_entries(tournament, 8)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[:4], entries[4:]])
    return {"t": tournament, "entries": entries, "referee": referee, "game": game}


@pytest.mark.parametrize("path", ["/t/cup/standings.pdf", "/t/cup/games/1/seating.pdf"])
def test_a_public_pdf_asked_again_is_served_from_the_cache(client, cup, layouts, path):
    first = client.get(path)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(path)
    assert first.status_code == again.status_code == 200 and again.content == first.content
    assert len(layouts) == 1 and len(queries) == 0  # no layout, not even a database read
    assert again.headers["Content-Type"] == "application/pdf"


def test_public_pdfs_are_keyed_by_language_paper_and_results_version(client, cup, layouts,
                                                                      django_capture_on_commit_callbacks):
    for path in ("/t/cup/standings.pdf", "/ar/t/cup/standings.pdf", "/t/cup/standings.pdf?paper=letter",
                 "/t/cup/standings.pdf?paper=nonsense&x=1"):
        assert client.get(path).status_code == 200
    assert layouts == [("print/standings.html", "a4"), ("print/standings.html", "a4"),
                       ("print/standings.html", "letter")]  # an unknown paper is the usual one
    with django_capture_on_commit_callbacks(execute=True):
        play(cup["game"].tables.order_by("number").first(), [10, 8, 6, 4], cup["referee"])
    assert client.get("/t/cup/standings.pdf").status_code == 200
    assert len(layouts) == 4  # new results, laid out again


def test_no_pdf_of_a_game_not_published_is_laid_out_or_kept(client, cup, layouts):
    assert client.get("/t/cup/games/7/seating.pdf").status_code == 404
    assert client.get("/t/nowhere/standings.pdf").status_code == 404
    assert layouts == []


def test_the_organizers_pdf_is_laid_out_once_per_content_and_never_shown_to_others(
        client, cup, layouts, django_capture_on_commit_callbacks):
    organizer = make_official(cup["t"], "organizer")
    path = "/organize/cup/print/games/1/record-sheets.pdf"
    assert client.get(path).status_code == 302  # signed out: the sign-in page, no PDF
    client.force_login(make_official(cup["t"], "referee"))
    assert client.get(path).status_code in (403, 404)
    client.force_login(organizer)
    first, again = client.get(path), client.get(path)
    assert first.content == again.content and len(layouts) == 1
    Game.objects.filter(pk=cup["game"].pk).update(status=Game.Status.PLANNED)
    with django_capture_on_commit_callbacks(execute=True):
        swap_seats(cup["game"].pk, cup["entries"][0].pk, cup["entries"][4].pk, user=organizer)
    assert client.get(path).content != first.content and len(layouts) == 2  # the same results version, new seats
    client.logout()
    assert client.get(path).status_code == 302


def test_two_requests_for_one_missing_pdf_lay_it_out_once(monkeypatch):
    monkeypatch.setattr(pdf_cache, "POLL_SECONDS", 0.01)
    key = pdf_cache.pdf_key("test", ["one"])
    assert cache.add(key + ":layout", 1)  # another request is laying it out

    def the_other_finishes():
        time.sleep(0.1)
        cache.set(key, b"%PDF- laid out by the other")

    other = threading.Thread(target=the_other_finishes)
    other.start()
    laid_out = []
    assert pdf_cache.cached_pdf(key, lambda: laid_out.append(1) or b"%PDF- mine") == b"%PDF- laid out by the other"
    other.join()
    assert laid_out == []


def test_a_layout_that_never_comes_is_done_by_the_waiting_request(monkeypatch):
    monkeypatch.setattr(pdf_cache, "WAIT_SECONDS", 0.05)
    monkeypatch.setattr(pdf_cache, "POLL_SECONDS", 0.01)
    key = pdf_cache.pdf_key("test", ["two"])
    cache.add(key + ":layout", 1)  # its process was killed mid-layout
    assert pdf_cache.cached_pdf(key, lambda: b"%PDF- mine") == b"%PDF- mine"
    assert cache.get(key) == b"%PDF- mine"
