"""A tournament decided by a final table says so wherever its standings show, with the final's result, and its
certificates count the games the place was decided by (issue 20 item 4; docs/rules.md I-7, I-33).

Seed 001 §3 (Jordan): "After 3 games … the top 4 players will play a final game"; the winner of the last game is
the champion, whatever the earlier games gave them. Seed 004 §1.3.4: "ordering places 1-4 in order of finish at
the Final table".
"""
import csv
import io

import pytest

from championships.services import create_championship_from_preset, enter_player
from ranking.qualification import seat_seeded_stage
from results.publishing import publish_game
from tests.factories import make_admin, make_game, make_official, make_player, play
from tests.printing.conftest import pdf_text

pytestmark = pytest.mark.django_db


GAMES = [  # (tables of players by number, VP in play order)
    ([[0, 1, 2, 3], [4, 5, 6, 7]], [[10, 9, 6, 4], [10, 8, 5, 3]]),
    ([[0, 4, 1, 5], [2, 6, 3, 7]], [[10, 7, 6, 9], [10, 8, 6, 4]]),
    ([[0, 5, 2, 7], [1, 4, 3, 6]], [[7, 9, 10, 5], [6, 10, 7, 8]]),
]


@pytest.fixture
def finals(django_capture_on_commit_callbacks):
    """A Jordan finals of 8 over 3 games: F4, F0 and F2 win two each, F5 none (26 VP, 4th). The top 4 play the
    final table (game 4), which F5 wins with 10 VP; F0 is 2nd with 9."""
    admin = make_admin()
    tournament = create_championship_from_preset("jordan-2022", user=admin).tournaments.get()
    referee = make_official(tournament)
    entries = [enter_player(make_player(f"F{i}"), tournament, user=admin) for i in range(8)]
    with django_capture_on_commit_callbacks(execute=True):
        for number, (tables, scores) in enumerate(GAMES, start=1):
            game = make_game(tournament, [[entries[i] for i in table] for table in tables], number=number,
                             stage=tournament.stages.get(kind="preliminary"))
            for table, vps in zip(game.tables.order_by("number"), scores):
                play(table, vps, referee)
        final = seat_seeded_stage(tournament.stages.get(kind="final").pk, user=admin)
        publish_game(final.pk, user=admin)
        table = final.tables.get()
        vps = {entries[4].pk: 7, entries[0].pk: 9, entries[2].pk: 6, entries[5].pk: 10}
        play(table, [vps[e] for e in table.seats.order_by("position").values_list("entry_id", flat=True)], referee)
    return tournament, entries


def test_the_public_standings_say_the_final_table_decides_places_1_to_4_and_show_its_result(client, finals):
    tournament, entries = finals
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "Places 1–4 are decided by the final table (game 4), in its order of finish." in page
    assert "The other columns count games 1–3 only." in page
    rows = page.split('<tbody id="standings-rows">')[1].split("</tr>")
    assert "F5" in rows[0] and "winner" in rows[0] and "10 VP" in rows[0]  # rank 1 with no win in game 1
    assert "F0" in rows[1] and "place 2" in rows[1] and "9 VP" in rows[1]
    assert "F6" in rows[4] and "VP" not in rows[4].split("F6")[1].split("<td")[1]  # no final for rank 5


def test_the_standings_csv_api_and_pdf_carry_the_final_result(client, finals):
    tournament, entries = finals
    lines = list(csv.reader(io.StringIO(client.get(f"/t/{tournament.slug}/standings.csv").content.decode("utf-8-sig"))))
    header = lines[0]
    assert header[:5] == ["rank", "player", "country", "final_place", "final_vp"]
    assert lines[1][:5] == ["1", "F5", "AE", "1", "10"] and lines[5][3:5] == ["", ""]
    rows = client.get(f"/api/tournaments/{tournament.slug}/standings/").json()
    assert rows[0]["final"] == {"game": 4, "place": 1, "vp": 10, "winner": True}
    assert rows[0]["wins"] == 0 and rows[4]["final"] is None
    text = pdf_text(client.get(f"/t/{tournament.slug}/standings.pdf").content)
    assert "Places 1–4 are decided by the final table (game 4)" in " ".join(text.split())
    assert "winner · 10 VP" in text


def test_the_champions_certificate_shows_the_final_and_labels_the_earlier_games(client, finals):
    tournament, entries = finals
    client.force_login(make_admin())
    pages = pdf_text(client.get(f"/organize/{tournament.slug}/print/certificates.pdf").content).split("\f")
    champion = " ".join(pages[0].split())
    assert "F5" in champion and "Champion" in champion
    assert "Decided by the final table (game 4): winner, 10 VP" in champion
    assert "Games 1–3: 0 wins, 26 VP" in champion
    assert "Wins: 0" not in champion
    assert "Decided by the final table (game 4): place 2, 9 VP" in " ".join(pages[1].split())


def test_the_championship_page_names_the_champion_and_the_finals_podium(client, finals):
    tournament, entries = finals
    page = " ".join(client.get(f"/c/{tournament.championship.slug}/").content.decode().split())
    assert "<bdi>F5</bdi>" in page.split('id="champion-heading"')[1].split("</section>")[0]
    podium = page.split('class="podium-list"')[1].split("</ol>")[0]
    assert [row.split("<bdi>")[1].split("</bdi>")[0] for row in podium.split("<li")[1:]] == ["F5", "F0", "F4"]


def test_the_console_podium_shows_the_final_result(client, finals):
    tournament, entries = finals
    client.force_login(make_admin())
    page = " ".join(client.get(f"/organize/{tournament.slug}/").content.decode().split())
    podium = page.split('id="podium"')[1].split("</section>")[0]
    assert "Places 1–4 are decided by the final table (game 4), in its order of finish." in podium
    assert "winner · 10 VP" in podium and "place 2 · 9 VP" in podium
