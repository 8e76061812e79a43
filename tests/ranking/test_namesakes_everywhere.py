"""Two players with one name are told apart by the same number in every list a player reads to find their seat
(the game's seating, "where do I sit?", player pages, the API), on their own page and at the check-in desk."""
from datetime import date

import pytest
from django.utils import translation
from django.utils.translation import gettext

from championships import links
from championships.models import Entry
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def twins():
    tournament = make_tournament(slug="twins", status="running")
    first = Entry.objects.create(tournament=tournament, player=make_player("Ann Lee", email="ann1@example.org"))
    second = Entry.objects.create(tournament=tournament, player=make_player(
        "ann  lee", email="ann2@example.org", born=date(1985, 5, 5)))
    others = make_entries(tournament, 6)
    make_game(tournament, [[first, *others[:3]], [second, *others[3:]]])
    return tournament, first, second


def test_the_seating_the_search_and_the_player_pages_number_namesakes_alike(client, twins):
    tournament, first, second = twins
    seating = client.get("/t/twins/games/1/").content.decode()
    assert "Ann Lee</bdi> <small class=\"muted\">(1)</small></a>" in seating  # beside the name, in its link
    assert "ann  lee</bdi> <small class=\"muted\">(2)</small></a>" in seating
    assert "1985" not in seating and "ann2@" not in seating
    found = client.get("/t/twins/where/", {"q": "ann lee"}).content.decode()
    assert found.count("<small class=\"muted\">(1)</small>") == 1 and found.count("(2)</small>") == 1
    page = client.get(f"/t/twins/players/{second.player_id}/").content.decode()
    assert "<h1><bdi>ann  lee</bdi> <small class=\"muted\">(2)</small></h1>" in page
    alone = make_entries(tournament, 1)[0]
    assert "<small class=\"muted\">" not in client.get(f"/t/twins/players/{alone.player_id}/").content.decode()


def test_the_api_names_an_opponents_namesake_number(client, twins):
    tournament, first, second = twins
    tablemate = tournament.games.get().tables.get(number=1).seats.get(position=2).entry
    games = client.get(f"/api/v1/tournaments/twins/players/{tablemate.player_id}/").json()["games"]
    assert [(o["player"], o["namesake"]) for o in games[0]["opponents"]][0] == ("Ann Lee", 1)
    assert {o["namesake"] for o in games[0]["opponents"][1:]} == {None}


def test_a_player_reads_their_number_on_their_own_page(client, twins):
    tournament, first, second = twins
    with translation.override("en"):
        told = gettext("Another player shares your name: the lists show you as <bdi>%(name)s</bdi> (%(n)s).")
    page = client.get(f"/me/{links.issue(second.player)}/").content.decode()
    assert told % {"name": "ann  lee", "n": 2} in page
    page = client.get(f"/me/{links.issue(make_entries(tournament, 1)[0].player)}/").content.decode()
    assert "Another player shares your name" not in page


def test_the_check_in_desk_tells_the_player_their_number(client, twins):
    tournament, first, second = twins
    client.force_login(make_official(tournament, "organizer"))
    desk = client.get("/organize/twins/check-in/").content.decode()
    assert "<bdi>Ann Lee</bdi> (1)" in desk and "<bdi>ann  lee</bdi> (2)" in desk
    row = client.get("/organize/twins/check-in/", {"q": "ann"}, headers={"HX-Request": "true"}).content.decode()
    assert "<bdi>ann  lee</bdi> (2)" in row


def test_the_projector_numbers_namesakes_in_find_your_table(client, twins):
    screen = client.get("/t/twins/screen/").content.decode()
    assert '<bdi class="screen-name">Ann Lee</bdi> (1)' in screen
    assert '<bdi class="screen-name">ann  lee</bdi> (2)' in screen
