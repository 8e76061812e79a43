"""The bodies API v1's writes take (issue 33 item 11): a body that is not JSON, or JSON of the wrong shape or types,
answers 422 in the one documented shape of a refused request, `{"detail": [...]}` as pydantic words each problem
(the schema declares it), never an undeclared 400; and a JSON boolean is not an id (strict types: `true` was read
as player 1)."""
import pytest
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from championships.api_tokens import create_token
from championships.models import Entry, StaffRole
from championships.services import assign_staff
from tests.factories import make_admin, make_entries, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client):
    """(post, the tournament, a player its organizer may enter): `post(path, raw body)` with the organizer's token,
    the answer checked against the API's own OpenAPI schema."""
    tournament = make_tournament(slug="bodies-cup")
    organizer = make_user("bodies-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    (known,) = make_entries(make_tournament(championship=tournament.championship), 1)
    _row, token = create_token(tournament.championship, "Federation", user=organizer)
    spec = OpenAPI.from_dict(client.get("/api/v1/openapi.json").json())

    def post(what: str, body: bytes):
        response = client.post(f"/api/v1/tournaments/{tournament.slug}/{what}/", body, content_type="application/json",
                               HTTP_AUTHORIZATION=f"Bearer {token}")
        spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
        return response
    return post, tournament, known.player


UNREADABLE = [b"{", b"{'player_ids': [1]}", b"\xff\xfe", b"[" * 100_000, b'{"player_ids": [1],}', b"NaN x"]


@pytest.mark.parametrize("body", UNREADABLE, ids=["cut", "quotes", "not-utf8", "deep", "trailing-comma", "junk"])
@pytest.mark.parametrize("what", ["entries", "players/import"])
def test_a_body_that_is_not_json_is_refused_in_the_documented_shape(api, what, body):
    post, tournament, _player = api
    response = post(what, body)
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["type"] == "json_invalid" and problem["loc"] == ["body"]
    assert problem["msg"].startswith("The body is not JSON: ")
    assert not tournament.entries.exists()


@pytest.mark.parametrize("body", [b"[1]", b'"x"', b"null", b"42", b"{}", b'{"player_ids": "1"}'])
def test_json_of_another_shape_is_refused_in_the_same_shape(api, body):
    post, tournament, _player = api
    response = post("entries", body)
    assert response.status_code == 422 and all({"type", "loc", "msg"} <= p.keys() for p in response.json()["detail"])
    assert not tournament.entries.exists()


@pytest.mark.parametrize("ids", ["[true]", "[false]", '["{pk}"]', "[{pk}.5]"])
def test_an_id_is_a_json_integer_and_nothing_else(api, ids):
    """`true` was taken as 1 and `"7"` as 7 (pydantic's lax mode): ids are strict integers."""
    post, tournament, player = api
    response = post("entries", b'{"player_ids": %s}' % ids.format(pk=player.pk).encode())
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["type"] == "int_type" and problem["loc"][-2:] == ["player_ids", 0]
    assert not Entry.objects.filter(tournament=tournament).exists()
    entered = post("entries", b'{"player_ids": [%d]}' % player.pk)
    assert entered.status_code == 200 and [e["player_id"] for e in entered.json()["entered"]] == [player.pk]


def test_a_whole_number_written_with_a_point_is_an_integer(api):
    """JSON Schema counts 7.0 an integer, so tools that follow the schema may send it (schemathesis does)."""
    post, tournament, player = api
    entered = post("entries", b'{"player_ids": [%d.0]}' % player.pk)
    assert entered.status_code == 200 and [e["player_id"] for e in entered.json()["entered"]] == [player.pk]


def test_the_list_is_strict_text(api):
    post, tournament, _player = api
    response = post("players/import", b'{"csv": ["name", "Ann"]}')
    assert response.status_code == 422 and response.json()["detail"][0]["type"] == "string_type"
    assert not tournament.entries.exists()
