"""Issue 36 item 5: the player's phone shows their table with the game's map-study countdown and the table's timed
turns as the tablet and the projector do, and refreshes that part on its own when the tournament changes."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from championships import links
from ranking.standings import results_version
from scheduling.clocks import change_clock, set_timed_turns
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    """A world-championship qualifier being played: game 1 published at two tables."""
    tournament = make_tournament(slug="worlds", name="Worlds", ruleset="cwc-2025", status="running",
                                 date=timezone.localdate())
    entries = make_entries(tournament, 8)
    referee = make_official(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(tournament, [entries[:4], entries[4:]])
    return tournament, entries, referee, game


def seat_part(client, token: str, slug: str = "worlds") -> str:
    response = client.get(f"/me/{token}/t/{slug}/seat/")
    assert response.status_code == 200
    assert "no-store" in response.headers["Cache-Control"]  # it names a token: never kept anywhere
    return response.content.decode()


def test_the_page_follows_the_tournament_s_version_and_refreshes_the_seat_on_its_own(client, world):
    tournament, entries, _, _ = world
    token = links.issue(entries[0].player)
    page = client.get(f"/me/{token}/").content.decode()
    live = re.search(r'<div id="live"[^>]*data-live-url="([^"]+)"[^>]*data-live-version="([^"]*)"', page)
    assert live and live.group(1) == "/t/worlds/version/" and live.group(2)
    region = re.search(r'data-live-region hx-get="([^"]+)" hx-trigger="results-changed"', page)
    assert region and region.group(1) == f"/me/{token}/t/worlds/seat/"
    assert "js/live.js" in page and "js/clock.js" in page
    assert "Game 1: table 1" in seat_part(client, token)


def test_the_map_study_countdown_and_the_timed_turns_reach_the_phone(client, world, django_capture_on_commit_callbacks):
    tournament, entries, referee, game = world
    token = links.issue(entries[0].player)
    assert "data-study-clock" not in seat_part(client, token)  # not started: nothing to count yet
    before = results_version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        change_clock(game.pk, "start", user=referee)
    after_clock = results_version(tournament.pk)
    assert after_clock != before  # the phone's poll sees a new version and asks for its seat again
    part = seat_part(client, token)
    ends = re.search(r'data-study-clock data-state="running" data-server-now-ms="\d+" data-ends-at-ms="(\d+)"', part)
    assert ends and int(ends.group(1)) > timezone.now().timestamp() * 1000
    assert "Timed turns at your table" not in part
    table = game.tables.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        set_timed_turns(table.pk, True, user=referee, seconds=90, placement_seconds=45)
    assert results_version(tournament.pk) != after_clock
    part = seat_part(client, token)
    assert "Timed turns at your table" in part and '<span dir="ltr">1:30</span>' in part
    assert '<span dir="ltr">0:45</span>' in part
    other_table = seat_part(client, links.issue(entries[4].player))  # table 2 plays untimed
    assert "Game 1: table 2" in other_table and "Timed turns at your table" not in other_table


def test_the_seat_part_opens_only_the_player_s_own_tournament(client, world):
    tournament, entries, _, _ = world
    elsewhere = make_tournament(slug="elsewhere", name="Elsewhere", status="running")
    stranger = make_entries(elsewhere, 1)[0]
    token = links.issue(stranger.player)
    assert client.get(f"/me/{token}/t/worlds/seat/").status_code == 404
    assert client.get(f"/me/{token}/t/no-such-place/seat/").status_code == 404
    assert client.get(f"/me/{'x' * 43}/t/worlds/seat/").status_code == 404
    assert client.post(f"/me/{links.issue(entries[0].player)}/t/worlds/seat/").status_code == 405


def test_the_seat_part_costs_a_fixed_handful_of_queries(client, world):
    _, entries, _, _ = world
    token = links.issue(entries[0].player)
    seat_part(client, token)
    with CaptureQueriesContext(connection) as queries:
        seat_part(client, token)
    assert len(queries) <= 16, [q["sql"] for q in queries]
