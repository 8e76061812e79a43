"""Entering players and appointing staff: the age cut-off and 'staff may not play' (docs/rules.md §1)."""
from datetime import date

import pytest
from django.core.exceptions import ValidationError

from championships.models import Relationship
from championships.services import assign_staff, declare_relationship, enter_player
from tests.factories import make_admin, make_player, make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_player_18_on_the_cutoff_day_is_entered():
    tournament = make_tournament()  # cut-off 17 November 2022, minimum age 18
    player = make_player(born=date(2004, 11, 17))
    assert enter_player(player, tournament, user=make_admin()).player == player


def test_player_under_age_on_the_cutoff_is_refused_with_a_clear_message():
    tournament = make_tournament()
    player = make_player("Young Player", born=date(2004, 11, 18))
    with pytest.raises(ValidationError) as error:
        enter_player(player, tournament, user=make_admin())
    assert error.value.message_dict["date_of_birth"] == [
        "Young Player is under 18 on the cut-off date 2022-11-17 and cannot be entered."
    ]
    assert not tournament.entries.exists()


def test_missing_date_of_birth_is_refused_when_there_is_a_cutoff():
    tournament = make_tournament()
    player = make_player("No Birthday", born=None)
    with pytest.raises(ValidationError, match="no date of birth"):
        enter_player(player, tournament, user=make_admin())


def test_referee_cannot_be_entered_as_player():
    tournament = make_tournament()
    user = make_user("ref")
    assign_staff(user, "referee", tournament=tournament, user=make_admin())
    player = make_player("Refereeing Player", user=user)
    with pytest.raises(ValidationError, match="is referee of .* and cannot play in it"):
        enter_player(player, tournament, user=make_admin())


def test_championship_organizer_cannot_play_in_any_of_its_tournaments():
    tournament = make_tournament()
    user = make_user("org")
    assign_staff(user, "organizer", championship=tournament.championship, user=make_admin())
    with pytest.raises(ValidationError, match="is organizer of"):
        enter_player(make_player(user=user), tournament, user=make_admin())


def test_entered_player_cannot_be_made_referee():
    tournament = make_tournament()
    user = make_user("player-account")
    enter_player(make_player("Playing Person", user=user), tournament, user=make_admin())
    with pytest.raises(ValidationError, match="Playing Person is entered as a player"):
        assign_staff(user, "referee", tournament=tournament, user=make_admin())
    assert not tournament.staff.exists()


def test_staff_of_another_tournament_may_play():
    tournament, other = make_tournament(), make_tournament()
    user = make_user()
    assign_staff(user, "referee", tournament=other, user=make_admin())
    assert enter_player(make_player(user=user), tournament, user=make_admin())


def test_relationship_declared_either_way_is_one_row():
    one, other, tournament = make_player(), make_player(), make_tournament()
    declare_relationship(other, one, "family", user=make_admin(), tournament=tournament)
    declare_relationship(one, other, "family", user=make_admin(), tournament=tournament)
    assert Relationship.objects.count() == 1 and Relationship.objects.get().declarations.count() == 1


def test_relationship_with_oneself_has_a_clear_message():
    player = make_player()
    with pytest.raises(ValidationError, match="cannot be declared a friend or family member of themselves"):
        declare_relationship(player, player, user=make_admin(), tournament=make_tournament())
