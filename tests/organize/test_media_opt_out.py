"""The photo/video opt-out shown wherever staff see a player, so they know whom not to film.

Seed 001 §9: "If, for any reason, a player wishes not to be included in any of the above, he/she should inform
any of the organizers prior to the event and SHN will do its best to try not to take any photos or videos of
such player during the event"; 001 §8 and 004 §2.2.1 count "unwanted photography or video recording" as harassment.
"""
import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from championships.models import Player
from tests.factories import make_entries, make_game, make_official, make_tournament
from tests.printing.conftest import pdf_text

pytestmark = pytest.mark.django_db

MARK = "no photos or videos"


@pytest.fixture
def event():
    tournament = make_tournament(slug="opt-out", games=1)
    entries = make_entries(tournament, 4)
    Player.objects.filter(pk=entries[1].player_id).update(name="Shy Sam", media_opt_out=True)
    Player.objects.filter(pk=entries[0].player_id).update(name="Open Olga")
    game = make_game(tournament, [entries])
    return tournament, game


def signed_in(tournament, role):
    client = Client()
    client.force_login(make_official(tournament, role))
    return client


def test_the_referees_desk_and_sheet_mark_the_player_who_opted_out(event):
    """001 §9: staff try not to photograph or film a player who opted out: the referee sees it at the table."""
    tournament, game = event
    client = signed_in(tournament, "referee")
    desk = client.get(reverse("referee-desk", args=[tournament.slug])).content.decode()
    assert desk.count(MARK) == 1 and desk.index("Shy Sam") < desk.index(MARK)
    sheet = client.get(reverse("referee-sheet", args=[tournament.slug, game.tables.get().pk])).content.decode()
    assert f"<bdi>Shy Sam</bdi></label> <span class=\"no-photo\">{MARK}</span>" in sheet
    assert "Open Olga</bdi></label> <span" not in sheet


def test_the_table_card_marks_the_player_who_opted_out(event):
    """001 §9: the printed table card, where photographers look, says whom not to film."""
    tournament, game = event
    client = signed_in(tournament, "organizer")
    text = pdf_text(client.get(reverse("print-table-cards", args=[tournament.slug, 1])).content, "-raw")
    assert f"Shy Sam ({MARK})" in text and f"Open Olga ({MARK})" not in text


def test_the_organizers_player_list_and_its_csv_show_the_opt_out(event):
    """001 §9: players tell the organizers before the event; the organizer's list (and its CSV) shows the choice."""
    tournament, game = event
    client = signed_in(tournament, "organizer")
    page = client.get(reverse("organize-players", args=[tournament.slug])).content.decode()
    assert page.count(MARK) == 1 and ">Photos and videos</th>" in page
    response = client.get(reverse("organize-players-csv", args=[tournament.slug]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert {row["name"]: row["media_opt_out"] for row in rows if row["name"] in ("Shy Sam", "Open Olga")} == {
        "Shy Sam": "yes", "Open Olga": "no"}
