"""API v1 as an integrator's tooling sees it (issue 38 item 1): schemathesis generates requests from the published
OpenAPI schema, valid and invalid, for every operation, and runs every check on each answer (no server error, the
status, content type, headers and body documented, invalid input refused, valid input accepted, authentication
enforced), anonymously and with an organizer's API token; then its stateful run, chains of requests along the
schema's links. A bounded number of examples keeps it to about a minute and a half on two cores (it is `slow`)."""
import json

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from ninja.responses import NinjaJSONEncoder
from schemathesis.checks import CHECKS, load_all_checks

from championships.api_tokens import create_token
from championships.models import StaffRole
from championships.services import assign_staff
from results.announcements import post_announcement
from tests.factories import make_admin, make_entries, make_game, make_tournament, make_user, play
from web.api.views import api

pytestmark = pytest.mark.django_db

EXAMPLES = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
"""Per operation and phase: enough to hit every parameter's edges (the coverage phase adds the named ones)."""
PLAIN = {"Accept-Encoding": "identity"}
"""Answers uncompressed: the WSGI transport hands schemathesis the bytes as sent (an HTTP client would unzip)."""


@pytest.fixture
def world(settings):
    """A championship with a running tournament (a game of 8 on two tables, one signed off, an announcement) and
    an organizer's token."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]
    admin = make_admin()
    tournament = make_tournament(slug="fuzz-cup", name="Fuzz Cup")
    entries = make_entries(tournament, 8)
    play(make_game(tournament, [entries[:4], entries[4:]]).tables.get(number=1), [10, 8, 6, 4], admin)
    post_announcement(tournament.pk, "Table 2 moved to the terrace.", user=admin)
    organizer = make_user("fuzz-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=admin)
    _made, token = create_token(tournament.championship, "Fuzzer", user=organizer)
    # The application made with this test's settings, kept from closing the test's database connection after each
    # request, as Django's test client keeps it.
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield {"app": WSGIHandler(), "token": token}
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


TOML = """
# The two writes check more than a schema can say (that a player id is one the token's owner may enter, that the
# CSV text is a list of players): a request valid by the schema may be refused 422, in the documented shape.
[[operations]]
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]
"""
CONFIG = schemathesis.Config.from_str(TOML)


def _schema():
    """The schema as /api/v1/openapi.json serves it; its requests go to the WSGI application (`world`)."""
    document = json.loads(json.dumps(api.get_openapi_schema(), cls=NinjaJSONEncoder))
    return schemathesis.openapi.from_dict(document, config=CONFIG)


schema = _schema()


def test_every_check_is_on_for_every_operation_in_every_phase():
    """Nothing here turns a check off: each of schemathesis' built-in checks runs on every answer, the stateful
    ones (use after free, resource availability, object-level authorization) included."""
    load_all_checks()
    names = [check.__name__ for check in CHECKS.get_all()]
    assert {"not_a_server_error", "ignored_auth", "use_after_free", "positive_data_acceptance"} <= set(names)
    for operation in (result.ok() for result in schema.get_all_operations()):
        for phase in (None, "examples", "coverage", "fuzzing", "stateful"):
            config = schema.config.checks_config_for(operation=operation, phase=phase)
            assert [name for name in names if not config.get_by_name(name=name).enabled] == [], operation.label


@schema.parametrize()
@EXAMPLES
def test_every_operation_anonymously(case, world):
    case.call_and_validate(app=world["app"], headers=PLAIN)


@schema.parametrize()
@EXAMPLES
def test_every_operation_with_a_token(case, world):
    case.call_and_validate(app=world["app"], headers={**PLAIN, "Authorization": f"Bearer {world['token']}"})


JOURNEYS = settings(max_examples=80, stateful_step_count=10, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck), phases=[Phase.generate])
"""Scenarios and steps of the stateful run: bounded (about 700 requests a run), so the two runs take about 30 s
together on two cores."""


@pytest.mark.parametrize("token", [False, True], ids=["anonymously", "with_a_token"])
def test_journeys_along_the_links_between_operations(world, token):
    """Schemathesis' stateful testing: chains of calls that feed one answer's values (a slug, a game number, a
    player id) into the next request, along the schema's links (web/api/links.py), every check on every answer. The
    schema is read from the application as an integrator reads it; with a token schemathesis signs its requests as
    the bearer scheme says, and knows it did (its authentication checks then try them without, and with a wrong
    one)."""
    auth = f'\n[auth.openapi.OrganizerToken]\nbearer = "{world["token"]}"\n' if token else ""
    served = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", world["app"],
                                            config=schemathesis.Config.from_str(TOML + auth))
    machine = served.as_state_machine()
    steps: list[str] = []

    class Journeys(machine):  # type: ignore[misc,valid-type]
        def get_call_kwargs(self, case):
            return {"headers": PLAIN}

        def after_call(self, response, case):
            super().after_call(response, case)
            steps.append(f"{case.method} {case.formatted_path}")

    Journeys.run(settings=JOURNEYS)
    reached = {step.split("/fuzz-cup")[1].split("/")[1] for step in steps if "/tournaments/fuzz-cup/" in step}
    # It went along the links: from the list to a tournament's own operations, and from its games to their seating.
    assert len(steps) >= 300 and {"standings", "games", "players", "announcements"} <= reached, reached
    assert any("/tournaments/fuzz-cup/games/" in step and "/seating/" in step for step in steps)
