"""Organizers' API tokens (issue 27 item 2): made and revoked on the championship's console, stored hashed, scoped
to one championship; writes through them are the owner's, audited as theirs; refusals answer in JSON."""
import hashlib

import pytest
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from audit.models import AuditEntry
from championships.models import ApiToken, Entry, Player, StaffRole
from championships.services import assign_staff
from tests.factories import make_admin, make_entries, make_game, make_tournament, make_user, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    """A championship with a tournament (a game of 4, signed off) and its organizer; another championship."""
    tournament = make_tournament(slug="token-cup")
    organizer = make_user("token-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    play(make_game(tournament, [make_entries(tournament, 4)]).tables.get(), [10, 8, 6, 4], make_admin())
    return tournament, organizer, make_tournament(slug="token-elsewhere")


def made_token(client, tournament, organizer, name="Federation website") -> str:
    client.force_login(organizer)
    page = client.post(f"/organize/championships/{tournament.championship.slug}/api-tokens/", {"name": name})
    assert page.status_code == 200
    return page.context["made_token"]


def bearer(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def checked(client, response):
    spec = OpenAPI.from_dict(client.get("/api/v1/openapi.json").json())
    spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
    return response.json()


def test_a_token_is_shown_once_and_stored_as_its_digest(client, cup):
    tournament, organizer, _other = cup
    token = made_token(client, tournament, organizer)
    stored = ApiToken.objects.get()
    assert token.startswith("catan_") and len(token) > 40
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest() and token not in str(stored.__dict__)
    listing = client.get(f"/organize/championships/{tournament.championship.slug}/api-tokens/").content.decode()
    assert "Federation website" in listing and token not in listing and f"catan_{stored.hint}" in listing
    assert AuditEntry.objects.filter(action="token.created", user=organizer).exists()


def test_entering_players_is_audited_as_the_tokens_owner(client, cup):
    tournament, organizer, _other = cup
    token = made_token(client, tournament, organizer)
    client.logout()
    newcomer = Player.objects.create(name="Newcomer")
    Entry.objects.create(tournament=_other, player=newcomer)  # seen by nobody here yet: not theirs to enter
    response = client.post(f"/api/v1/tournaments/{tournament.slug}/entries/", {"player_ids": [newcomer.pk]},
                           content_type="application/json", **bearer(token))
    assert response.status_code == 422 and "No player you may enter" in checked(client, response)["detail"]
    known = make_entries(make_tournament(championship=tournament.championship, slug="token-earlier"), 1)[0].player
    response = client.post(f"/api/v1/tournaments/{tournament.slug}/entries/", {"player_ids": [known.pk]},
                           content_type="application/json", **bearer(token))
    assert response.status_code == 200, response.content
    assert [e["player_id"] for e in checked(client, response)["entered"]] == [known.pk]
    entry = Entry.objects.get(tournament=tournament, player=known)
    assert AuditEntry.objects.get(action="entry.registered", object_id=entry.pk).user == organizer


def test_importing_a_list_registers_enters_and_refuses_a_bad_list_whole(client, cup):
    tournament, organizer, _other = cup
    token = made_token(client, tournament, organizer)
    url = f"/api/v1/tournaments/{tournament.slug}/players/import/"
    good = "name,email,date_of_birth,country,friends_or_family\nAda Lovelace,ada@example.org,1990-12-10,GB,Bob Ross\n" \
           "Bob Ross,bob@example.org,1991-01-02,US,\n"
    response = client.post(url, {"csv": good}, content_type="application/json", **bearer(token))
    assert response.status_code == 200, response.content
    assert sorted(e["player"] for e in checked(client, response)["entered"]) == ["Ada Lovelace", "Bob Ross"]
    assert "ada@example.org" not in response.content.decode()  # what went in is not echoed
    assert AuditEntry.objects.filter(action="player.registered", user=organizer).count() == 2
    bad = "name,email,date_of_birth,country,friends_or_family\nCleo,cleo@example.org,1990-01-01,XX,Nobody Here\n"
    refused = client.post(url, {"csv": bad}, content_type="application/json", **bearer(token))
    body = checked(client, refused)
    assert refused.status_code == 422 and {p["column"] for p in body["problems"]} >= {"friends_or_family"}
    assert not Player.objects.filter(name="Cleo").exists()


def test_reading_results(client, cup):
    tournament, organizer, _other = cup
    token = made_token(client, tournament, organizer)
    client.logout()
    body = checked(client, client.get(f"/api/v1/tournaments/{tournament.slug}/results/", **bearer(token)))
    (table,) = body["results"]
    assert (table["game"], table["table"]) == (1, 1) and [s["vp"] for s in table["scores"]] == [10, 8, 6, 4]


def test_refusals_answer_in_json(client, cup):
    tournament, organizer, other = cup
    token = made_token(client, tournament, organizer)
    client.logout()
    results = f"/api/v1/tournaments/{tournament.slug}/results/"
    for headers in ({}, bearer("catan_not-a-real-token"), bearer("x")):
        response = client.get(results, **headers)
        assert response.status_code == 401 and checked(client, response) == {"detail": "Unauthorized"}
    elsewhere = client.get(f"/api/v1/tournaments/{other.slug}/results/", **bearer(token))
    assert elsewhere.status_code == 403
    assert checked(client, elsewhere) == {"detail": "This token is for another championship."}
    entering = client.post(f"/api/v1/tournaments/{other.slug}/entries/", {"player_ids": [1]},
                           content_type="application/json", **bearer(token))
    assert entering.status_code == 403 and entering.json()["detail"] == "This token is for another championship."
    StaffRole.objects.filter(user=organizer).delete()  # no longer an organizer: the token stops working
    assert client.get(results, **bearer(token)).status_code == 401


def test_a_revoked_token_stops_working_at_once(client, cup):
    tournament, organizer, _other = cup
    token = made_token(client, tournament, organizer)
    results = f"/api/v1/tournaments/{tournament.slug}/results/"
    assert client.get(results, **bearer(token)).status_code == 200
    page = client.post(f"/organize/championships/{tournament.championship.slug}/api-tokens/",
                       {"revoke": ApiToken.objects.get().pk})
    assert page.status_code == 302
    assert client.get(results, **bearer(token)).status_code == 401
    assert AuditEntry.objects.filter(action="token.revoked", user=organizer).exists()


def test_only_the_championships_organizers_manage_its_tokens(client, cup):
    tournament, organizer, other = cup
    client.force_login(make_user("token-outsider"))
    url = f"/organize/championships/{tournament.championship.slug}/api-tokens/"
    assert client.get(url).status_code == 403 and client.post(url, {"name": "Mine"}).status_code == 403
    assert not ApiToken.objects.exists()
