"""The calls' pages: the player's panel on their own page, the referees' queue and the organizer's list; who may
open each, that a player calls only for the table they sit at, and that GET never writes."""
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from calls.models import Call
from calls.services import place_call, take_call
from championships import links
from results.models import Announcement
from tests.factories import make_entries, make_game, make_official, make_tournament
from tests.test_get_never_writes import WRITE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _counts():
    cache.clear()


@pytest.fixture
def cup():
    tournament = make_tournament(slug="call-cup", name="Call Cup")
    entries = make_entries(tournament, 8)
    game = make_game(tournament, [entries[:4], entries[4:]])
    tables = list(game.tables.order_by("number"))
    return tournament, entries, tables


def test_the_player_calls_from_their_page_and_sees_who_is_coming(client, cup):
    tournament, entries, tables = cup
    token = links.issue(entries[0].player)
    page = client.get(f"/me/{token}/").content.decode()
    assert f"/me/{token}/tables/{tables[0].pk}/calls/" in page
    panel = client.get(f"/me/{token}/tables/{tables[0].pk}/calls/")
    assert panel.status_code == 200 and 'maxlength="200"' in panel.content.decode()
    assert "no-store" in panel["Cache-Control"]
    answer = client.post(f"/me/{token}/tables/{tables[0].pk}/call/", {"reason": "pieces", "note": "No blue road"},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Waiting for a referee since" in answer.content.decode()
    call = Call.objects.get()
    assert (call.table, call.placed_by, call.note) == (tables[0], entries[0], "No blue road")
    take_call(call.pk, user=make_official(tournament, username="rita"))
    states = client.get(f"/me/{token}/tables/{tables[0].pk}/calls/?part=states").content.decode()
    assert "A referee is coming" in states and "rita" in states and "<form" not in states


def test_a_player_cannot_call_for_another_table_or_another_championships(client, cup):
    tournament, entries, tables = cup
    token = links.issue(entries[0].player)
    assert client.post(f"/me/{token}/tables/{tables[1].pk}/call/", {"reason": "rules"}).status_code == 404
    assert client.get(f"/me/{token}/tables/{tables[1].pk}/calls/").status_code == 404
    other = make_tournament(slug="other-cup", name="Other Cup")
    stranger = make_entries(other, 4)
    other_table = make_game(other, [stranger]).tables.get()
    assert client.post(f"/me/{token}/tables/{other_table.pk}/call/", {"reason": "rules"}).status_code == 404
    assert not Call.objects.exists()


def test_a_refused_call_keeps_the_form_with_the_reason(client, cup):
    _tournament, entries, tables = cup
    token = links.issue(entries[0].player)
    answer = client.post(f"/me/{token}/tables/{tables[0].pk}/call/", {"reason": "nap", "note": "x" * 201},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 422 and not Call.objects.exists()


def test_nothing_of_a_call_is_on_the_public_pages(client, cup):
    tournament, entries, tables = cup
    place_call(tables[0].pk, "rules", "Secret dispute note", player=entries[0].player)
    for url in ("/t/call-cup/", "/t/call-cup/games/1/", f"/t/call-cup/players/{entries[0].player_id}/"):
        page = client.get(url)
        assert page.status_code == 200 and "Secret dispute note" not in page.content.decode(), url


def test_the_queue_lists_open_calls_oldest_first_and_resolving_announces(client, cup):
    tournament, entries, tables = cup
    late = place_call(tables[1].pk, "cards", "Count the cards", player=entries[4].player)
    first = place_call(tables[0].pk, "rules", player=entries[0].player)
    Call.objects.filter(pk=late.pk).update(placed_at=first.placed_at.replace(year=first.placed_at.year + 1))
    referee = make_official(tournament, username="rita")
    client.force_login(referee)
    queue = client.get("/referee/call-cup/calls/")
    html = queue.content.decode()
    assert queue.status_code == 200 and html.index("Game 1, table 1") < html.index("Game 1, table 2")
    assert "need the network" in html and 'hx-trigger="every 4s"' in html
    assert client.post(f"/referee/call-cup/calls/{first.pk}/take/").status_code == 302
    assert "rita</bdi> is going" in client.get("/referee/call-cup/calls/", HTTP_HX_REQUEST="true").content.decode()
    answer = client.post(f"/referee/call-cup/calls/{first.pk}/",
                         {"resolve": "1", "ruling": "Trades are public.", "then": "announce"})
    assert answer.status_code == 302 and Announcement.objects.get().text.endswith("Trades are public.")
    first.refresh_from_db()
    assert not first.is_open and first.ruling == "Trades are public."


def test_the_queue_is_the_tournaments_officials_alone(client, cup):
    tournament, entries, tables = cup
    call = place_call(tables[0].pk, "rules", player=entries[0].player)
    client.force_login(make_official(make_tournament(slug="elsewhere", name="Elsewhere"), username="stranger"))
    assert client.get("/referee/call-cup/calls/").status_code in (403, 404)
    assert client.post(f"/referee/call-cup/calls/{call.pk}/take/").status_code in (403, 404)
    assert client.post(f"/referee/elsewhere/calls/{call.pk}/take/").status_code == 404
    call.refresh_from_db()
    assert call.taken_by is None


def test_the_organizers_list_and_its_csv_give_the_wait(client, cup):
    tournament, entries, tables = cup
    call = take_call(place_call(tables[0].pk, "rules", player=entries[0].player).pk,
                     user=make_official(tournament, username="rita"))
    client.force_login(make_official(tournament, "organizer"))
    day = timezone.localdate(call.placed_at).isoformat()
    assert "Median wait" in client.get("/organize/call-cup/calls/").content.decode()  # the latest call's day
    page = client.get(f"/organize/call-cup/calls/?day={day}")
    assert page.status_code == 200 and "Median wait" in page.content.decode()
    csv = client.get(f"/organize/call-cup/calls.csv?day={day}").content.decode("utf-8-sig")
    header, row = csv.strip().splitlines()[:2]
    assert header.startswith("placed_at,game,table,reason") and ",1,1,rules," in row and "rita" in row
    xlsx = client.get(f"/organize/call-cup/calls.xlsx?day={day}")
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"


def test_no_calls_page_writes_on_get(client, cup):
    tournament, entries, tables = cup
    call = place_call(tables[0].pk, "rules", player=entries[0].player)
    token = links.issue(entries[0].player)
    client.force_login(make_official(tournament, "organizer"))
    urls = [f"/me/{token}/tables/{tables[0].pk}/calls/", f"/me/{token}/tables/{tables[0].pk}/calls/?part=states",
            "/referee/call-cup/calls/", f"/referee/call-cup/calls/{call.pk}/", "/organize/call-cup/calls/",
            "/organize/call-cup/calls.csv", "/organize/call-cup/calls.xlsx"]
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        assert not [q["sql"] for q in queries if WRITE.match(q["sql"]) and "django_session" not in q["sql"]], url
