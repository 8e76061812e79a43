"""Issue 36 item 4: a call that pauses the game (a rules dispute, a player stepping away: 004 §1.2.2, §2.1.6) shows
on the table's record sheet, in its history, from the call until it is resolved; other calls pause nothing."""
import datetime

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from calls.models import Call
from calls.selectors import table_pauses
from calls.services import place_call, resolve_call, take_call
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    cache.clear()  # the calls' rate limit
    tournament = make_tournament(slug="paused-cup")
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    return tournament, entries, game.tables.get(), make_official(tournament, username="pause-referee")


def sheet_page(tournament, table, referee) -> str:
    client = Client()
    client.force_login(referee)
    response = client.get(f"/referee/{tournament.slug}/tables/{table.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_stepping_away_pauses_the_game_until_the_call_is_resolved(table):
    tournament, entries, table, referee = table
    place_call(table.pk, "pieces", player=entries[1].player)  # a missing piece: play goes on
    call = place_call(table.pk, "step_away", "Back in five", player=entries[0].player)
    started = timezone.localtime(call.placed_at).strftime("%H:%M")
    [pause] = table_pauses(table.pk)
    assert pause.ended_at is None and pause.minutes is None
    page = sheet_page(tournament, table, referee)
    assert f"Paused since {started}" in page and "A player must step away" in page
    Call.objects.filter(pk=call.pk).update(placed_at=call.placed_at - datetime.timedelta(minutes=7))
    take_call(call.pk, user=referee)
    resolve_call(call.pk, "Resumed", user=referee)
    [pause] = table_pauses(table.pk)
    assert pause.minutes == 7
    start = timezone.localtime(pause.started_at).strftime("%H:%M")
    end = timezone.localtime(pause.ended_at).strftime("%H:%M")
    assert f"Paused {start}–{end} (7 minutes)" in sheet_page(tournament, table, referee)


def test_the_queue_says_which_calls_hold_the_game(table):
    tournament, entries, table, referee = table
    place_call(table.pk, "rules", player=entries[0].player)
    place_call(table.pk, "dice_log", player=entries[1].player)
    client = Client()
    client.force_login(referee)
    page = client.get(f"/referee/{tournament.slug}/calls/").content.decode()
    assert page.count("The game is paused") == 1
    assert table_pauses(table.pk)[0].reason == "A rules question or dispute"
