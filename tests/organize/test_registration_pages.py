"""The organizer's side of players' registrations (web/organize/views/registrations.py) and of self check-in (the QR
window on the desk and full screen)."""
import csv
import io
import re
from datetime import date

import pytest
from django.core import mail
from django.test import Client

from attendance.models import CheckInWindow
from championships import links
from championships.models import Registration, Tournament
from tests.factories import make_entries, make_official, make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def console():
    tournament = make_tournament(slug="reg-desk", name="Reg Desk", capacity=3)
    organizer = make_official(tournament, "organizer")
    client = Client()
    client.force_login(organizer)
    return tournament, organizer, client


def registered(tournament, n, status):
    """A registration as signup.confirm leaves it: a confirmed one has its player record."""
    confirmed = status != "unconfirmed"
    return Registration.objects.create(
        tournament=tournament, name=f"Runner {n}", email=f"r{n}@example.com", date_of_birth=date(1990, 1, 1),
        friends="Ann Lee", confirm_digest=f"{n:064d}", status=status,
        player=make_player(f"Runner {n}", email=f"r{n}@example.com") if confirmed else None,
        confirmed_at="2030-01-01T10:00Z" if confirmed else None)


def test_the_organizer_opens_registration_with_places_closing_time_and_approval(console):
    tournament, organizer, client = console
    page = client.get("/organize/reg-desk/registrations/")
    assert page.status_code == 200 and "Players register themselves" in page.content.decode()
    response = client.post("/organize/reg-desk/registrations/", {
        "self_registration": "on", "capacity": "24", "registration_closes": "2030-06-10T18:00",
        "registration_approval": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.self_registration and tournament.capacity == 24 and tournament.registration_approval
    assert tournament.registration_closes.isoformat().startswith("2030-06-10T")
    refused = client.post("/organize/reg-desk/registrations/", {"capacity": "2"})
    assert refused.status_code == 422 and Tournament.objects.get(pk=tournament.pk).capacity == 24
    assert "/t/reg-desk/register/" in client.get("/organize/reg-desk/registrations/").content.decode()


def test_approve_refuse_and_the_csv(console, django_capture_on_commit_callbacks):
    tournament, organizer, client = console
    make_entries(tournament, 2)  # with the approved one, the 3 places are taken: the waiting one waits
    pending = registered(tournament, 1, "pending")
    waiting = registered(tournament, 2, "waiting")
    html = client.get("/organize/reg-desk/registrations/").content.decode()
    assert "Runner 1" in html and "Approve" in html and "number 1" in html and "Ann Lee" in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/organize/reg-desk/registrations/{pending.pk}/", {"action": "approve"})
        client.post(f"/organize/reg-desk/registrations/{waiting.pk}/", {"action": "refuse", "reason": "Full"})
    pending.refresh_from_db()
    waiting.refresh_from_db()
    assert pending.status == "entered" and waiting.status == "refused" and waiting.reason == "Full"
    assert {m.to[0] for m in mail.outbox} == {"r1@example.com", "r2@example.com"}
    rows = list(csv.reader(io.StringIO(client.get("/organize/reg-desk/registrations.csv").content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["name", "email", "date_of_birth"] and {r[0] for r in rows[1:]} == {"Runner 1", "Runner 2"}
    too_long = client.post(f"/organize/reg-desk/registrations/{pending.pk}/", {"action": "refuse", "reason": "x" * 501})
    assert too_long.status_code == 302 and Registration.objects.get(pk=pending.pk).status == "entered"


def test_another_organizer_decides_nothing_here(console):
    tournament, organizer, client = console
    pending = registered(tournament, 1, "pending")
    other = make_tournament(slug="theirs")
    stranger = Client()
    stranger.force_login(make_official(other, "organizer"))
    assert stranger.get("/organize/reg-desk/registrations/").status_code == 403
    assert stranger.post(f"/organize/theirs/registrations/{pending.pk}/", {"action": "refuse"}).status_code == 404
    assert Registration.objects.get(pk=pending.pk).status == "pending"


def test_replacing_a_private_link(console, django_capture_on_commit_callbacks):
    tournament, organizer, client = console
    with_email, without = make_entries(tournament, 2)
    with_email.player.email = "ann@example.com"
    with_email.player.save()
    old = links.issue(with_email.player)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/organize/reg-desk/private-links/", {"player": with_email.player_id})
    assert links.player_for(old) is None and mail.outbox[-1].to == ["ann@example.com"]
    response = client.post("/organize/reg-desk/private-links/", {"player": without.player_id}, follow=True)
    shown = re.search(r"/me/([\w-]{43})/", response.content.decode()).group(1)
    assert links.player_for(shown) == without.player
    elsewhere = make_entries(make_tournament(), 1)[0]
    client.post("/organize/reg-desk/private-links/", {"player": elsewhere.player_id})
    assert not elsewhere.player.links.exists()


def test_the_desk_opens_a_window_and_shows_its_qr_code(console):
    tournament, organizer, client = console
    assert "Open self check-in" in client.get("/organize/reg-desk/check-in/").content.decode()
    client.post("/organize/reg-desk/check-in/window/", {"action": "open", "minutes": "15"})
    window = CheckInWindow.objects.get()
    desk = client.get("/organize/reg-desk/check-in/").content.decode()
    assert 'src="data:image/svg+xml' in desk and "Close self check-in" in desk
    screen = client.get("/organize/reg-desk/check-in/qr/")
    assert screen.status_code == 200 and 'hx-trigger="every 30s"' in screen.content.decode()
    assert "no-store" in screen["Cache-Control"] and window.code not in screen.content.decode().split("data:")[0]
    client.post("/organize/reg-desk/check-in/window/", {"action": "close"})
    assert CheckInWindow.objects.get().closed_at is not None
    assert client.post("/organize/reg-desk/check-in/window/", {"minutes": "7"}).status_code == 302
    assert CheckInWindow.objects.count() == 1
