"""The organizer's seating and results downloads: content, order, and cells a spreadsheet would run as formulas."""
import csv
import io

import pytest
from django.urls import reverse

from results.publishing import publish_game
from scheduling import services
from scheduling.models import Game, Seat
from tests.factories import make_admin, make_entries, make_official, make_player, make_tournament, play

pytestmark = pytest.mark.django_db


def read(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


@pytest.fixture
def tournament():
    tournament = make_tournament(slug="export-cup", games=2)
    make_entries(tournament, 11)
    evil = make_player("=HYPERLINK(\"http://x\",\"1\")", country="FR")
    tournament.entries.create(player=evil)
    make_official(tournament, "referee")
    services.generate_seating(tournament.stages.get().pk, user=make_admin(), seed=3)
    return tournament


def test_seating_csv_lists_every_seat_in_order_and_escapes_formulas(client, tournament):
    stage = tournament.stages.get()
    client.force_login(make_official(tournament, "organizer"))
    url = reverse("stage-seating-csv", args=[tournament.slug, stage.pk])
    rows = read(client.get(url))
    assert rows[0] == ["game", "table", "position", "player", "country"]
    body = rows[1:]
    assert len(body) == 24 and [r[:3] for r in body] == sorted((r[:3] for r in body), key=lambda r: tuple(map(int, r)))
    seat = Seat.objects.select_related("entry__player__country", "table").filter(game__number=2).exclude(
        entry__player__name__startswith="=").last()
    assert ["2", str(seat.table.number), str(seat.position), seat.entry.player.name, "AE"] in body
    assert sum(1 for r in body if r[3] == "'=HYPERLINK(\"http://x\",\"1\")" and r[4] == "FR") == 2
    assert not any(r[3].startswith("=") for r in body)
    one_game = read(client.get(url, {"game": 2}))[1:]
    assert len(one_game) == 12 and {r[0] for r in one_game} == {"2"}


def test_results_csv_has_vp_winner_place_and_sign_off(client, tournament):
    organizer = make_official(tournament, "organizer")
    game = Game.objects.get(tournament=tournament, number=1)
    publish_game(game.pk, user=organizer)
    first = game.tables.get(number=1)
    play(first, [10, 7, 7, 4], organizer)
    client.force_login(organizer)
    rows = read(client.get(reverse("organize-results-csv", args=[tournament.slug])))
    assert rows[0] == ["game", "table", "position", "player", "vp", "winner", "place", "signed_off_at"]
    body = rows[1:]
    assert len(body) == 12  # game 1 only: game 2 is not published
    signed = [r for r in body if r[1] == "1"]
    names = [s.entry.player.name for s in first.seats.select_related("entry__player").order_by("position")]
    expected_names = ["'" + n if n.startswith("=") else n for n in names]
    assert [r[3] for r in signed] == expected_names
    assert [(r[4], r[5], r[6]) for r in signed] == [("10", "true", "1"), ("7", "false", "2"), ("7", "false", "2"),
                                                     ("4", "false", "4")]
    assert all(r[7] and r[7][:4].isdigit() for r in signed)
    waiting = [r for r in body if r[1] != "1"]
    assert waiting and all(r[4:] == ["", "false", "", ""] for r in waiting)  # not entered, no place, not signed off
    assert not any(r[3].startswith("=") for r in body)


def test_exports_are_for_the_tournaments_organizers_only(client, tournament):
    client.force_login(make_official(tournament, "referee"))
    assert client.get(reverse("organize-results-csv", args=[tournament.slug])).status_code == 403
    stage = tournament.stages.get()
    assert client.get(reverse("stage-seating-csv", args=[tournament.slug, stage.pk])).status_code == 403
