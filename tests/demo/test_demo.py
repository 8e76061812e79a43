"""`seed_demo` builds the same living demo however often it runs."""
import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from championships.models import Championship, Entry, Player, Relationship, StaffRole, Tournament
from results.models import RecordSheet, Score
from scheduling.models import Game, Seat

pytestmark = pytest.mark.django_db


def snapshot():
    championship = Championship.objects.get(slug="demo-uae-championship")
    return {
        "tournaments": sorted(Tournament.objects.filter(championship=championship)
                              .values_list("name", "status", "date")),
        "entries": sorted(Entry.objects.values_list("tournament__name", "player__email", "status")),
        "players": Player.objects.count(),
        "relationships": sorted(Relationship.objects.values_list("player_a__email", "player_b__email", "kind")),
        "staff": sorted(StaffRole.objects.values_list("user__username", "role", "tournament__name",
                                                      "championship__name")),
        "seats": sorted(Seat.objects.values_list("game__tournament__name", "game__number", "table__number",
                                                 "position", "entry__player__email")),
        "scores": sorted(Score.objects.values_list("seat__game__tournament__name", "seat__game__number",
                                                   "seat__entry__player__email", "vp", "winner", "sheet__status")),
    }


def test_seed_demo_twice_gives_the_same_data(capsys):
    call_command("seed_demo")
    first = snapshot()
    call_command("seed_demo")
    assert snapshot() == first
    assert "organizer / organizer-demo" in capsys.readouterr().out


def test_demo_has_two_realistic_qualifiers_with_friends():
    call_command("seed_demo")
    dubai, abu_dhabi = Tournament.objects.filter(kind="qualifier").order_by("date")
    assert dubai.entries.count() >= 24 and abu_dhabi.entries.count() >= 24
    assert dubai.entries.count() % 4 and abu_dhabi.entries.count() % 4  # some 3-player tables
    assert Relationship.objects.count() >= 4


def test_demo_logins_work_and_have_their_roles(rf):
    call_command("seed_demo")
    request = rf.get("/")
    organizer = authenticate(request, username="organizer", password="organizer-demo")
    referee = authenticate(request, username="referee", password="referee-demo")
    assert organizer and referee
    assert StaffRole.objects.filter(user=organizer, role="organizer", championship__isnull=False).exists()
    assert StaffRole.objects.filter(user=referee, role="referee").count() == 2


def test_one_qualifier_is_finished_and_the_other_in_progress():
    call_command("seed_demo")
    dubai, abu_dhabi = Tournament.objects.filter(kind="qualifier").order_by("date")
    assert set(Game.objects.filter(tournament=dubai).values_list("status", flat=True)) == {"finished"}
    assert not RecordSheet.objects.filter(table__game__tournament=dubai).exclude(status="signed_off").exists()
    statuses = list(Game.objects.filter(tournament=abu_dhabi).order_by("number").values_list("status", flat=True))
    assert statuses == ["finished", "published", "planned"]
    in_game_two = set(RecordSheet.objects.filter(table__game__tournament=abu_dhabi, table__game__number=2)
                      .values_list("status", flat=True))
    assert in_game_two == {"signed_off", "signing", "draft"}  # publishing opened every sheet
