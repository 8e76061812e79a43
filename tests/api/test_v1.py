"""API v1 (issue 27): every answer checked against the OpenAPI schema the API publishes, ETags and 304, CORS on
GET only, 404 in JSON, no personal data, and a fixed number of queries however many tables or players."""
import json
from datetime import date

import pytest
from django.urls import reverse
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from openapi_spec_validator import validate

from championships.models import Player
from engines.boards.generator import generate_board
from results.announcements import post_announcement
from scheduling.models import Game
from tests.factories import make_admin, make_entries, make_game, make_tournament, play
from tests.site import open_link
from web.api.http import MAX_PAGE_SIZE

pytestmark = pytest.mark.django_db

EMAIL = "api-player-{n}@example.org"
BORN = date(1977, 3, 4)


@pytest.fixture
def world():
    """A running qualifier of 8: game 1 published, table 1 signed off, an announcement; a second game planned."""
    admin = make_admin()
    tournament = make_tournament(slug="api-cup", name="API Cup", venue="Hall 3", games=2)
    entries = make_entries(tournament, 8, born=BORN)
    for n, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(email=EMAIL.format(n=n))
    game = make_game(tournament, [entries[:4], entries[4:]])
    Game.objects.filter(pk=game.pk).update(board_code=generate_board(7).code)
    play(game.tables.get(number=1), [10, 8, 6, 4], admin)
    Game.objects.create(tournament=tournament, stage=game.stage, number=2, status=Game.Status.PLANNED)
    post_announcement(tournament.pk, "Table 2 moved to the terrace.", user=admin)
    return tournament, entries


@pytest.fixture
def spec(client):
    schema = client.get("/api/v1/openapi.json").json()
    validate(schema)  # the document itself is valid OpenAPI
    return OpenAPI.from_dict(schema)


def addresses(tournament, entries) -> list[str]:
    """Every operation of the API, with real objects."""
    slug, player = tournament.slug, entries[0].player_id
    return ["/api/v1/", "/api/v1/championships/", f"/api/v1/championships/{tournament.championship.slug}/",
            "/api/v1/tournaments/", f"/api/v1/tournaments/{slug}/", f"/api/v1/tournaments/{slug}/standings/",
            f"/api/v1/tournaments/{slug}/games/", f"/api/v1/tournaments/{slug}/games/1/seating/",
            f"/api/v1/tournaments/{slug}/players/", f"/api/v1/tournaments/{slug}/players/{player}/",
            f"/api/v1/tournaments/{slug}/announcements/", f"/api/v1/boards/{generate_board(7).code}/"]


def checked(spec, response):
    """The answer, after openapi-core found it matches what the schema documents for its path and status."""
    spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
    return response.json()


def test_every_operation_is_documented_and_answers_as_documented(client, spec, world):
    tournament, entries = world
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    public = {path for path, operations in paths.items() if "get" in operations and "security" not in operations["get"]}
    assert len(public) == len(addresses(*world))  # the organizers' operations: tests/api/test_tokens.py
    for address in addresses(*world):
        response = client.get(address)
        assert response.status_code == 200, address
        checked(spec, response)
    assert client.get("/api/v1/docs").status_code == 200


def test_the_old_shapes_are_kept(client, spec, world):
    tournament, entries = world
    slug = tournament.slug
    old = client.get("/api/tournaments/").json()
    assert checked(spec, client.get("/api/v1/tournaments/"))["results"] == old
    old_standings = client.get(f"/api/tournaments/{slug}/standings/").json()
    new = checked(spec, client.get(f"/api/v1/tournaments/{slug}/standings/"))
    assert new["results"] == old_standings and new["count"] == 8
    old_seating = client.get(f"/api/tournaments/{slug}/games/1/seating/").json()
    seating = checked(spec, client.get(f"/api/v1/tournaments/{slug}/games/1/seating/"))
    assert {k: v for k, v in seating.items() if k in old_seating} == old_seating
    assert seating["board"] == generate_board(7).code and seating["tables"][0]["seats"][0]["winner"] is True
    assert "vp" not in seating["tables"][1]["seats"][0]  # not signed off: no result yet, as before


def test_the_old_paths_say_they_are_deprecated_and_name_their_successor(client, world):
    tournament, entries = world
    for path in ("tournaments/", f"tournaments/{tournament.slug}/standings/",
                 f"tournaments/{tournament.slug}/games/1/seating/"):
        old, new = f"/api/{path}", f"/api/v1/{path}"
        response = client.get(old)
        assert response.status_code == 200 and response["Deprecation"] == "@1795651200"  # 2026-11-26
        assert response["Link"] == f'<https://catan.example{new}>; rel="successor-version"'
        assert client.get(new).status_code == 200


def test_a_player_a_game_list_and_the_announcements(client, spec, world):
    tournament, entries = world
    slug, winner = tournament.slug, entries[0]
    page = checked(spec, client.get(f"/api/v1/tournaments/{slug}/players/{winner.player_id}/"))
    assert page["standing"]["rank"] == 1 and page["games"][0]["winner"] is True
    assert [o["player_id"] for o in page["games"][0]["opponents"]] == [e.player_id for e in entries[1:4]]
    games = checked(spec, client.get(f"/api/v1/tournaments/{slug}/games/"))
    assert [(g["number"], g["tables"], g["signed_off"]) for g in games["results"]] == [(1, 2, 1)]  # 2 is planned
    notes = checked(spec, client.get(f"/api/v1/tournaments/{slug}/announcements/"))
    assert [n["text"] for n in notes["results"]] == ["Table 2 moved to the terrace."]
    detail = checked(spec, client.get(f"/api/v1/tournaments/{slug}/"))
    assert detail["venue"] == "Hall 3" and detail["players"] == 8 and detail["stages"][0]["games"] == 2


def test_lists_come_in_pages_of_at_most_the_maximum(client, spec, world):
    tournament, entries = world
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    first = checked(spec, client.get(url, {"page_size": 3}))
    assert (first["count"], first["page"], first["pages"], len(first["results"])) == (8, 1, 3, 3)
    assert first["previous"] is None and first["next"] == f"https://catan.example{url}?page_size=3&page=2"
    last = checked(spec, client.get(url, {"page_size": 3, "page": 99}))  # past the last: the last
    assert (last["page"], len(last["results"]), last["next"]) == (3, 2, None)
    second = checked(spec, open_link(client, first["next"]))["results"]
    assert [r["rank"] for r in first["results"] + second] == sorted(r["rank"] for r in first["results"] + second)
    tables = checked(spec, client.get(f"/api/v1/tournaments/{tournament.slug}/games/1/seating/", {"page_size": 1,
                                                                                                  "page": 2}))
    assert [t["number"] for t in tables["tables"]] == [2] and tables["count"] == 2
    for wrong in ({"page_size": MAX_PAGE_SIZE + 1}, {"page_size": 0}, {"page": "x"}):
        assert client.get(url, wrong).status_code == 422


def test_a_tournament_answer_is_304_while_its_results_are_the_same(client, world, django_capture_on_commit_callbacks):
    tournament, entries = world
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    first = client.get(url)
    etag = first["ETag"]
    assert etag and {"max-age=0", "must-revalidate"} <= set(first["Cache-Control"].split(", "))  # revalidated each time
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and not again.content
    with django_capture_on_commit_callbacks(execute=True):
        play(Game.objects.get(tournament=tournament, number=1).tables.get(number=2), [10, 9, 2, 2], make_admin())
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert [r["wins"] for r in changed.json()["results"]][:2] == [1, 1]
    listing = client.get("/api/v1/tournaments/")  # not a tournament's: an ETag of the answer itself
    assert client.get("/api/v1/tournaments/", HTTP_IF_NONE_MATCH=listing["ETag"]).status_code == 304


def test_cors_on_get_only_and_without_credentials(client, world):
    tournament, entries = world
    for address in addresses(*world) + ["/api/v1/openapi.json", "/api/v1/tournaments/nope/"]:
        response = client.get(address, HTTP_ORIGIN="https://federation.example")
        assert response["Access-Control-Allow-Origin"] == "*", address
        assert "ETag" in response["Access-Control-Expose-Headers"]
        assert not response.has_header("Access-Control-Allow-Credentials")
    url = f"/api/v1/tournaments/{tournament.slug}/standings/"
    for refused in (client.post(url, HTTP_ORIGIN="https://federation.example"), client.options(url)):
        assert refused.status_code == 405 and not refused.has_header("Access-Control-Allow-Origin")


def test_unknown_objects_answer_404_in_json(client, spec, world):
    tournament, entries = world
    slug = tournament.slug
    for address, detail in (
            ("/api/v1/tournaments/nope/", "No tournament with that slug."),
            ("/api/v1/tournaments/nope/standings/", "No tournament with that slug."),
            ("/api/v1/tournaments/nope/games/1/seating/", "No tournament with that slug."),
            (f"/api/v1/tournaments/{slug}/games/2/seating/", "No published game with that number."),  # planned
            (f"/api/v1/tournaments/{slug}/players/999999/", "No such player in this tournament."),
            ("/api/v1/championships/nope/", "No championship with that slug."),
            ("/api/v1/boards/not-a-board/", "No legal board with that code.")):
        response = client.get(address)
        assert response.status_code == 404 and response["Content-Type"].startswith("application/json"), address
        assert checked(spec, response) == {"detail": detail}


def test_no_answer_holds_personal_data(client, world):
    tournament, entries = world
    for address in addresses(*world):
        text = client.get(address).content.decode()
        assert "@example.org" not in text and BORN.isoformat() not in text
        assert "email" not in text and "date_of_birth" not in text and "birth" not in text
    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    fields = {name for schema in schemas.values() for name in schema.get("properties", {})}
    assert not fields & {"email", "date_of_birth", "token", "digest"}


@pytest.mark.parametrize("tables", [2, 12])
def test_lists_take_a_fixed_number_of_queries(client, tables, django_assert_max_num_queries):
    tournament = make_tournament(slug=f"api-q{tables}")
    entries = make_entries(tournament, 4 * tables)
    make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)])
    for address in (f"/api/v1/tournaments/{tournament.slug}/standings/",
                    f"/api/v1/tournaments/{tournament.slug}/games/1/seating/",
                    f"/api/v1/tournaments/{tournament.slug}/players/", f"/api/v1/tournaments/{tournament.slug}/games/",
                    f"/api/v1/tournaments/{tournament.slug}/announcements/", "/api/v1/tournaments/",
                    "/api/v1/championships/"):
        with django_assert_max_num_queries(8):
            assert client.get(address).status_code == 200, address


def test_the_docs_page_loads_its_assets_from_our_own_static_files(client):
    page = client.get(reverse("api-v1:openapi-view")).content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page and "/static/ninja/swagger-ui.css" in page
    assert "cdn" not in page.lower() and "https://" not in page
    assert json.loads(page.split('id="swagger-settings">')[1].split("</script>")[0])["url"] == "/api/v1/openapi.json"


def test_every_refusal_under_api_v1_is_json(client, world):
    """A non-numeric id, a malformed query value, an address naming no operation and a method an operation does not
    take: JSON in the one shape, never Django's HTML pages."""
    tournament, _entries = world
    slug = tournament.slug
    for address, status in [(f"/api/v1/tournaments/{slug}/players/abc/", 422),
                            (f"/api/v1/tournaments/{slug}/games/0/seating/", 422),
                            (f"/api/v1/tournaments/{slug}/players/?page_size=null", 422),
                            ("/api/v1/no-such-thing/", 404), ("/api/v1/tournaments/a/b/c/", 404)]:
        response = client.get(address)
        assert (response.status_code, response["Content-Type"]) == (status, "application/json; charset=utf-8"), address
        assert "detail" in response.json()
    refused = client.delete(f"/api/v1/tournaments/{slug}/")
    assert refused.status_code == 405 and refused.json()["detail"] and refused["Allow"] == "GET"
