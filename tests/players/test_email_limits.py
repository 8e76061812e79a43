"""Emails to an address a visitor typed (issue 33 item 5): one limit per recipient across registration, `/me/` and
password reset, keyed by the normalisation the database matches with; an IPv6 client counted by its /48 too; a
typed "name" that is a message is not carried to an address nobody confirmed."""
import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from championships.models import Player, Registration
from core.emails import email_key, same_email
from tests.factories import make_entries, make_official, make_tournament, make_user

pytestmark = pytest.mark.django_db

SPELLINGS = ("ivan@example.com", "IVAN@example.com", "\u0131van@example.com", "\u0130van@example.com",
             "\u017fivan@example.com", "ivan@EXAMPLE.com", "i\u212aan@example.com", " ivan@example.com ")
"""One address and spellings of it: capitals, dotless ı (which UPPER makes I), dotted İ, long s, Kelvin sign."""


@pytest.fixture
def behind_proxy(settings):
    settings.PROXY_COUNT = 1


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Emails leave once the change commits: run what each request queued."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def posted(path: str, data: dict, client_ip: str):
    return Client().post(path, data, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=client_ip)


def test_the_limit_counts_every_spelling_the_database_matches_as_one_address():
    """The key and the match are one normalisation: whatever spelling finds the player counts as their address."""
    player = make_entries(make_tournament(), 1, email="ivan@example.com")[0].player
    for spelling in SPELLINGS:
        matched = Player.objects.filter(same_email("email", spelling)).first()
        assert (matched == player) == (email_key(spelling) == email_key(player.email)), spelling
    assert email_key("IVAN@example.com") == email_key("ivan@example.com") != email_key("ivan@example.org")


def test_one_limit_per_recipient_across_registration_resends_and_password_reset(settings, behind_proxy, committed):
    """A player's address typed on every form, in every spelling, from a new client address each time: at most
    `EMAILS_PER_RECIPIENT_HOUR` emails reach it, however the requests are spread, and every further request the
    database would match to it is refused. The dotless ı once counted apart at `/me/` (a casefold key) while
    PostgreSQL's UPPER found the same player."""
    settings.EMAILS_PER_RECIPIENT_HOUR = 4
    tournament = make_tournament(slug="bomb-cup", self_registration=True, capacity=8)
    make_entries(tournament, 1, email="ivan@example.com")
    make_user("ivan-referee", email="ivan@example.com")
    asks = [("/me/", {"email": spelling}) for spelling in SPELLINGS[1:4]]
    asks += [("/t/bomb-cup/register/", {"consent": "on", "name": "Ivan Petrov", "email": "IVAN@example.com",
                                        "date_of_birth": "1990-01-01"}),
             (reverse("password_reset"), {"email": "Ivan@example.com"})]
    asks += [("/me/", {"email": spelling}) for spelling in SPELLINGS]
    answers = []
    for n, (path, data) in enumerate(asks):
        with committed():
            answers.append((email_key(data["email"]) == email_key("ivan@example.com"),
                            posted(path, data, f"198.51.100.{n}").status_code))
    reaching = [code for same, code in answers if same]
    assert len(reaching) > 4 and all(code in (200, 302) for code in reaching[:4]), answers
    assert set(reaching[4:]) == {429}, answers
    assert len([m for m in mail.outbox if m.to[0].casefold() == "ivan@example.com"]) == 4
    refused = posted("/me/", {"email": "ivan@example.com"}, "203.0.113.9")
    assert "Too many emails were sent to this address" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert posted("/me/", {"email": "someone.else@example.com"}, "203.0.113.9").status_code == 200


def test_a_day_holds_at_most_emails_per_recipient_day(settings, behind_proxy):
    settings.EMAILS_PER_RECIPIENT_HOUR, settings.EMAILS_PER_RECIPIENT_DAY = 100, 4
    make_entries(make_tournament(), 1, email="ivan@example.com")
    answers = [posted("/me/", {"email": "ivan@example.com"}, f"198.51.100.{n}").status_code for n in range(6)]
    assert answers == [200, 200, 200, 200, 429, 429]


def test_three_64s_of_one_48_are_held_to_the_48s_allowance(settings, behind_proxy):
    """One holder of a /48 has 65,536 /64s: moving between three of them once tripled the registrations (and their
    emails) one client may send. A /48 is allowed twice one client's, whatever the /64s it uses."""
    settings.REGISTRATIONS_PER_ADDRESS = 3
    make_tournament(slug="v6-cup", self_registration=True, capacity=50)
    answers = {}
    for subnet in ("a", "b", "c"):
        answers[subnet] = [posted("/t/v6-cup/register/", {"consent": "on", "name": f"Runner {subnet}{n}",
                                                          "email": f"r{subnet}{n}@example.com",
                                                          "date_of_birth": "1990-01-01"},
                                  f"2001:db8:1:{subnet}::{n + 1}").status_code for n in range(4)]
    assert answers["a"] == [302, 302, 302, 429] and answers["b"] == [302, 302, 302, 429]
    assert answers["c"] == [429] * 4
    assert Registration.objects.count() == 6
    elsewhere = posted("/t/v6-cup/register/", {"consent": "on", "name": "Runner z", "email": "rz@example.com",
                                               "date_of_birth": "1990-01-01"}, "2001:db8:2::1")
    assert elsewhere.status_code == 302


def test_a_typed_name_that_is_a_message_is_not_carried_to_an_unconfirmed_address(committed):
    """The "name" carried a phishing sentence into the confirmation email sent to a stranger."""
    make_tournament(slug="relay-cup", name="Relay Cup", self_registration=True, capacity=8)
    client = Client()
    for name in ("Your account is locked: verify it at https://evil.example/login",
                 "Win a prize www.evil.example", "Call 555 0100 today"):
        with committed():
            client.post("/t/relay-cup/register/", {"consent": "on", "name": name, "email": "stranger@example.com",
                                                   "date_of_birth": "1990-01-01"})
        body = mail.outbox[-1].body
        assert name not in body and "evil" not in body and "555" not in body
        assert body.startswith("Hello,\n") and "You registered for Relay Cup" in body
    with committed():
        client.post("/t/relay-cup/register/", {"consent": "on", "name": "Lina Haddad", "email": "lina@example.com",
                                               "date_of_birth": "1990-01-01"})
    assert mail.outbox[-1].body.startswith("Hello Lina Haddad,")


def test_the_registration_form_does_not_tell_who_is_staff(committed):
    """Issue 33 item 10: "This email belongs to the staff of …" (422) told anyone who the staff are. The page
    answers as for any email; the staff member is told by email (001 §5: staff may not play in their own
    tournament), and nothing is registered."""
    tournament = make_tournament(slug="staff-cup", name="Staff Cup", self_registration=True, capacity=8)
    referee = make_official(tournament, "referee")
    referee.email = "rita@example.com"
    referee.save(update_fields=["email"])
    answers = []
    for email in ("Rita@Example.com", "stranger@example.com"):
        with committed():
            response = Client().post("/t/staff-cup/register/", {"consent": "on", "name": "Rita Haddad", "email": email,
                                                                "date_of_birth": "1990-01-01"})
        answers.append((response.status_code, response["Location"]))
    assert answers[0] == answers[1] == (302, "/t/staff-cup/register/?sent=1")
    staff, stranger = mail.outbox
    assert staff.to == ["Rita@Example.com"] and "referees and organizers may not play" in staff.body
    assert "/register/confirm/" not in staff.body and "Rita Haddad" not in staff.body
    assert "/register/confirm/" in stranger.body
    assert list(Registration.objects.values_list("email", flat=True)) == ["stranger@example.com"]
    assert staff.subject == "Registration: Staff Cup"
