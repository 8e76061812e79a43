"""The organizer's stage page at scale (bytes, queries, paging, finding a player) and swapping two seats."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.models import AuditEntry
from scheduling import services
from scheduling.models import Game, Seat
from tests.factories import make_entries, make_official, make_tournament

from .crowd import crowd, seat_in_rotation

pytestmark = pytest.mark.django_db


def url(stage, name="stage-seating", **extra):
    return reverse(name, kwargs={"slug": stage.tournament.slug, "stage_id": stage.pk, **extra})


def big_stage(players: int, slug: str):
    tournament = make_tournament(slug=slug, games=4, ruleset="cwc-2025")
    stage = tournament.stages.get()
    seat_in_rotation(stage, crowd(tournament, players))
    return stage


def test_the_stage_page_at_3000_players_is_small_and_reads_in_fixed_queries(client):
    small, large = big_stage(300, "cup-300"), big_stage(3000, "cup-3000")
    counts = {}
    for stage in (small, large):
        client.force_login(make_official(stage.tournament, "organizer"))
        client.get(url(stage))  # the session and the login are warm
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(stage))
        counts[stage.pk] = len(queries)
    html = response.content.decode()
    assert response.status_code == 200 and len(response.content) < 500_000, len(response.content)
    assert counts[small.pk] == counts[large.pk] <= 16, counts
    assert html.count('name="seat"') == 200  # one page of 50 tables of game 1, each seat a box to tick
    assert "701–750" in html and html.count('class="game-tabs"') == 1
    assert "Quality report" in html and "Whom each player meets" not in html  # that is the search's job here


def test_a_large_stage_pages_through_games_and_tables_and_finds_players(client):
    stage = big_stage(300, "cup-pages")
    client.force_login(make_official(stage.tournament, "organizer"))
    html = client.get(url(stage), {"game": 3, "page": 2}).content.decode()
    assert 'id="t3-51"' in html and 'id="t3-75"' in html and 'id="t3-50"' not in html
    found = client.get(url(stage), {"q": "player 00006"}).content.decode()
    seat = Seat.objects.select_related("table").get(game__number=2, entry__player__name="Player 00006")
    page = 1 + (seat.table.number - 1) // 50
    assert f'href="?game=2&amp;page={page}#t2-{seat.table.number}"' in found
    assert f"game 2, seat {seat.table.number}.{seat.position}" in found
    assert "No player’s name contains" in client.get(url(stage), {"q": "nobody"}).content.decode()


@pytest.fixture
def planned():
    tournament = make_tournament(slug="swap-cup", games=2)
    make_entries(tournament, 12)
    organizer = make_official(tournament, "organizer")
    services.generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    return Game.objects.get(tournament=tournament, number=1), organizer


def at(game, table, position):
    return Seat.objects.get(game=game, table__number=table, position=position).entry


def test_two_seats_swap_ticked_or_typed_and_are_audited(client, planned):
    game, organizer = planned
    stage = game.stage
    client.force_login(organizer)
    one, other = at(game, 1, 2), at(game, 3, 4)
    swap = url(stage, "game-swap", game_id=game.pk)
    response = client.post(swap, {"seat": ["1.2"], "second": " 3-4 ", "layout": services.layout_token(game)},
                           follow=True)
    assert "Seats 1.2 and 3.4 swapped in game 1" in response.content.decode()
    assert (at(game, 1, 2), at(game, 3, 4)) == (other, one)
    entry = AuditEntry.objects.get(action="seating.swapped")
    assert entry.user == organizer and entry.after == {one.player.name: [3, 4], other.player.name: [1, 2]}
    typed = client.post(swap, {"first": "١.٢", "second": "٣.٤", "layout": services.layout_token(game)})  # Arabic digits
    assert typed.status_code == 302 and (at(game, 1, 2), at(game, 3, 4)) == (one, other)
    back = client.post(swap, {"seat": ["1.1", "2.1"], "layout": services.layout_token(game),
                              "next": f"{url(stage)}?game=1&page=1"})
    assert back["Location"] == f"{url(stage)}?game=1&page=1"  # back where the organizer was
    elsewhere = client.post(swap, {"seat": ["1.1"], "layout": "x", "next": "https://evil.example/"})
    assert elsewhere["Location"] == url(stage)


@pytest.mark.parametrize("data, message", [
    ({"seat": ["1.1", "1.2", "2.1"]}, "Pick exactly two seats to swap (you picked 3)"),
    ({"seat": ["1.1"]}, "Pick exactly two seats to swap (you picked 1)"),
    ({"seat": ["1.1"], "first": "1.1"}, "Pick two different seats"),
    ({"first": "table one", "second": "1.1"}, "is not a seat"),
    ({"first": "9.1", "second": "1.1"}, "Game 1 has no seat 9.1"),
])
def test_a_wrong_pick_is_a_message_and_swaps_nothing(client, planned, data, message):
    game, organizer = planned
    client.force_login(organizer)
    before = list(Seat.objects.filter(game=game).order_by("table__number", "position").values_list("entry_id"))
    response = client.post(url(game.stage, "game-swap", game_id=game.pk),
                           {**data, "layout": services.layout_token(game)}, follow=True)
    assert message in response.content.decode()
    assert list(Seat.objects.filter(game=game).order_by("table__number", "position").values_list("entry_id")) == before
    assert not AuditEntry.objects.filter(action="seating.swapped").exists()


@pytest.mark.parametrize("role", ["referee", None])
def test_only_organizers_swap(client, planned, role):
    game, _organizer = planned
    user = make_official(game.tournament, role) if role else make_official(make_tournament(), "organizer")
    client.force_login(user)
    before = at(game, 1, 1)
    response = client.post(url(game.stage, "game-swap", game_id=game.pk),
                           {"seat": ["1.1", "2.1"], "layout": services.layout_token(game)})
    assert response.status_code == 403 and at(game, 1, 1) == before
    assert not AuditEntry.objects.filter(action="seating.swapped").exists()
