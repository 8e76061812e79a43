"""The organizer's players page opens on this tournament's entries (issue 20 item 11)."""
import csv
import io

import pytest
from django.urls import reverse

from championships.models import StaffRole
from tests.factories import make_entries, make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_the_players_page_and_its_csv_start_with_this_tournaments_entries(client):
    """On the trial day the list opened on every registered player, so the organizer checked 40 imported players
    among everyone else's. It opens on this tournament's; everyone else is one choice away."""
    tournament = make_tournament()
    entered = [entry.player.name for entry in make_entries(tournament, 2)]
    (other,) = make_entries(make_tournament(championship=tournament.championship), 1)
    elsewhere = other.player.name
    organizer = make_user()
    StaffRole.objects.create(user=organizer, role="organizer", championship=tournament.championship)
    client.force_login(organizer)
    url = reverse("organize-players", args=[tournament.slug])

    page = client.get(url).content.decode()

    assert all(name in page for name in entered) and elsewhere not in page
    assert '<option value="entered" selected>' in page
    everyone = client.get(url, {"only": "all"}).content.decode()
    assert all(name in everyone for name in [*entered, elsewhere])
    assert '<option value="all" selected>' in everyone
    rows = csv.DictReader(io.StringIO(client.get(reverse("organize-players-csv", args=[tournament.slug]))
                                      .content.decode("utf-8-sig")))
    assert sorted(row["name"] for row in rows) == sorted(entered)


def test_an_empty_tournament_says_nobody_is_entered_yet(client):
    tournament = make_tournament()
    make_entries(make_tournament(championship=tournament.championship), 1)
    organizer = make_user()
    StaffRole.objects.create(user=organizer, role="organizer", championship=tournament.championship)
    client.force_login(organizer)

    page = client.get(reverse("organize-players", args=[tournament.slug])).content.decode()

    assert "Nobody is entered in this tournament yet: add a player or import a list." in page
