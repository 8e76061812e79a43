"""The public PDFs: standings with tiebreak values and the qualification line, a game's seating; 404 unpublished."""
import re

import pytest
from django.test import Client

from championships.models import Player
from scheduling.models import Game
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


def _named(entries, names):
    for entry, name in zip(entries, names):
        Player.objects.filter(pk=entry.player_id).update(name=name)


@pytest.fixture
def played():
    tournament = make_tournament(slug="print-open", games=3)
    entries = make_entries(tournament, 8)
    _named(entries, ["Zoe Adams", "Yann Brel", "Xavier Cole", "Wanda Diaz",
                     "Vera Eng", "Uma Fox", "Tom Gray", "Sara Hill"])
    game = make_game(tournament, [entries[:4], entries[4:]])
    referee = make_official(tournament, "referee")
    first, second = game.tables.order_by("number")
    play(first, [10, 8, 6, 4], referee)
    play(second, [7, 10, 5, 3], referee)
    return tournament, game


def test_standings_pdf_lists_every_player_with_the_vp_share(played, text_of):
    tournament, _game = played
    response = Client().get(f"/t/{tournament.slug}/standings.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = text_of(response.content)
    for name in ("Zoe Adams", "Uma Fox", "Sara Hill"):
        assert name in text
    # Zoe: 10 of a table total of 28 -> 35.71 %; Uma: 10 of 25 -> 40.00 %
    assert "35.71" in text and "40.00" in text
    lines = [line for line in text.splitlines() if "Uma Fox" in line or "Zoe Adams" in line]
    assert "Uma Fox" in lines[0]  # both 1 win, 10 VP: the higher VP share ranks first


def test_seating_pdf_by_table_and_alphabetically(played, text_of):
    tournament, game = played
    response = Client().get(f"/t/{tournament.slug}/games/{game.number}/seating.pdf?paper=letter")
    assert response.status_code == 200
    text = text_of(response.content, "-raw")
    assert "Table 1" in text and "Table 2" in text
    by_table, alphabetical = text.split("find your table")
    assert by_table.index("Zoe Adams") < by_table.index("Yann Brel") < by_table.index("Vera Eng")
    # each line: the table, the play order, then the name (numbers first, lined up: ranking/printing.py)
    rows = [line.split(" ", 2) for line in alphabetical.splitlines() if re.fullmatch(r"\d+ \d+ .+", line)]
    assert [row[2] for row in rows] == ["Sara Hill", "Tom Gray", "Uma Fox", "Vera Eng", "Wanda Diaz",
                                        "Xavier Cole", "Yann Brel", "Zoe Adams"]
    assert rows[0][:2] == ["2", "4"] and rows[-1][:2] == ["1", "1"]  # (table, play order)


def test_seating_pdf_of_an_unpublished_or_unknown_game_is_404(played):
    tournament, game = played
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLANNED)
    assert Client().get(f"/t/{tournament.slug}/games/{game.number}/seating.pdf").status_code == 404
    assert Client().get(f"/t/{tournament.slug}/games/9/seating.pdf").status_code == 404
    assert Client().get("/t/no-such-event/standings.pdf").status_code == 404


def test_arabic_standings_and_seating(text_of):
    tournament = make_tournament(slug="print-arabic", games=3, name="بطولة دبي")
    entries = make_entries(tournament, 4)
    _named(entries, ["أحمد سالم", "فاطمة علي", "خالد يوسف", "مريم حسن"])
    game = make_game(tournament, [entries])
    play(game.tables.get(), [10, 8, 6, 4], make_official(tournament, "referee"))
    standings = text_of(Client().get(f"/ar/t/{tournament.slug}/standings.pdf").content)
    seating = text_of(Client().get(f"/ar/t/{tournament.slug}/games/1/seating.pdf").content)
    for text in (standings, seating):
        for name in ("أحمد سالم", "فاطمة علي", "بطولة دبي"):
            assert name in text, f"{name} not found in logical order in:\n{text}"


def test_seating_pdf_numbers_namesakes_as_the_pages_do(text_of):
    """Two players of one name find their own seat: the same number beside each, by table and by name."""
    tournament = make_tournament(slug="print-twins", games=1)
    entries = make_entries(tournament, 8)
    _named(entries, ["Ann Lee", "Bo Ray", "Cy Dunn", "Di Fox", "ann lee", "Ed Gale", "Flo Hart", "Gus Ives"])
    game = make_game(tournament, [entries[:4], entries[4:]])
    text = text_of(Client().get(f"/t/{tournament.slug}/games/{game.number}/seating.pdf").content, "-raw")
    by_table, by_name = text.split("find your table")
    assert "Ann Lee (1)" in by_table and "ann lee (2)" in by_table and "Bo Ray (" not in by_table
    rows = [line.split(" ", 2) for line in by_name.splitlines() if re.fullmatch(r"\d+ \d+ .+", line)]
    assert ["1", "1", "Ann Lee (1)"] in rows and ["2", "1", "ann lee (2)"] in rows
