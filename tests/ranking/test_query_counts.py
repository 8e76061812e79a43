"""Pages the day depends on take a fixed number of queries, however many tables a game has."""
import pytest
from django.urls import reverse

from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = pytest.mark.django_db
MAX_EMBED_QUERIES = 15
"""The embed: the standings, the current game and a search, each in the queries its own page takes."""


def event(tables: int):
    tournament = make_tournament(slug=f"q{tables}")
    entries = make_entries(tournament, 4 * tables)
    make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)])
    return tournament


@pytest.mark.parametrize("tables", [2, 12])
def test_desk_queries_do_not_grow_with_tables(client, tables, django_assert_max_num_queries):
    tournament = event(tables)
    client.force_login(make_official(tournament))
    with django_assert_max_num_queries(10):
        assert client.get(reverse("referee-desk", kwargs={"slug": tournament.slug})).status_code == 200


@pytest.mark.parametrize("tables", [2, 12])
def test_seating_api_queries_do_not_grow_with_tables(client, tables, django_assert_max_num_queries):
    tournament = event(tables)
    with django_assert_max_num_queries(5):
        assert client.get(f"/api/tournaments/{tournament.slug}/games/1/seating/").status_code == 200


@pytest.mark.parametrize("tables", [2, 12])
def test_public_standings_page_queries_do_not_grow_with_players(client, tables, django_assert_max_num_queries):
    tournament = event(tables)
    with django_assert_max_num_queries(9):
        assert client.get(f"/t/{tournament.slug}/standings/").status_code == 200


@pytest.mark.parametrize("tables", [2, 12])
def test_embed_queries_do_not_grow_with_players(client, tables, django_assert_max_num_queries):
    """The embed for other websites, a search included: standings, the current game and "where do I sit?"."""
    tournament = event(tables)
    with django_assert_max_num_queries(MAX_EMBED_QUERIES):
        assert client.get(f"/t/{tournament.slug}/embed/?q=player").status_code == 200
