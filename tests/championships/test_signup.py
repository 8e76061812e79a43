"""Players register themselves (issue 25): confirmed by the emailed link, within the places, with a waiting list
that gives each freed place to the first in line, the same eligibility as an organizer's entry, all audited."""
import re
from datetime import date, datetime, timedelta

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from attendance import checkin
from audit.models import AuditEntry
from championships import places, signup
from championships.models import Entry, Player, Registration, Tournament
from tests.factories import make_admin, make_entries, make_game, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Emails leave once the change commits; a test's transaction never does, so run the queued ones here."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def cup():
    tournament = make_tournament(slug="open-cup", name="Open Cup", self_registration=True, capacity=3,
                                 status="registration")
    return tournament, make_official(tournament, "organizer")


def details(n: int, **changes) -> signup.Details:
    values = {"name": f"Runner {n}", "email": f"runner{n}@example.com", "date_of_birth": date(1990, 1, 1),
              "country": "AE", "language": "en"}
    return signup.Details(**{**values, **changes})


def confirm_token(message) -> str:
    return re.search(r"/register/confirm/([^/\s]+)/", message.body).group(1)


def register_and_confirm(tournament, n, committed, **changes) -> Registration:
    with committed():
        signup.register(tournament.pk, details(n, **changes))
    with committed():
        return signup.confirm(tournament.slug, confirm_token(mail.outbox[-1])).registration


def test_nobody_exists_until_the_emailed_link_is_confirmed_by_a_post(cup, committed):
    tournament, organizer = cup
    with committed():
        registration = signup.register(tournament.pk, details(1, city="Dubai", friends="Ann Lee\nBob"))
    assert registration.status == "unconfirmed" and not Player.objects.filter(email="runner1@example.com").exists()
    (message,) = mail.outbox
    assert message.to == ["runner1@example.com"] and message.subject == "Confirm your registration: Open Cup"
    token = confirm_token(message)
    assert token not in str(Registration.objects.values().get()), "only the token's digest is stored"
    submitted = AuditEntry.objects.get(action="registration.submitted")
    assert submitted.user is None and submitted.player is None and submitted.tournament == tournament

    with committed():
        confirmed = signup.confirm("open-cup", token)
    registration = confirmed.registration
    player = Player.objects.get(email="runner1@example.com")
    assert registration.status == "entered" and registration.entry.player == player and registration.city == "Dubai"
    assert "/me/" in confirmed.link and mail.outbox[-1].to == ["runner1@example.com"]
    assert "You are entered in Open Cup." in mail.outbox[-1].body and "/me/" in mail.outbox[-1].body
    logged = AuditEntry.objects.get(action="registration.confirmed")
    assert logged.player == player and logged.user is None and logged.after["status"] == "entered"
    with committed():  # confirming again (a double tap) changes nothing
        again = signup.confirm("open-cup", token)
    assert again.registration.status == "entered" and Entry.objects.filter(player=player).count() == 1


def test_a_full_tournament_puts_players_on_the_waiting_list_and_a_freed_place_goes_to_the_first(cup, committed):
    tournament, organizer = cup
    entered = [register_and_confirm(tournament, n, committed) for n in range(3)]
    first, second = (register_and_confirm(tournament, n, committed) for n in (3, 4))
    assert [r.status for r in entered] == ["entered"] * 3 and (first.status, second.status) == ("waiting", "waiting")
    assert places.waiting_position(first) == 1 and places.waiting_position(second) == 2
    assert "you are number 2 on the waiting list" in mail.outbox[-1].body

    with committed():
        signup.cancel(entered[1].pk, player=entered[1].player)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "entered" and first.entry.status == "registered" and second.status == "waiting"
    assert places.waiting_position(second) == 1
    promoted = mail.outbox[-1]
    assert promoted.to == ["runner3@example.com"] and promoted.subject == "A place for you: Open Cup"
    assert "/me/" in promoted.body
    assert Entry.objects.get(pk=entered[1].entry_id).status == "withdrawn"
    assert AuditEntry.objects.get(action="registration.promoted").player == entered[1].player  # who freed it

    with committed():  # a withdrawal at the desk before the first game frees a place too
        checkin.withdraw(tournament, entered[0].entry_id, user=organizer, reason="Ill")
    second.refresh_from_db()
    assert second.status == "entered"


def test_more_places_from_the_organizer_let_the_waiting_list_in(cup, committed):
    tournament, organizer = cup
    for n in range(5):
        register_and_confirm(tournament, n, committed)
    assert places.waiting(tournament).count() == 2
    with committed():
        signup.change_settings(tournament, signup.Settings(True, 4, None, False), user=organizer)
    assert places.waiting(tournament).count() == 1 and places.places_left(Tournament.objects.get(pk=tournament.pk)) == 0
    logged = AuditEntry.objects.get(action="tournament.registration")
    assert logged.before["capacity"] == 3 and logged.after["capacity"] == 4 and logged.user == organizer
    with pytest.raises(ValidationError):
        signup.change_settings(tournament, signup.Settings(True, 2, None, False), user=organizer)
    with pytest.raises(PermissionDenied):
        signup.change_settings(tournament, signup.Settings(False, 4, None, False),
                               user=make_official(make_tournament(), "organizer"))


def test_the_organizer_approves_or_refuses_each_registration_when_they_said_so(cup, committed):
    tournament, organizer = cup
    Tournament.objects.filter(pk=tournament.pk).update(registration_approval=True)
    tournament.refresh_from_db()
    pending = register_and_confirm(tournament, 1, committed)
    other = register_and_confirm(tournament, 2, committed)
    assert (pending.status, other.status) == ("pending", "pending") and not Entry.objects.filter(
        tournament=tournament).exists()
    with committed():
        assert signup.approve(tournament, pending.pk, user=organizer).status == "entered"
    with committed():
        signup.refuse(tournament, other.pk, user=organizer, reason="Places are for club members.")
    refused = mail.outbox[-1]
    assert refused.to == ["runner2@example.com"] and "Places are for club members." in refused.body
    assert "/me/" not in refused.body
    with pytest.raises(ValidationError):
        signup.approve(tournament, other.pk, user=organizer)
    with pytest.raises(PermissionDenied):
        signup.approve(tournament, other.pk, user=make_official(tournament, "referee"))


def test_the_same_eligibility_as_an_organizers_entry(cup, committed):
    tournament, organizer = cup
    with pytest.raises(ValidationError) as young:
        signup.register(tournament.pk, details(1, date_of_birth=date(2010, 1, 1)))
    assert "date_of_birth" in young.value.message_dict
    with pytest.raises(ValidationError) as missing:
        signup.register(tournament.pk, details(1, date_of_birth=None))
    assert "date_of_birth" in missing.value.message_dict
    organizer.email = "Staff@Example.com"
    organizer.save()
    with committed():  # staff may not play (001 §5): told by email, not on the page (tests/players/test_email_limits)
        assert signup.register(tournament.pk, details(1, email="staff@example.com")) is None
    assert not Registration.objects.exists() and "may not play" in mail.outbox[-1].body
    # the record decides on confirmation: a registered player under age is refused whatever they typed
    make_player("Young One", born=date(2008, 5, 5), email="young@example.com")
    refused = register_and_confirm(tournament, 2, committed, email="young@example.com")
    assert refused.status == "refused" and "under 18" in refused.reason and not Entry.objects.filter(
        player__email="young@example.com").exists()
    assert "was refused" in mail.outbox[-1].body


def test_an_email_already_here_gets_an_email_not_a_page_that_tells_a_stranger(cup, committed):
    tournament, organizer = cup
    register_and_confirm(tournament, 1, committed)
    make_entries(tournament, 1, email="entered@example.com")
    for email in ("runner1@example.com", "entered@example.com"):
        with committed():
            assert signup.register(tournament.pk, details(9, email=email.upper())) is None
        assert mail.outbox[-1].to[0].lower() == email and "/me/" in mail.outbox[-1].body
    assert Registration.objects.count() == 1


def test_typing_it_again_before_confirming_replaces_the_link(cup, committed):
    tournament, organizer = cup
    with committed():
        signup.register(tournament.pk, details(1))
    old = confirm_token(mail.outbox[-1])
    with committed():
        signup.register(tournament.pk, details(1, name="Runner One"))
    assert Registration.objects.get().name == "Runner One"
    with pytest.raises(ValidationError):
        signup.confirm(tournament.slug, old)
    assert signup.confirm(tournament.slug, confirm_token(mail.outbox[-1])).registration.status == "entered"


def test_an_expired_or_foreign_link_confirms_nothing(cup, committed):
    tournament, organizer = cup
    other = make_tournament(slug="other-cup", self_registration=True)
    with committed():
        signup.register(tournament.pk, details(1))
    token = confirm_token(mail.outbox[-1])
    assert signup.registration_for("other-cup", token) is None
    with pytest.raises(ValidationError):
        signup.confirm(other.slug, token)
    Registration.objects.update(created_at=timezone.now() - timedelta(hours=signup.CONFIRM_HOURS, minutes=1))
    with pytest.raises(ValidationError, match="expired"):
        signup.confirm(tournament.slug, token)
    assert not Player.objects.filter(email="runner1@example.com").exists()


def test_when_registration_is_closed(cup, committed):
    tournament, organizer = cup
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now() - timedelta(minutes=1))
    tournament.refresh_from_db()
    assert "closed" in signup.why_closed(tournament)
    with pytest.raises(ValidationError):
        signup.register(tournament.pk, details(1))
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=None, self_registration=False)
    tournament.refresh_from_db()
    assert "organizers enter them" in signup.why_closed(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(self_registration=True)
    tournament.refresh_from_db()
    make_game(tournament, [make_entries(tournament, 4)])
    assert "has started" in signup.why_closed(tournament)


def test_a_finals_fed_by_qualifiers_is_entered_by_qualification(cup):
    tournament, organizer = cup
    finals = make_tournament(kind="finals", championship=tournament.championship)
    with pytest.raises(ValidationError) as refused:
        signup.change_settings(finals, signup.Settings(True, 16, None, False), user=make_admin())
    assert "self_registration" in refused.value.message_dict


def test_an_existing_player_is_linked_unchanged_but_for_what_they_lack(cup, committed):
    tournament, organizer = cup
    player = make_player("Registered Name", born=date(1985, 3, 3), email="known@example.com")
    Player.objects.filter(pk=player.pk).update(country=None)
    registration = register_and_confirm(tournament, 1, committed, email="Known@example.com", name="Other Name",
                                        date_of_birth=date(1999, 9, 9), media_opt_out=True, language="ar")
    player.refresh_from_db()
    assert registration.player == player and player.name == "Registered Name"
    assert player.date_of_birth == date(1985, 3, 3) and player.country.code == "AE" and player.media_opt_out
    assert player.language == "ar"


def test_a_registration_closing_time_is_kept_as_set(cup):
    tournament, organizer = cup
    closes = datetime(2031, 5, 1, 18, 0, tzinfo=timezone.get_current_timezone())
    signup.change_settings(tournament, signup.Settings(True, 10, closes, True), user=organizer)
    tournament.refresh_from_db()
    assert (tournament.registration_closes, tournament.capacity, tournament.registration_approval) == (closes, 10, True)
