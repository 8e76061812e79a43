"""Another championship's players are not harvested (issue 33 item 2).

The attack, as deployed: Bob, organizer of a championship of his own, asked the find form for emails (it answered
name and country) and for names with birth dates (yes or no), without a limit; entering a player then showed him
their email and birth date in `players.csv`, and taking the entry out again left no trace in the player's own
championship; with an API token, the import linked 2,000 emails a request and answered their names. Now every
lookup is counted (`foreign_players.FINDS`, per organizer account and hour) and logged where the player plays, an
entered player of another championship is asked to confirm, and until then Bob sees only what he typed.
"""
import re
import time
import types
from datetime import date

import pytest
from django.core import mail
from django.test import Client

from audit.models import AuditEntry
from championships import foreign_players, links
from championships.models import Entry, EntryInvitation, Player
from championships.services import assign_staff
from tests.api.test_tokens import bearer, checked, made_token
from tests.factories import make_admin, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db

MINA_EMAIL, MINA_BORN = "mina@example.org", date(1991, 4, 5)


@pytest.fixture(autouse=True)
def _one_hour(monkeypatch):
    """The lookups of a test fall in one window of the hourly limit, whenever the test runs."""
    start = (int(time.time()) // 3600) * 3600 + 60
    monkeypatch.setattr("core.ratelimit.time", types.SimpleNamespace(time=lambda: start))


class World:
    """Championship A (Alice) runs `home` with Mina; Bob organizes `away`, a tournament of championship B."""

    def __init__(self, client):
        self.home = make_tournament(slug="home", name="Home Cup")
        self.alice = make_official(self.home, "organizer", "alice")
        self.mina = make_player("Mina Haddad", email=MINA_EMAIL, born=MINA_BORN, country="LB")
        Entry.objects.create(tournament=self.home, player=self.mina)
        self.away = make_tournament(slug="away", name="Away Open")
        self.bob = make_user_organizer(self.away)
        self.a, self.b = Client(), client
        self.a.force_login(self.alice)
        self.b.force_login(self.bob)

    def enter(self, **typed):
        return self.b.post("/organize/away/entries/add/", typed, follow=True).content.decode()

    def bobs_pages(self) -> str:
        urls = ["players/", "players/?only=all", "players.csv", "players.xlsx", "entries/", "entries.csv",
                "entries.xlsx", "relationships/", "activity/", "activity.csv", "check-in/", "check-in.csv", ""]
        return "".join(self.b.get(f"/organize/away/{url}").content.decode("utf-8", "replace") for url in urls)


def make_user_organizer(tournament):
    bob = make_official(tournament, "organizer", "bob")
    assign_staff(bob, "organizer", championship=tournament.championship, user=make_admin())
    return bob


@pytest.fixture
def world(client):
    return World(client)


def test_guessing_a_birth_date_stops_at_the_hourly_limit(world):
    """147 guesses in 2 s found a player's birth date; now the 31st try of the hour is refused, even the right one,
    and every try is in Bob's activity log."""
    for day in range(1, foreign_players.FINDS.limit + 1):
        page = world.enter(name="Mina Haddad", born=f"1991-03-{day:02d}")
        assert "No registered player has that email, or that name and date of birth." in page
    page = world.enter(name="Mina Haddad", born=MINA_BORN.isoformat())
    assert "You have looked up 30 players of other championships this hour, the most allowed" in page
    assert not Entry.objects.filter(tournament=world.away, player=world.mina).exists()
    assert AuditEntry.objects.filter(tournament=world.away, action="player.looked_up").count() == 30
    log = world.b.get("/organize/away/activity/?kind=player").content.decode()
    assert "A player looked up by name and date of birth: nobody has them" in log


def test_an_entered_player_of_another_championship_shows_only_what_was_typed_until_they_confirm(
        world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        page = world.enter(name="mina haddad", born=MINA_BORN.isoformat())
    assert "They play in another championship: they are asked to confirm" in page
    entry = Entry.objects.get(tournament=world.away, player=world.mina)
    assert EntryInvitation.objects.get(entry=entry).confirmed_at is None
    pages = world.bobs_pages()
    assert "Mina Haddad" in pages and MINA_EMAIL not in pages  # the name he typed, never the stored email
    assert "awaiting the player&#x27;s confirmation" in pages or "awaiting the player's confirmation" in pages
    assert not list(world.b.get("/organize/away/check-in/", {"q": "mina@"}).context["entries"])
    assert list(world.a.get("/organize/home/check-in/", {"q": "mina@"}).context["entries"])  # her own desk finds her
    # Alice's tournament, where Mina belongs, knows who looked her up and entered her
    told = world.a.get("/organize/home/activity/?kind=player").content.decode()
    assert "looked up by their name and date of birth from <bdi>Away Open</bdi>" in told
    assert "entered in <bdi>Away Open</bdi> by the organizers of another championship" in told
    # Mina is asked by email; the link in it, opened as written, shows the invitation and confirms it
    (invitation,) = [m for m in mail.outbox if m.to == [MINA_EMAIL]]
    assert "entered you in it, finding you by your name and date of birth" in invitation.body
    address = re.search(r"https?://\S+/me/[\w-]+/", invitation.body).group(0)
    mine = Client()
    own_page = mine.get(address).content.decode()
    assert "Confirm: I play in <bdi>Away Open</bdi>" in own_page
    token = address.rstrip("/").rsplit("/", 1)[1]
    assert mine.post(f"/me/{token}/entries/{entry.pk}/confirm/").status_code == 302
    confirmed = AuditEntry.objects.get(action="entry.confirmed")
    assert confirmed.tournament == world.away and confirmed.player == world.mina and confirmed.user is None
    assert MINA_EMAIL in world.b.get("/organize/away/players.csv").content.decode("utf-8-sig")


def test_found_by_email_the_birth_date_stays_hidden_and_taking_her_out_leaves_a_trace(world):
    world.enter(email="MINA@example.org")
    pages = world.bobs_pages()
    assert MINA_BORN.isoformat() not in pages
    assert "1991" not in world.b.get("/organize/away/players.csv").content.decode()
    entry = Entry.objects.get(tournament=world.away, player=world.mina)
    world.b.post("/organize/away/entries/remove/", {"selected": [entry.pk]})
    assert not Entry.objects.filter(pk=entry.pk).exists()
    told = world.a.get("/organize/home/activity/?kind=player").content.decode()
    assert "taken out again of <bdi>Away Open</bdi>, of another championship" in told


def test_a_link_handed_over_by_organizers_cannot_confirm_an_entry(world):
    """Only the player's own word opens their record: a link an organizer was shown (no email) confirms nothing."""
    Player.objects.filter(pk=world.mina.pk).update(email="")
    world.mina.refresh_from_db()
    links.rotate(world.mina.pk, user=world.alice, tournament=world.home)
    shown = links.issue(world.mina)  # what a handed-over link looks like to the page: marked as shown
    world.mina.links.filter(shown_to__isnull=True).update(shown_to=world.alice)
    world.enter(name="Mina Haddad", born=MINA_BORN.isoformat())
    entry = Entry.objects.get(tournament=world.away, player=world.mina)
    assert "Confirm: I play in" not in Client().get(f"/me/{shown}/").content.decode()
    Client().post(f"/me/{shown}/entries/{entry.pk}/confirm/")
    assert EntryInvitation.objects.get(entry=entry).confirmed_at is None


def test_the_api_import_answers_nothing_about_players_it_did_not_create(client, world):
    token = made_token(client, world.away, world.bob)
    client.logout()
    url = "/api/v1/tournaments/away/players/import/"
    listed = ("name,email,date_of_birth,country\nSomeone Else,MINA@Example.org,1999-09-09,US\n"
              "Nadia New,nadia@example.org,1990-01-01,JO\n")
    response = client.post(url, {"csv": listed}, content_type="application/json", **bearer(token))
    assert response.status_code == 200, response.content
    answered = checked(client, response)["entered"]
    assert [(row["player"], row["country"]) for row in answered] == [("Someone Else", "US"), ("Nadia New", "JO")]
    assert "Mina" not in response.content.decode() and "LB" not in response.content.decode()
    assert Player.objects.get(pk=world.mina.pk).name == "Mina Haddad"  # linked, not renamed
    assert EntryInvitation.objects.filter(entry__player=world.mina, entry__tournament=world.away).exists()
    assert not EntryInvitation.objects.filter(entry__player__name="Nadia New").exists()  # made here: Bob's own


def test_the_api_import_of_many_registered_emails_is_refused_whole(client, world):
    """2,000 emails a request were linked and their names answered; past the hourly allowance the list is refused."""
    for n in range(foreign_players.FINDS.limit + 1):
        Entry.objects.create(tournament=world.home, player=make_player(f"Known {n}", email=f"known{n}@example.org"))
    token = made_token(client, world.away, world.bob)
    client.logout()
    listed = "name,email\n" + "".join(f"Guess {n},known{n}@example.org\n"
                                       for n in range(foreign_players.FINDS.limit + 1))
    response = client.post("/api/v1/tournaments/away/players/import/", {"csv": listed},
                           content_type="application/json", **bearer(token))
    assert response.status_code == 422
    assert "This names 31 players registered by other championships" in checked(client, response)["detail"]
    assert "Known" not in response.content.decode()
    assert not Entry.objects.filter(tournament=world.away).exists()


def test_the_import_preview_names_another_championships_player_as_the_list_does(world):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = world.b.post("/organize/away/players/import/", {"file": SimpleUploadedFile(
        "list.csv", b"name,email,date_of_birth,country\nM. H.,mina@example.org,2001-02-03,US\n")})
    body = response.content.decode()
    assert "Mina" not in body and "1991" not in body
    assert AuditEntry.objects.filter(tournament=world.away, action="player.looked_up").count() == 1
    assert AuditEntry.objects.filter(tournament=world.home, action="player.looked_up_elsewhere").count() == 1


def test_only_the_players_own_championships_are_told(world):
    """Bob enters Mina in a second tournament of his championship while she has not confirmed the first: her own
    tournament is told again, his first one is not (it is not another championship to him)."""
    second = make_tournament(slug="away-2", name="Away Cup", championship=world.away.championship)
    world.enter(email=MINA_EMAIL)
    world.b.post("/organize/away-2/entries/add/", {"email": MINA_EMAIL})
    assert Entry.objects.filter(tournament=second, player=world.mina).exists()
    told = AuditEntry.objects.filter(action__in=["player.looked_up_elsewhere", "player.entered_elsewhere"])
    assert set(told.values_list("tournament_id", flat=True)) == {world.home.pk}
    assert told.count() == 4
