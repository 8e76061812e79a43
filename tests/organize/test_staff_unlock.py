"""An organizer lifts a staff member's sign-in pause from the console's staff page (issue 22, item 6).

Only for staff of a tournament (or championship) they organize; audited in that tournament.
"""
import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from championships.models import StaffRole
from tests.factories import make_official, make_tournament
from tests.test_signin_throttle import PASSWORD, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def behind_proxy(settings):
    settings.PROXY_COUNT = 1


def _paused_referee(tournament, username="referee-ana"):
    referee = make_official(tournament, "referee", username)
    client = Client()
    for _ in range(5):
        sign_in(client, username, "wrong", "198.51.100.66")
    assert sign_in(client, username, PASSWORD, "198.51.100.66").status_code == 429
    return referee, StaffRole.objects.get(user=referee, tournament=tournament)


def test_an_organizer_lifts_a_referees_pause_and_it_is_audited():
    tournament = make_tournament(slug="unlock")
    organizer = Client()
    organizer.force_login(make_official(tournament, "organizer"))
    referee, role = _paused_referee(tournament)
    page = organizer.get(reverse("organize-staff", args=["unlock"])).content.decode()
    assert reverse("organize-staff-unlock", args=[role.pk]) in page  # the paused account is shown with a button
    response = organizer.post(reverse("organize-staff-unlock", args=[role.pk]))
    assert response.status_code == 302
    assert sign_in(Client(), "referee-ana", PASSWORD, "198.51.100.66").status_code == 302
    entry = AuditEntry.objects.get(action="staff.unlocked")
    assert entry.tournament_id == tournament.pk and entry.after == {"user": "referee-ana"}
    activity = organizer.get(reverse("activity-log", args=["unlock"])).content.decode()
    assert "Sign-in pause of" in activity


def test_lifting_a_pause_also_forgets_the_earlier_rounds():
    tournament = make_tournament(slug="unlock")
    organizer = Client()
    organizer.force_login(make_official(tournament, "organizer"))
    _referee, role = _paused_referee(tournament)
    organizer.post(reverse("organize-staff-unlock", args=[role.pk]))
    assert not AccessFailureLog.objects.filter(username="referee-ana").exists()


def test_an_organizer_of_another_tournament_cannot_lift_the_pause():
    tournament = make_tournament(slug="unlock")
    _referee, role = _paused_referee(tournament)
    stranger = Client()
    stranger.force_login(make_official(make_tournament(slug="elsewhere"), "organizer"))
    assert stranger.post(reverse("organize-staff-unlock", args=[role.pk])).status_code == 403
    assert AccessAttempt.objects.filter(username="referee-ana").exists()
    assert not AuditEntry.objects.filter(action="staff.unlocked").exists()
