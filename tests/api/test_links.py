"""The OpenAPI links of API v1 (web/api/links.py): each names an operation the document has, fills exactly that
operation's path parameters, and the values it names are in the answers it starts from."""
import re

import pytest

from tests.factories import make_entries, make_game, make_tournament
from web.api.views import api

pytestmark = pytest.mark.django_db


def operations(document):
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_link_names_an_operation_and_fills_its_path_parameters():
    document = api.get_openapi_schema()
    by_id = {operation["operationId"]: path for path, _method, operation in operations(document)}
    links = [(path, link) for path, _method, operation in operations(document)
             for answer in operation["responses"].values() for link in answer.get("links", {}).values()]
    assert len(links) == 19  # 1 + 8 + 7 + 3: web/api/links.py
    for source, link in links:
        target = by_id[link["operationId"]]
        assert set(link["parameters"]) == set(re.findall(r"{(\w+)}", target)), (source, target)
        for expression in link["parameters"].values():
            assert expression.startswith(("$request.path.", "$response.body#/"))
            if expression.startswith("$request.path."):
                assert "{" + expression.removeprefix("$request.path.") + "}" in source


def test_the_values_the_links_name_are_where_the_answers_put_them(client):
    tournament = make_tournament(slug="linked")
    entries = make_entries(tournament, 4)
    make_game(tournament, [entries])
    first = client.get("/api/v1/tournaments/").json()["results"][0]
    assert first["slug"] == "linked"
    assert client.get("/api/v1/tournaments/linked/games/").json()["results"][0]["number"] == 1
    player = client.get("/api/v1/tournaments/linked/players/").json()["results"][0]["player_id"]
    assert client.get(f"/api/v1/tournaments/linked/players/{player}/").status_code == 200
