"""A championship's activity log: the changes to the championship as a whole (organizers, API tokens, webhooks,
board limits, a webhook the site turned off), its organizers only, as CSV too; earlier entries find their
championship when the column is added."""
import csv
import importlib
import io

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit.actions import Action
from audit.models import AuditEntry
from audit.services import record_change
from championships.api_tokens import create_token
from championships.models import StaffRole
from championships.services import assign_staff
from engines.boards import fairness
from scheduling.boards import set_board_limits
from tests.factories import make_admin, make_tournament, make_user
from webhooks import services as webhooks
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship_and_organizer():
    tournament = make_tournament(slug="activity-cup")
    organizer = make_user("cup-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    return tournament, organizer


def page(championship, suffix: str = "") -> str:
    return reverse(f"championship-activity{suffix}", args=[championship.slug])


def test_the_championships_own_changes_are_listed_and_no_tournaments(client, championship_and_organizer, settings):
    settings.OUTBOUND_LOCAL_ALLOWED = True
    tournament, organizer = championship_and_organizer
    championship = tournament.championship
    hook = webhooks.add_webhook(championship, "https://hooks.example.org/catan", ["game.published"], user=organizer)
    create_token(championship, "Federation site", user=organizer)
    set_board_limits(championship.pk, [fairness.BALANCED_PIPS], user=organizer)
    assign_staff(make_user("second-organizer"), StaffRole.Role.ORGANIZER, championship=championship, user=organizer)
    record_change(None, None, Action.WEBHOOK_FAILING, hook, after={"url": hook.url}, championship_id=championship.pk,
                  reason="5 deliveries in a row failed.")
    record_change(organizer, tournament.pk, Action.TOURNAMENT_STATUS, tournament, before={"status": "running"},
                  after={"status": "finished", "automatic": True},
                  championship_id=championship.pk)  # a tournament's change stays in the tournament's log
    other = make_tournament(slug="elsewhere-cup").championship
    record_change(organizer, None, Action.BOARD_LIMITS, other, before={"limits": [fairness.BALANCED_PIPS]},
                  after={"limits": []}, championship_id=other.pk)

    client.force_login(organizer)
    html = client.get(page(championship)).content.decode()
    assert html.count('class="activity-entry') == 6  # with the fixture's organizer appointed
    assert "Webhook added: <bdi>https://hooks.example.org/catan</bdi>" in html and "API token created" in html
    assert "Fairness limits for random boards" in html and "<bdi>second-organizer</bdi> appointed organizer" in html
    assert "the site, by itself" in html and "Reason: <bdi>5 deliveries in a row failed.</bdi>" in html
    entries = AuditEntry.objects.filter(championship=championship)
    assert entries.count() == 6 and not entries.filter(tournament__isnull=False).exists()
    assert "Webhook added" not in client.get(reverse("activity-log", args=[tournament.slug])).content.decode()

    rows = list(csv.reader(io.StringIO(client.get(page(championship, "-csv")).content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["at", "user", "action"]
    assert sorted(row[2] for row in rows[1:]) == ["board.limits", "staff.assigned", "staff.assigned",
                                                  "token.created", "webhook.added", "webhook.failing_turned_off"]
    workbook = client.get(page(championship, "-xlsx"))
    assert workbook.status_code == 200 and workbook["Content-Type"].startswith("application/vnd.openxmlformats")
    assert client.get(page(championship) + "?kind=webhook").content.decode().count('class="activity-entry') == 2


def test_only_the_championships_organizers_see_it(client, championship_and_organizer):
    tournament, _organizer = championship_and_organizer
    assert client.get(page(tournament.championship)).status_code == 302  # to sign in
    stranger = make_user("other-organizer")
    assign_staff(stranger, StaffRole.Role.ORGANIZER, championship=make_tournament(slug="other-cup").championship,
                 user=make_admin())
    client.force_login(stranger)
    assert client.get(page(tournament.championship)).status_code == 403
    assert client.get(page(tournament.championship, "-csv")).status_code == 403


def test_earlier_entries_find_their_championship(championship_and_organizer):
    tournament, organizer = championship_and_organizer
    championship = tournament.championship
    hook = Webhook.objects.create(championship=championship, url="https://x.example.org/", secret="s",
                                  created_by=organizer)
    before = [AuditEntry.objects.create(user=organizer, action=action, object_type=kind, object_id=pk)
              for action, kind, pk in [("webhook.added", "webhook", hook.pk),
                                       ("championship.created", "championship", championship.pk),
                                       ("webhook.removed", "webhook", 10 ** 9)]]  # removed since: not found
    migration = importlib.import_module("audit.migrations.0004_championship_activity")
    migration.name_their_championship(apps, connection.schema_editor())
    assert [AuditEntry.objects.get(pk=e.pk).championship_id for e in before] == [championship.pk,
                                                                                 championship.pk, None]


def test_the_page_reads_a_fixed_number_of_queries_however_many_entries(client, championship_and_organizer):
    tournament, organizer = championship_and_organizer
    championship = tournament.championship
    client.force_login(organizer)

    def queries_with(total: int) -> int:
        while AuditEntry.objects.filter(championship=championship).count() < total:
            record_change(organizer, None, Action.BOARD_LIMITS, championship, before={"limits": []},
                          after={"limits": []}, championship_id=championship.pk)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(page(championship)).status_code == 200
        return len(queries)

    assert queries_with(5) == queries_with(40)
