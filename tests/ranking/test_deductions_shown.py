"""Issue 32 item 6: a VP deduction was invisible to the public. The standings page, its CSV and XLSX, API v1 and
the player's pages showed the total VP after it with nothing saying one was taken. Each now shows it: a column
while any player has one, the field `vp_deducted` (in the schema too), and on the player's pages what for."""
import csv
import io
from datetime import time

import pytest
from openpyxl import load_workbook

from attendance import checkin
from championships import links
from results.models import Penalty
from results.penalties import record_penalty, withdraw_penalty
from tests.api.test_v1 import checked, spec  # noqa: F401 - the fixture
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def late():
    """A national qualifier of 8 (001 §6): the fourth player checked in 9 minutes late, 1 VP off; game 1 played."""
    tournament = make_tournament(slug="late-cup", name="Late Cup")
    entries = make_entries(tournament, 8)
    organizer = make_official(tournament, "organizer")
    for n, entry in enumerate(entries):
        checkin.check_in(tournament, entry.pk, user=organizer, minutes_late=9 if n == 3 else 0)
    game = make_game(tournament, [entries[:4], entries[4:]])
    play(game.tables.get(number=1), [10, 8, 6, 4], organizer)
    play(game.tables.get(number=2), [10, 8, 6, 4], organizer)
    return tournament, entries, organizer


def test_the_standings_page_and_its_downloads_show_the_deduction(client, late):
    tournament, entries, organizer = late
    html = client.get("/t/late-cup/standings/").content.decode()
    header = html[html.index("<thead>"):html.index("</thead>")]
    assert header.index("Total VP") < header.index("VP deducted")
    row = next(r for r in html.split("<tr") if f"/players/{entries[3].player_id}/" in r)
    assert 'data-label="VP deducted"><span class="nowrap">1</span>' in row  # 4 on the sheet, 3 in the total

    rows = list(csv.reader(io.StringIO(client.get("/t/late-cup/standings.csv").content.decode("utf-8-sig"))))
    assert rows[0][rows[0].index("total_vp") + 1] == "vp_deducted"
    by_player = {r[1]: dict(zip(rows[0], r)) for r in rows[1:]}
    assert by_player[entries[3].player.name]["vp_deducted"] == "1"
    assert by_player[entries[3].player.name]["total_vp"] == "3"
    assert by_player[entries[0].player.name]["vp_deducted"] == "0"
    sheet = load_workbook(io.BytesIO(client.get("/t/late-cup/standings.xlsx").content)).active
    cells = list(sheet.values)
    column = cells[0].index("vp_deducted")
    assert next(r for r in cells if r[1] == entries[3].player.name)[column] == 1


def test_no_column_while_nobody_has_a_deduction(client, late):
    tournament, entries, organizer = late
    withdraw_penalty(Penalty.objects.get().pk, user=organizer, reason="The clock at the door was fast")
    assert "VP deducted" not in client.get("/t/late-cup/standings/").content.decode()
    assert "vp_deducted" not in client.get("/t/late-cup/standings.csv").content.decode()


def test_api_v1_gives_the_deduction_as_its_schema_says(client, spec, late):  # noqa: F811
    tournament, entries, organizer = late
    standings = checked(spec, client.get("/api/v1/tournaments/late-cup/standings/"))["results"]
    assert {r["entry"]: r["vp_deducted"] for r in standings}[entries[3].pk] == 1
    assert {r["vp_deducted"] for r in standings if r["entry"] != entries[3].pk} == {0}
    assert client.get("/api/tournaments/late-cup/standings/").json() == standings  # the old path, extended alike
    player = checked(spec, client.get(f"/api/v1/tournaments/late-cup/players/{entries[3].player_id}/"))
    assert player["standing"]["vp_deducted"] == 1
    assert player["deductions"] == [{"vp": 1, "kind": "lateness", "deduction": "", "reason": "late arrival",
                                     "game": None}]
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert "vp_deducted" in schema["StandingRow"]["properties"] and "deductions" in schema["PlayerOut"]["properties"]


def test_the_players_pages_say_how_many_vp_and_what_for(client, late):
    tournament, entries, organizer = late
    public = client.get(f"/t/late-cup/players/{entries[3].player_id}/").content.decode()
    summary = public[public.index("player-summary"):public.index("</dl>", public.index("player-summary"))]
    assert "VP deducted" in summary and "1 (late arrival)" in summary
    own = client.get(f"/me/{links.issue(entries[3].player)}/").content.decode()
    summary = own[own.index("own-summary"):own.index("</dl>", own.index("own-summary"))]
    assert "VP deducted" in summary and "1 (late arrival)" in summary
    clean = client.get(f"/t/late-cup/players/{entries[0].player_id}/").content.decode()
    assert "VP deducted" not in clean


def test_a_named_deduction_shows_its_name_and_game(client):
    """Lord of Catan's 2 points for arguing a ruling (003): the page names the deduction, never the referee's note."""
    tournament = make_tournament(slug="loc-cup", ruleset="lord-of-catan")
    entries = make_entries(tournament, 4)
    referee = make_official(tournament)
    game = make_game(tournament, [entries])
    play(game.tables.get(), [10, 8, 6, 4], referee, time(10), time(11))
    record_penalty(entries[1].pk, user=referee, kind=Penalty.Kind.VP_DEDUCTION, vp=2, deduction="arguing",
                   game=game, reason="Shouted at the referee")
    public = client.get(f"/t/loc-cup/players/{entries[1].player_id}/").content.decode()
    assert "2 (arguing against a ruling, game 1)" in public and "Shouted" not in public
