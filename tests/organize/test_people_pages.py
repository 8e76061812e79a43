"""The organizer's players, import, relationships and entries pages through the test client."""
from datetime import date

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.models import AuditEntry
from championships.models import Entry, Player, Relationship
from championships.services import assign_staff
from scheduling.services import generate_seating
from tests.factories import make_admin, make_entries, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer_client(client):
    tournament = make_tournament(slug="cup")
    client.organizer = make_official(tournament, "organizer")
    client.force_login(client.organizer)
    client.tournament = tournament
    return client


def upload(client, text: str, name: str = "list.csv"):
    return client.post("/organize/cup/players/import/", {"file": SimpleUploadedFile(name, text.encode("utf-8"))})


def test_import_preview_saves_nothing_then_confirmation_imports(organizer_client):
    response = upload(organizer_client, "name,email,date_of_birth,country,friends_or_family\n"
                                        "Ann,ann@example.org,1990-01-01,Lebanon,Bob\nBob,,1991-01-01,AE,\n")
    body = response.content.decode()
    assert response.status_code == 200 and "Preview of list.csv" in body
    assert ("Import: 2 new players, 2 players entered in Qualifier" in body and "1 relationship declared" in body)
    assert not Player.objects.exists()
    token = response.context["confirm_form"].initial["token"]
    response = organizer_client.post("/organize/cup/players/import/", {"token": token, "consent": "1"})
    assert response.status_code == 302
    assert sorted(Entry.objects.values_list("player__name", flat=True)) == ["Ann", "Bob"]
    assert Relationship.objects.count() == 1 and Player.objects.get(name="Ann").country.code == "LB"


def test_a_list_with_problems_has_no_confirmation_and_names_the_lines(organizer_client):
    response = upload(organizer_client, "name,date_of_birth\nAnn,1990-01-01\nYoung,2012-03-04\nAnn,\n")
    body = response.content.decode()
    assert response.status_code == 422 and response.context["confirm_form"] is None
    assert "Line 3" in body and "under 18 on the cut-off date" in body and "Ann is already on line 2" in body
    assert not Player.objects.exists()


def test_an_unreadable_file_is_a_message_on_the_form(organizer_client):
    response = upload(organizer_client, "", name="list.xlsx")
    assert response.status_code == 422 and not Player.objects.exists()
    response = organizer_client.post("/organize/cup/players/import/", {
        "file": SimpleUploadedFile("list.csv", "name\nÉlodie\n".encode("latin-1"))})
    assert "line 2: This is not UTF-8 text" in response.content.decode()


def test_a_tampered_or_foreign_token_imports_nothing(organizer_client):
    response = upload(organizer_client, "name,date_of_birth\nAnn,1990-01-01\n")
    token = response.context["confirm_form"].initial["token"]
    forged = signing.dumps({"t": organizer_client.tournament.pk, "u": 999, "f": "x", "d": {}, "m": {},
                            "r": [[2, {"name": "Eve"}]]}, salt="organize.player-import", compress=True)
    for bad in (token[:-2] + "xx", forged, "", "a" * 50):
        response = organizer_client.post("/organize/cup/players/import/", {"token": bad})
        assert response.status_code == 302
    assert not Player.objects.exists()


def test_confirmation_rechecks_and_shows_the_preview_again(organizer_client):
    response = upload(organizer_client, "name,email,date_of_birth\nAnn,ann@example.org,1990-01-01\n")
    token = response.context["confirm_form"].initial["token"]
    make_player("Ann", email="ann@example.org").entries.create(tournament=organizer_client.tournament)
    make_player("Ann", email="")  # a second Ann without email: no matter, the row gives its email
    response = organizer_client.post("/organize/cup/players/import/", {"token": token, "consent": "1"})
    assert response.status_code == 422  # the list now means a registered player: shown again, nothing written
    assert "registered or entered some of these players meanwhile" in response.content.decode()
    assert Player.objects.filter(email="ann@example.org").count() == 1 and Entry.objects.count() == 1
    assert response.context["preview"].counts.nothing_to_do


def test_add_a_player_with_every_iso_country(organizer_client):
    page = organizer_client.get("/organize/cup/players/add/").content.decode()
    assert page.count("<option value=") > 240 and 'for="id_country"' in page
    response = organizer_client.post("/organize/cup/players/add/", {
        "name": "Zoë", "email": "zoe@example.org", "date_of_birth": "1990-02-03", "country": "IS",
        "kind": "friend", "enter": "on"})
    assert response.status_code == 302
    assert Entry.objects.get(player__name="Zoë").player.country.name == "Iceland"
    response = organizer_client.post("/organize/cup/players/add/", {
        "name": "Kid", "date_of_birth": "2015-01-01", "country": "IS", "kind": "friend", "enter": "on"})
    assert response.status_code == 422 and "under 18" in response.content.decode()
    response = organizer_client.post("/organize/cup/players/add/", {"name": "x" * 201, "kind": "friend"})
    assert response.status_code == 422 and Player.objects.count() == 1


def test_players_csv_escapes_formulas(organizer_client):
    make_player("=HYPERLINK(\"http://evil\")").entries.create(tournament=organizer_client.tournament)
    csv = organizer_client.get("/organize/cup/players.csv").content.decode("utf-8-sig")
    assert "'=HYPERLINK" in csv and csv.startswith("name,email,date_of_birth,country,entered,friends_or_family")


def test_relationships_declared_and_removed_with_the_audit_trail(organizer_client):
    tournament = organizer_client.tournament
    one, other = (e.player for e in make_entries(tournament, 2))
    response = organizer_client.post("/organize/cup/relationships/", {"one": one.pk, "other": other.pk,
                                                                       "kind": "family"})
    assert response.status_code == 302 and Relationship.objects.get().kind == "family"
    page = organizer_client.get("/organize/cup/relationships/").content.decode()
    assert one.name in page and "family" in page
    pair = Relationship.objects.get()
    assert organizer_client.post(f"/organize/cup/relationships/{pair.pk}/remove/").status_code == 302
    assert not Relationship.objects.exists()
    assert AuditEntry.objects.filter(action="relationship.removed", object_id=pair.pk).exists()
    assert organizer_client.get(f"/organize/cup/relationships/{pair.pk}/remove/").status_code == 405


def test_enter_in_bulk_and_remove_before_seating(organizer_client):
    tournament = organizer_client.tournament
    earlier = make_tournament(championship=tournament.championship)  # the organizer's too: its players are theirs
    assign_staff(organizer_client.organizer, "organizer", tournament=earlier, user=make_admin())
    players = [make_player(f"Bulk {n}") for n in range(7)]
    young = make_player("Bulk young", born=date(2012, 1, 1))
    for player in [*players, young]:
        Entry.objects.create(tournament=earlier, player=player, status="registered")
    response = organizer_client.post("/organize/cup/entries/add/", {"selected": [players[0].pk, young.pk]})
    assert response.status_code == 302 and not tournament.entries.exists()  # one refused: nobody entered
    organizer_client.post("/organize/cup/entries/add/", {"all_matching": "1", "q": "Bulk "})
    assert not tournament.entries.exists()
    organizer_client.post("/organize/cup/entries/add/", {"selected": [p.pk for p in players] + ["x", "-1"]})
    assert tournament.entries.count() == 7
    first = tournament.entries.get(player=players[0])
    organizer_client.post("/organize/cup/entries/remove/", {"selected": [first.pk]})
    assert tournament.entries.count() == 6
    make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=tournament.staff.filter(role="organizer").get().user, seed=1)
    seated = tournament.entries.first()
    organizer_client.post("/organize/cup/entries/remove/", {"selected": [seated.pk]})
    assert Entry.objects.filter(pk=seated.pk).exists()
    csv = organizer_client.get("/organize/cup/entries.csv").content.decode("utf-8-sig")
    assert csv.count("\n") == 7 and "Bulk 1" in csv


def test_people_pages_are_for_organizers_of_the_tournament(client):
    tournament = make_tournament(slug="cup")
    urls = ["players/", "players.csv", "players/add/", "players/import/", "relationships/", "relationships.csv",
            "entries/", "entries.csv", "check-in/", "check-in.csv"]
    client.force_login(make_official(tournament, "referee"))
    for url in urls:
        assert client.get(f"/organize/cup/{url}").status_code == 403, url
    client.force_login(make_official(make_tournament(), "organizer"))
    for url in urls:
        assert client.get(f"/organize/cup/{url}").status_code == 403, url
    client.logout()
    assert client.get("/organize/cup/players/").status_code == 302


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(lambda t: ("name,country\n" + t).encode()),
       name=st.sampled_from(["list.csv", "list.xlsx", "list.txt", "x" * 150 + ".csv"]))
def test_any_upload_gets_a_page_never_a_server_error(organizer_client, data, name):
    response = organizer_client.post("/organize/cup/players/import/", {
        "file": SimpleUploadedFile(name, data), "enter": "on"})
    assert response.status_code in (200, 422)
    assert not Player.objects.exists()
