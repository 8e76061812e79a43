"""Concurrent PDF layouts are limited (issue 22 item 4, `core/pdf_limits.py`): past a client's slots, or past the
anonymous readers' slots of the whole deployment, a PDF that has to be laid out answers 429 with Retry-After and
a page saying why; a PDF already in the cache is served whatever the slots; signed-in staff never wait for
anonymous readers' slots."""
from contextlib import ExitStack

import pytest
from django.test import Client

from core.pdf_limits import ANONYMOUS, PER_CLIENT
from core.ratelimit import Busy, ConcurrencyLimit
from ranking import printing as public_printing
from tests.factories import make_entries, make_game, make_official, make_tournament, play
from web.organize.views import printing as organizer_printing

pytestmark = pytest.mark.django_db

READER = "address:127.0.0.1"
"""The test client's key (REMOTE_ADDR 127.0.0.1, no proxy)."""


@pytest.fixture
def layouts(monkeypatch):
    """Every layout counted and skipped (what is laid out does not matter here, whether it is)."""
    laid_out = []

    def fake(template, context, **kwargs):
        laid_out.append(template)
        return b"%PDF-1.7 fake"

    monkeypatch.setattr(public_printing, "render_pdf", fake)
    monkeypatch.setattr(organizer_printing, "render_pdf", fake)
    return laid_out


@pytest.fixture
def cup():
    tournament = make_tournament(slug="busy-cup", games=1)
    game = make_game(tournament, [make_entries(tournament, 4)])
    play(game.tables.get(), [10, 8, 6, 4], make_official(tournament))
    return tournament


def taken(limit: ConcurrencyLimit, key: str, stack: ExitStack) -> None:
    """Every slot of `limit` for `key` held until `stack` closes."""
    for _slot in range(limit.limit):
        stack.enter_context(limit.slot(key))


def all_free(limit: ConcurrencyLimit, key: str) -> bool:
    """Whether every slot of `key` can be taken (none left held)."""
    with ExitStack() as stack:
        try:
            taken(limit, key, stack)
        except Busy:
            return False
    return True


def assert_busy(response, limit: ConcurrencyLimit) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == str(limit.retry_after)
    assert "no-store" in response["Cache-Control"]
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Try again in a moment" in page and f"Try again in {limit.retry_after} seconds." in page
    assert 'href="' + response.wsgi_request.get_full_path() + '"' in page  # the button asks again


def test_a_reader_past_the_anonymous_slots_is_asked_to_come_back_and_a_cached_pdf_is_still_served(cup, layouts):
    address = f"/t/{cup.slug}/standings.pdf"
    with ExitStack() as others:
        taken(ANONYMOUS, "all", others)  # other readers are laying PDFs out
        assert_busy(Client().get(address), ANONYMOUS)
    assert layouts == []

    response = Client().get(address)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert len(layouts) == 1
    assert all_free(ANONYMOUS, "all") and all_free(PER_CLIENT, READER)  # the layout gave its slots back

    with ExitStack() as others:
        taken(ANONYMOUS, "all", others)
        taken(PER_CLIENT, READER, others)
        assert Client().get(address).status_code == 200  # the same results: from the cache, no slot needed
    assert len(layouts) == 1


def test_one_client_past_its_own_slots_does_not_stop_another(cup, layouts):
    address = f"/t/{cup.slug}/games/1/seating.pdf"
    with ExitStack() as own:
        taken(PER_CLIENT, READER, own)  # this reader already has two layouts under way
        assert_busy(Client().get(address), PER_CLIENT)
        assert Client(REMOTE_ADDR="203.0.113.7").get(address).status_code == 200
    assert layouts == ["print/seating.html"]


def test_a_refused_or_failed_layout_holds_no_slot(cup, layouts):
    assert Client().get(f"/t/{cup.slug}/games/9/seating.pdf").status_code == 404  # raised while holding a slot
    assert all_free(ANONYMOUS, "all") and all_free(PER_CLIENT, READER)


def test_staff_are_counted_by_account_not_in_the_anonymous_slots(cup, layouts):
    organizer = make_official(cup, "organizer")
    client = Client()
    client.force_login(organizer)
    address = f"/organize/{cup.slug}/print/games/1/record-sheets.pdf"
    with ExitStack() as readers:
        taken(ANONYMOUS, "all", readers)
        taken(PER_CLIENT, READER, readers)  # readers on the venue's Wi-Fi, the same address
        assert client.get(address).status_code == 200
        assert client.get(f"/t/{cup.slug}/standings.pdf").status_code == 200
    assert layouts == ["print/record_sheets.html", "print/standings.html"]

    with ExitStack() as own:
        taken(PER_CLIENT, f"user:{organizer.pk}", own)
        assert_busy(client.get(f"/organize/{cup.slug}/print/games/1/table-cards.pdf"), PER_CLIENT)


def test_the_busy_page_is_translated(cup, layouts):
    with ExitStack() as others:
        taken(ANONYMOUS, "all", others)
        response = Client().get(f"/ar/t/{cup.slug}/standings.pdf")
    assert response.status_code == 429 and response["Retry-After"] == str(ANONYMOUS.retry_after)
    assert '<html lang="ar" dir="rtl"' in response.content.decode()


def test_without_the_cache_a_layout_goes_ahead(monkeypatch):
    def unavailable(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr("core.ratelimit.cache.add", unavailable)
    with PER_CLIENT.slot(READER), PER_CLIENT.slot(READER), PER_CLIENT.slot(READER):
        pass  # more than its limit: nobody can count, so nobody is refused
