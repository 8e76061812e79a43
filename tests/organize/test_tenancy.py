"""Players shared by two championships with different organizers (issue 22, items 1-3; issue 20, item 3).

Championship A runs `home` (and `home-2`), organized by Alice; championship B runs `away`, organized by Bob.
`shared` and `shared2` play in both; `mine` plays only in A. Neither organizer may change, remove or read
across the wall: Bob's attempts through his own pages leave A's data as it was and show him nothing personal.
"""
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from audit.models import AuditEntry
from championships.models import Entry, Player, Relationship
from championships.services import assign_staff, declare_relationship
from scheduling.selectors import stage_plan
from tests.factories import make_admin, make_entries, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db


class Two:
    """Two championships sharing players, and a signed-in client for each organizer."""

    def __init__(self, client_a, client_b):
        self.home = make_tournament(slug="home")
        self.home2 = make_tournament(slug="home-2", championship=self.home.championship)
        self.away = make_tournament(slug="away")
        self.alice = make_official(self.home, "organizer", "alice")
        assign_staff(self.alice, "organizer", championship=self.home.championship, user=make_admin())
        self.bob = make_official(self.away, "organizer", "bob")
        self.mine = make_player("Mina Haddad", email="mina@example.org", born=date(1991, 4, 5), country="LB")
        self.shared = make_player("Sami Nasser", email="sami@example.org", born=date(1988, 8, 8), country="AE")
        self.shared2 = make_player("Rana Aziz", email="rana@example.org", born=date(1989, 9, 9), country="AE")
        for player in (self.mine, self.shared, self.shared2):
            Entry.objects.create(tournament=self.home, player=player)
        Entry.objects.create(tournament=self.home2, player=self.mine)
        for player in (self.shared, self.shared2):
            Entry.objects.create(tournament=self.away, player=player)
        client_a.force_login(self.alice)
        client_b.force_login(self.bob)
        self.a, self.b = client_a, client_b


@pytest.fixture
def two(client):
    return Two(client, Client())


def upload(client, slug: str, text: str):
    return client.post(f"/organize/{slug}/players/import/", {
        "file": SimpleUploadedFile("list.csv", text.encode("utf-8"))})


def confirm(client, slug: str, response, **decisions):
    data = {"token": response.context["token"], "consent": "1", **decisions}  # the players agreed to the notice
    return client.post(f"/organize/{slug}/players/import/", data)


LIST = "name,email,date_of_birth,country\n"


def test_another_organizer_cannot_rename_a_player_by_importing_their_email(two):
    """Issue 22 item 1: Bob's list renames A's player; now the record is linked unchanged, whatever he posts."""
    response = upload(two.b, "away", LIST + "Mallory,MINA@example.org,2001-01-01,US\n")
    assert response.status_code == 200
    body = response.content.decode()
    assert "1991-04-05" not in body  # nothing personal of A's record
    row = response.context["preview"].matches[2]
    assert row.player == two.mine and not row.may_change
    response = confirm(two.b, "away", response, **{"decision-2": "update"})
    assert response.status_code == 302
    two.mine.refresh_from_db()
    assert (two.mine.name, two.mine.date_of_birth, two.mine.country.code) == ("Mina Haddad", date(1991, 4, 5), "LB")
    assert Entry.objects.filter(tournament=two.away, player=two.mine).exists()  # linked as it is
    assert not AuditEntry.objects.filter(action="player.updated").exists()


def test_an_organizer_changes_their_own_player_and_every_tournament_logs_it(two):
    """A change is the organizer's decision per row (default: keep), audited in each tournament the player is in."""
    response = upload(two.a, "home", LIST + "Mina Haddad-Saleh,mina@example.org,1991-04-05,LB\n")
    match = response.context["preview"].matches[2]
    assert match.may_change and match.decision == "keep" and "name" in match.changes
    assert confirm(two.a, "home", response).status_code == 302  # the default keeps the record
    two.mine.refresh_from_db()
    assert two.mine.name == "Mina Haddad"
    response = upload(two.a, "home", LIST + "Mina Haddad-Saleh,mina@example.org,1991-04-05,LB\n")
    response = confirm(two.a, "home", response, **{"decision-2": "update"})
    assert response.status_code == 200  # the counts changed with the choice: shown again before importing
    response = confirm(two.a, "home", response, **{"decision-2": "update"})
    assert response.status_code == 302
    two.mine.refresh_from_db()
    assert two.mine.name == "Mina Haddad-Saleh"
    logged = set(AuditEntry.objects.filter(action="player.updated", object_id=two.mine.pk)
                 .values_list("tournament_id", flat=True))
    assert logged == {two.home.pk, two.home2.pk}
    page = two.a.get("/organize/home-2/activity/?kind=player").content.decode()
    assert "Details of <bdi>Mina Haddad-Saleh</bdi> changed" in page and "Mina Haddad" in page  # what it was


def test_a_shared_player_is_changed_by_nobody_who_does_not_organize_all_their_tournaments(two):
    response = upload(two.a, "home", LIST + "Sami N.,sami@example.org,1988-08-08,AE\n")
    assert not response.context["preview"].matches[2].may_change
    confirm(two.a, "home", response, **{"decision-2": "update"})
    two.shared.refresh_from_db()
    assert two.shared.name == "Sami Nasser"


def test_adding_a_player_by_hand_cannot_change_or_reveal_another_championships_player(two):
    response = two.b.post("/organize/away/players/add/", {"name": "Mallory", "email": "mina@example.org",
                                                           "kind": "friend"})
    assert response.status_code == 422
    two.mine.refresh_from_db()
    assert two.mine.name == "Mina Haddad" and "1991" not in response.content.decode()


def test_a_relationship_belongs_to_the_championship_that_declared_it(two):
    """Issue 22 item 2: Bob removed a pair only A declared, unaudited in A; now 403, and it keeps separating."""
    pair = declare_relationship(two.shared, two.shared2, user=two.alice, tournament=two.home)
    response = two.b.post(f"/organize/away/relationships/{pair.pk}/remove/")
    assert response.status_code == 403 and Relationship.objects.filter(pk=pair.pk).exists()
    make_entries(two.away, 2)  # a table of four to seat
    entry_of = dict(Entry.objects.filter(tournament=two.away).values_list("player_id", "pk"))
    assert stage_plan(two.away.stages.get()).problem.relations == (
        tuple(sorted((entry_of[two.shared.pk], entry_of[two.shared2.pk]))),)
    page = two.b.get("/organize/away/relationships/").content.decode()
    assert "Sami Nasser" in page and f"/relationships/{pair.pk}/remove/" not in page
    # Bob declares it for B too; A's removal then leaves B's declaration, and is logged in A's tournaments
    two.b.post("/organize/away/relationships/", {"one": two.shared.pk, "other": two.shared2.pk, "kind": "friend"})
    assert two.a.post(f"/organize/home/relationships/{pair.pk}/remove/").status_code == 302
    assert Relationship.objects.filter(pk=pair.pk).exists()
    assert AuditEntry.objects.filter(action="relationship.removed", tournament=two.home).exists()
    page = two.a.get("/organize/home/activity/?kind=relationship").content.decode()
    assert "another championship&#x27;s keeps them apart" in page or "another championship's keeps them apart" in page
    assert two.b.post(f"/organize/away/relationships/{pair.pk}/remove/").status_code == 302
    assert not Relationship.objects.filter(pk=pair.pk).exists()


def test_pairs_are_declared_only_between_players_entered_here(two):
    response = two.b.post("/organize/away/relationships/", {"one": two.shared.pk, "other": two.mine.pk,
                                                            "kind": "friend"})
    assert response.status_code == 422 and not Relationship.objects.exists()


def test_personal_data_of_another_championships_players_is_not_shown(two):
    """Issue 22 item 3: `players.csv?only=not_entered` listed everyone's email and date of birth."""
    for url in ("players.csv?only=not_entered", "players.csv", "players/", "players/?only=not_entered",
                "entries/", "relationships/", "relationships.csv", "players/?q=mina", "entries/?q=mina"):
        body = two.b.get(f"/organize/away/{url}").content.decode("utf-8-sig")
        assert "mina@example.org" not in body and "1991-04-05" not in body and "Mina" not in body, url
    body = two.b.get("/organize/away/players.csv").content.decode("utf-8-sig")
    assert "sami@example.org" in body  # a player entered in B is B's to see too


def test_entering_another_championships_player_needs_their_exact_email_or_name_and_birth_date(two):
    two.b.post("/organize/away/entries/add/", {"selected": [two.mine.pk]})
    for almost in ({"email": "mina@example"}, {"name": "mina haddad", "born": "1991-04-06"}):
        page = two.b.post("/organize/away/entries/add/", almost, follow=True).content.decode()
        assert "Nobody was entered" in page and "Mina" not in page
    assert not Entry.objects.filter(tournament=two.away, player=two.mine).exists()
    two.b.post("/organize/away/entries/add/", {"email": "Mina@Example.org"})
    assert Entry.objects.filter(tournament=two.away, player=two.mine).exists()
    assert Player.objects.get(pk=two.mine.pk).name == "Mina Haddad"


def test_namesakes_are_told_apart_in_the_standings_by_their_order_of_entry_only(client):
    """Publicly a number, never what tells them apart in the record (email, date of birth)."""
    tournament = make_tournament(slug="twins")
    first = make_player("Ann Lee", email="ann1@example.org", born=date(1990, 1, 1))
    second = make_player("ann  lee", email="ann2@example.org", born=date(1985, 5, 5))
    for player in (first, second, make_player("Bob")):
        Entry.objects.create(tournament=tournament, player=player)
    rows = client.get("/api/tournaments/twins/standings/").json()
    assert sorted((row["player"], row["namesake"]) for row in rows) == [("Ann Lee", 1), ("Bob", None),
                                                                        ("ann  lee", 2)]
    page = client.get("/t/twins/standings/").content.decode()
    assert "(1)" in page and "(2)" in page and "1985" not in page and "ann2@" not in page
