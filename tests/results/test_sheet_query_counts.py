"""The referee's record sheet takes a fixed number of queries at each step of a table (benchmarks/
bench_referee_sheet.py times them): the banker, the signer's name and the roles are read once, not per use."""
import pytest
from django.urls import reverse

from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = pytest.mark.django_db

SHEET_QUERIES = 11
"""Session, user, table (with its game, tournament and championship), roles twice (may officiate, is
organizer), the sheet with its banker, signatures, scores, revisions, objections, the pauses of its game (calls)."""
SIGN_QUERIES = 16


@pytest.fixture
def table():
    tournament = make_tournament(slug="counted")
    return make_game(tournament, [make_entries(tournament, 4)]).tables.get()


def url(name, table):
    return reverse(name, kwargs={"slug": table.game.tournament.slug, "table_id": table.pk})


def scores(table):
    data = {f"vp_{seat.entry_id}": str(vp) for seat, vp in zip(table.seats.order_by("position"), (10, 7, 5, 3))}
    return {**data, "base_version": "0", "start_time": "10:00", "end_time": "11:20"}


def test_sheet_page_and_signatures_take_a_fixed_number_of_queries(client, table, django_assert_max_num_queries):
    client.force_login(make_official(table.game.tournament))
    with django_assert_max_num_queries(SHEET_QUERIES):
        assert client.get(url("referee-sheet", table)).status_code == 200
    assert client.post(url("referee-scores", table), scores(table)).status_code == 302
    for entry_id in table.seats.values_list("entry_id", flat=True):
        with django_assert_max_num_queries(SIGN_QUERIES):
            response = client.post(url("referee-sign", table), {"entry": entry_id, "version": 1, "method": "tap"})
        assert response.status_code == 302
        with django_assert_max_num_queries(SHEET_QUERIES):
            assert client.get(url("referee-sheet", table)).status_code == 200
    assert client.post(url("referee-sign-off", table), {"version": 1}).status_code == 302
    with django_assert_max_num_queries(SHEET_QUERIES):  # the banker is now recorded: read with the sheet
        page = client.get(url("referee-sheet", table))
    assert "locked-banner" in page.content.decode()
