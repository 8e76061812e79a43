"""A client generated from API v1's schema works (issue 38 item 5): openapi-python-client writes a typed Python
package from /api/v1/openapi.json, as an integrator would, and through it, over HTTP to a live server, a script
reads the standings and, with an organizer's token, imports players. A fresh interpreter's generator and a real
server: `slow`."""
import importlib
import subprocess
import sys
from pathlib import Path
from urllib.request import urlopen

import pytest
from django.test import override_settings

from championships.api_tokens import create_token
from championships.models import Entry, StaffRole
from championships.services import assign_staff
from tests.factories import make_admin, make_entries, make_game, make_tournament, make_user, play

pytestmark = pytest.mark.django_db(transaction=True)

CONFIG = "post_hooks: []\npackage_name_override: catan_client\nproject_name_override: catan_client\n"
"""No formatter run over the generated code (the test reads it, nobody edits it)."""


@pytest.fixture(scope="session")
def plain_http():
    """The live server builds its middleware once, before function-scoped settings apply: plain HTTP (as the
    browser tests' live server)."""
    with override_settings(SECURE_SSL_REDIRECT=False, SESSION_COOKIE_SECURE=False, CSRF_COOKIE_SECURE=False,
                           SECURE_HSTS_SECONDS=0):
        yield


@pytest.fixture
def catan_client(plain_http, tmp_path, live_server, monkeypatch):
    """The generated package, imported, from the schema the live server publishes."""
    schema = tmp_path / "openapi.json"
    with urlopen(f"{live_server.url}/api/v1/openapi.json", timeout=30) as answer:
        schema.write_bytes(answer.read())
    (tmp_path / "config.yml").write_text(CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run([generator, "generate", "--path", schema, "--output-path", tmp_path / "catan_client", "--meta",
                    "none", "--config", tmp_path / "config.yml"], check=True, capture_output=True, timeout=120)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("catan_client")
    for name in [name for name in sys.modules if name.split(".")[0] == "catan_client"]:
        del sys.modules[name]


def test_a_generated_client_reads_standings_and_imports_players(catan_client, live_server):
    tournament = make_tournament(slug="client-cup")
    play(make_game(tournament, [make_entries(tournament, 4)]).tables.get(), [10, 8, 6, 4], make_admin())
    organizer = make_user("client-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    _made, token = create_token(tournament.championship, "Generated client", user=organizer)
    standings = importlib.import_module("catan_client.api.default.web_api_views_standings")
    importing = importlib.import_module("catan_client.api.organizers_api_token.web_api_organizer_import_players")
    models = importlib.import_module("catan_client.models")

    page = standings.sync("client-cup", client=catan_client.Client(base_url=live_server.url), page_size=2)
    assert isinstance(page, models.PageStandingRow)
    assert (page.count, page.pages, [row.rank for row in page.results]) == (4, 2, [1, 2])
    assert page.results[0].player == tournament.entries.get(seats__position=1).player.name

    authorized = catan_client.AuthenticatedClient(base_url=live_server.url, token=token)
    csv = "name,email,date_of_birth,country,friends_or_family\nAda Lovelace,ada@example.org,1990-12-10,GB,\n"
    entered = importing.sync("client-cup", client=authorized, body=models.PlayersIn(csv=csv))
    assert isinstance(entered, models.Entered) and [e.player for e in entered.entered] == ["Ada Lovelace"]
    assert Entry.objects.filter(tournament=tournament, player__name="Ada Lovelace").exists()

    refused = importing.sync("client-cup", client=catan_client.AuthenticatedClient(base_url=live_server.url,
                                                                                     token="catan_wrong"),
                             body=models.PlayersIn(csv=csv))
    assert isinstance(refused, models.Error) and refused.detail == "Unauthorized"
