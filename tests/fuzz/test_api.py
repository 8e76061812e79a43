"""API v1's writes fed hostile bodies (issue 33 item 11): raw bytes, JSON of any shape, and near-valid bodies with
the wrong JSON types. Properties: never a server error, every answer one the OpenAPI schema declares, nothing
written when refused, and an id is entered only when it was a JSON integer (`true` is not player 1)."""
import json

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from championships.api_tokens import create_token
from championships.models import StaffRole
from championships.services import assign_staff
from tests.db_snapshot import changed, snapshot
from tests.factories import make_admin, make_entries, make_tournament, make_user
from tests.fuzz.scale import SCALE

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=40 * SCALE, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                    st.text(max_size=12))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=12)


@pytest.fixture
def writes():
    """(client, headers, tournament, ids the owner may enter) for the token of the tournament's organizer."""
    tournament = make_tournament(slug="fuzz-api")
    organizer = make_user("fuzz-api-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    known = [e.player_id for e in make_entries(make_tournament(championship=tournament.championship), 3)]
    _row, token = create_token(tournament.championship, "Fuzz", user=organizer)
    return Client(), {"HTTP_AUTHORIZATION": f"Bearer {token}"}, tournament, known


def bodies(known: list[int]) -> st.SearchStrategy[bytes]:
    ids = st.one_of(st.sampled_from(known), st.sampled_from([True, False, 1, 0, -1, 2**63, 10**30, 1.0]),
                    st.sampled_from(known).map(str), st.sampled_from(known).map(float), scalars)
    near = st.one_of(st.fixed_dictionaries({"player_ids": st.one_of(st.lists(ids, max_size=4), json_values)}),
                     st.fixed_dictionaries({"csv": st.one_of(st.sampled_from(["name\nAnn Lee\n", ""]), json_values)}))
    as_json = st.one_of(near, near, json_values).map(lambda value: json.dumps(value).encode())
    return st.one_of(as_json, as_json, as_json, st.binary(max_size=40),
                     st.sampled_from([b"{", b"[" * 5000, b"\xff", b'{"player_ids": [1],}', b"NaN", b"Infinity"]))


@pytest.mark.parametrize("what", ["entries", "players/import"])
def test_a_write_survives_any_body_and_answers_as_documented(writes, what):
    client, headers, tournament, known = writes
    spec = OpenAPI.from_dict(client.get("/api/v1/openapi.json").json())
    path = f"/api/v1/tournaments/{tournament.slug}/{what}/"

    @FUZZ
    @given(body=bodies(known))
    def post(body):
        with transaction.atomic():
            before = snapshot()
            response = client.post(path, body, content_type="application/json", **headers)
            after = snapshot()
            transaction.set_rollback(True)
        event(str(response.status_code))
        assert response.status_code < 500
        spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
        if response.status_code != 200:
            assert not changed(before, after), (body, response.status_code, changed(before, after))
        elif what == "entries":
            sent = json.loads(body)["player_ids"]
            assert all(type(pk) is int for pk in sent), (body, "entered ids that were not JSON integers")

    post()
