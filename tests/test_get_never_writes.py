"""GET never writes: every page and export of a running tournament, opened by its organizer, only reads."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from attendance import self_checkin
from championships import links
from championships.models import Registration
from results.publishing import publish_game
from scheduling.services import generate_seating
from tests.factories import make_admin, make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


def test_no_page_writes_on_get(client):
    tournament = make_tournament(slug="reads", games=2)
    make_entries(tournament, 8)
    make_official(tournament, "referee")
    stage = tournament.stages.get()
    generate_seating(stage.pk, user=make_admin(), seed=1)
    game = tournament.games.order_by("number").first()
    publish_game(game.pk, user=make_admin())
    table = game.tables.order_by("number").first()
    late = make_entries(tournament, 1)[0]  # not seated: the desk's late step only shows what confirming would do
    organizer = make_official(tournament, "organizer")
    client.force_login(organizer)
    token = links.issue(table.seats.first().entry.player)  # the players' pages (issue 25)
    window = self_checkin.open_window(tournament, user=organizer)
    Registration.objects.create(tournament=tournament, name="Reader", email="reader@example.org",
                                confirm_digest=links.digest("reads-confirmation-token-0123456789"))
    urls = [
        "/", "/t/reads/standings/", "/t/reads/standings.csv", "/api/tournaments/",
        "/t/reads/", "/t/reads/where/?q=player", "/t/reads/games/1/", "/t/reads/screen/", "/t/reads/version/",
        "/t/reads/overlay/", "/t/reads/overlay/version/?table=2", "/t/reads/embed/?q=player", "/organize/reads/embed/",
        f"/t/reads/players/{table.seats.first().entry.player_id}/", f"/c/{tournament.championship.slug}/",
        "/api/tournaments/reads/standings/", "/api/tournaments/reads/games/1/seating/",
        "/referee/", "/referee/reads/", f"/referee/reads/tables/{table.pk}/", "/referee/reads/penalties/",
        "/referee/reads/draws/", "/organize/reads/seating/", f"/organize/reads/stages/{stage.pk}/",
        "/organize/reads/qualification/", "/organize/reads/activity/", "/organize/reads/activity.csv",
        "/organize/reads/players/", "/organize/reads/players.csv", "/organize/reads/players/add/",
        "/organize/reads/players/import/", "/organize/reads/relationships/", "/organize/reads/relationships.csv",
        "/organize/reads/entries/", "/organize/reads/entries.csv", "/organize/reads/check-in/?q=Player",
        "/organize/reads/check-in.csv", f"/organize/reads/check-in/{late.pk}/late/?minutes_late=12",
        f"/organize/reads/check-in/{late.pk}/late/?minutes_late=40",
        # a POST-only action opened by GET redirects to the sheet instead of acting
        f"/referee/reads/tables/{table.pk}/sign-off/",
        "/t/reads/register/", "/t/reads/register/confirm/reads-confirmation-token-0123456789/", "/me/",
        f"/me/{token}/", f"/ar/me/{token}/", f"/me/{token}/calendar.ics", "/t/reads/calendar.ics",
        f"/t/reads/check-in/{window.code}/", "/organize/reads/registrations/", "/organize/reads/registrations.csv",
        "/organize/reads/check-in/qr/", "/t/reads/standings.xlsx", "/organize/reads/activity.xlsx",
        "/organize/reads/players.xlsx", "/organize/reads/relationships.xlsx", "/organize/reads/entries.xlsx",
        "/organize/reads/check-in.xlsx", "/organize/reads/registrations.xlsx",
    ]
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code in (200, 302), (url, response.status_code)
        writes = [q["sql"] for q in queries if WRITE.match(q["sql"]) and "django_session" not in q["sql"]]
        assert writes == [], (url, writes)
