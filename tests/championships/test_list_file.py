"""Registration lists: every problem named with its line and column; nothing half-imported."""
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from championships.list_file import parse_list
from championships.models import Entry, Player, Relationship
from championships.people import import_rows
from engines.csv_input import InputError
from tests.factories import make_admin, make_tournament

SAMPLE = Path(__file__).resolve().parents[2] / "demo" / "players.csv"


def test_sample_roster_parses_with_arabic_names_and_friend_lists():
    rows = parse_list(SAMPLE.read_text(encoding="utf-8"))
    assert len(rows) == 48
    assert rows[0].name == "ليلى حداد" and rows[0].country == "AE"
    assert rows[10].friends_or_family == ("Farah Saad", "Hadi Khoury")


def test_every_problem_is_reported_with_line_and_column():
    text = ("name,email,date_of_birth,country,friends_or_family\n"
            "Ann,,1990-13-01,AE,\n"
            ",nobody@example.org,,,\n"
            "Bob,,,Emirats,Carl\n"
            "ann,,,,\n")
    with pytest.raises(InputError) as error:
        parse_list(text)
    assert [str(p) for p in error.value.problems] == [
        "line 2, date_of_birth: '1990-13-01' is not a date like 1990-05-31",
        "line 3, name: the name is empty",
        "line 4, country: 'Emirats' is not a country name or ISO code",
        "line 5, name: ann is already on line 2: give each an email or a date of birth to tell them apart",
        "line 4, friends_or_family: Carl is not in the file",
    ]


def test_missing_name_column_is_refused():
    with pytest.raises(InputError, match="line 1, name"):
        parse_list("email\nx@example.org\n")


@pytest.mark.django_db
def test_import_enters_players_and_declares_relationships():
    tournament = make_tournament()
    rows = parse_list("name,email,date_of_birth,country,friends_or_family\n"
                      "Ann,ann@example.org,1990-01-01,AE,Bob\nBob,,1991-02-02,LB,\n")
    import_rows(tournament, rows, user=make_admin())
    assert sorted(tournament.entries.values_list("player__name", flat=True)) == ["Ann", "Bob"]
    assert Relationship.objects.count() == 1


@pytest.mark.django_db
def test_import_refusing_one_player_writes_nothing():
    tournament = make_tournament()
    rows = parse_list("name,date_of_birth\nAnn,1990-01-01\nYoung,2010-01-01\n")
    with pytest.raises(ValidationError, match="Line 3: Young is under 18"):
        import_rows(tournament, rows, user=make_admin())
    assert not Player.objects.exists() and not Entry.objects.exists()
