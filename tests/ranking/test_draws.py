"""The card draw screen names who chooses who draws first (seed 001 §4)."""
from datetime import date

import pytest
from django.urls import reverse

from championships.models import Entry
from results.draws import youngest_chooses
from tests.factories import make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db


def tied(tournament, births):
    """Entries without results: everyone is tied at rank 1."""
    return [Entry.objects.create(tournament=tournament, player=make_player(name, born=born))
            for name, born in births]


def draws_page(client, tournament) -> str:
    client.force_login(make_official(tournament))
    response = client.get(reverse("referee-draws", kwargs={"slug": tournament.slug}))
    assert response.status_code == 200
    return response.content.decode()


def test_the_draw_screen_names_the_youngest_tied_player_before_the_draw(client):
    """001 §4: "the youngest player will get to decide if he/she wishes to start drawing" or the opponent starts."""
    tournament = make_tournament(slug="draw-youngest", advance_count=1)
    tied(tournament, [("Rania Older", date(1980, 5, 2)), ("Omar Youngest", date(2003, 9, 14)),
                      ("Lina Middle", date(1995, 1, 30))])
    html = draws_page(client, tournament)
    assert "Card draw: the youngest, <bdi>Omar Youngest</bdi> (born Sept. 14, 2003), chooses who draws first." in html
    assert html.index("chooses who draws first") < html.index("Record the draw")  # before the result is recorded


def test_the_draw_screen_says_when_a_birth_date_is_missing(client):
    """001 §4 needs the youngest; without a recorded date of birth the screen says so instead of guessing."""
    tournament = make_tournament(slug="draw-missing", advance_count=1)
    tied(tournament, [("Known Karim", date(2001, 2, 3)), ("Unknown Ursula", None)])
    html = draws_page(client, tournament)
    assert ("Card draw: the youngest chooses who draws first, but no date of birth is recorded for "
            "<bdi>Unknown Ursula</bdi>: ask their ages before the draw.") in html
    assert "Youngest of those with a recorded date of birth: <bdi>Known Karim</bdi> (born Feb. 3, 2001)." in html
    assert "Card draw: the youngest, <bdi>" not in html


def test_players_born_the_same_day_are_both_named_and_the_referee_decides():
    """001 §4 does not say what happens when two tied players are equally young; §7: the referee has the final say."""
    same_day = date(2000, 6, 6)
    chooser = youngest_chooses([("A", date(1990, 1, 1)), ("B", same_day), ("C", same_day)])
    assert chooser.youngest == ("B", "C") and chooser.born == same_day and not chooser.certain
    assert youngest_chooses([("A", None), ("B", None)]).youngest == ()
    assert youngest_chooses([("A", date(1990, 1, 1)), ("B", date(1999, 1, 1))]).certain
