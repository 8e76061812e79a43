"""Entering players and appointing staff: the age cut-off and 'staff may not play' (docs/rules.md §1)."""
from datetime import date

import pytest
from django.contrib.auth import get_user_model
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


def test_an_entered_players_email_cannot_be_invited_as_referee_of_that_tournament(client):
    """Seed 001 §5: "Referees and organizers may not play in their own tournament" (issue 33 item 8, issue 32 item
    8g). An organizer entered a player with no account, then invited that player's email, in other letters' case, as
    referee of the same tournament: accepted. Now refused, saying whose email it is, and no account is made."""
    tournament = make_tournament(slug="staff-by-email")
    organizer = make_user("organizer-by-email")
    assign_staff(organizer, "organizer", tournament=tournament, user=make_admin())
    enter_player(make_player("Dana Player", email="dana@example.org"), tournament, user=organizer)
    client.force_login(organizer)
    users_before = get_user_model().objects.count()
    response = client.post("/organize/staff-by-email/staff/", {"identifier": "DANA@Example.org", "role": "referee"})
    assert response.status_code == 422
    assert ("DANA@Example.org is the email of Dana Player, entered as a player in" in response.content.decode()
            and "cannot officiate it" in response.content.decode())
    assert not tournament.staff.filter(role="referee").exists()
    assert get_user_model().objects.count() == users_before
    existing = make_user("dana-account", email="Dana@example.org")  # an account already there, not linked
    with pytest.raises(ValidationError, match="is the email of Dana Player"):
        assign_staff(existing, "referee", tournament=tournament, user=organizer)
    with pytest.raises(ValidationError, match="is the email of Dana Player"):
        assign_staff(existing, "organizer", championship=tournament.championship, user=make_admin())


def test_a_player_with_a_staff_members_email_cannot_be_entered(client):
    """Seed 001 §5, the other way round: a referee's email typed for a player of their own tournament is refused
    with the staff member named; the same player may play in a tournament the referee does not officiate."""
    tournament, elsewhere = make_tournament(slug="staff-plays"), make_tournament()
    referee = make_user("ref-by-email", email="Ref@Example.org")
    assign_staff(referee, "referee", tournament=tournament, user=make_admin())
    player = make_player("Rafi Referee", email="ref@example.ORG")
    with pytest.raises(ValidationError) as error:
        enter_player(player, tournament, user=make_admin())
    assert error.value.messages == ["The email of Rafi Referee is that of ref-by-email, referee of "
                                    f"{tournament.name}: staff may not play in their own tournament."]
    assert not tournament.entries.exists()
    assert enter_player(player, elsewhere, user=make_admin())
    client.force_login(make_admin())
    response = client.post("/organize/staff-plays/entries/add/", {"email": "REF@example.org"})
    assert not tournament.entries.exists()
    assert "staff may not play in their own tournament" in client.get(response["Location"]).content.decode()
