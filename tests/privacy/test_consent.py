"""Consent (championships/privacy_notice.py): a championship's notice shown on self-registration, the version the
player accepted recorded; organizers write new versions; an imported list records that consent was collected."""
import pytest
from django.test import Client

from audit.models import AuditEntry
from championships import privacy_notice
from championships.models import PrivacyNotice, Registration
from tests.factories import make_official, make_tournament

pytestmark = pytest.mark.django_db

DATA = {"name": "Lina Haddad", "email": "lina@example.com", "date_of_birth": "1991-04-05", "country": "JO"}


def test_registration_shows_the_notice_and_records_the_version_accepted(client):
    tournament = make_tournament(slug="reg-cup", self_registration=True, capacity=10)
    page = client.get("/t/reg-cup/register/").content.decode()
    assert "Without a tournament for three years" in page and 'name="consent"' in page
    refused = client.post("/t/reg-cup/register/", DATA)
    assert refused.status_code == 422 and not Registration.objects.exists()
    assert client.post("/t/reg-cup/register/", {**DATA, "consent": "on"}).status_code == 302
    assert Registration.objects.get().privacy_notice.version == 1  # the default text, saved as version 1
    organizer = make_official(tournament, "organizer")
    from championships.services import assign_staff
    from tests.factories import make_admin
    assign_staff(organizer, "organizer", championship=tournament.championship, user=make_admin())
    staff = Client()
    staff.force_login(organizer)
    url = f"/organize/championships/{tournament.championship.slug}/privacy/"
    assert staff.post(url, {"text": ""}).status_code == 422
    assert staff.post(url, {"text": "We keep your email for two years."}).status_code == 302
    assert privacy_notice.current(tournament.championship).version == 2
    assert AuditEntry.objects.filter(action="championship.privacy_notice", championship=tournament.championship,
                                     after={"version": 2}).exists()
    assert "We keep your email for two years." in client.get("/t/reg-cup/register/").content.decode()
    client.post("/t/reg-cup/register/", {**DATA, "email": "omar@example.com", "name": "Omar", "consent": "on"})
    assert Registration.objects.get(email="omar@example.com").privacy_notice.version == 2
    assert Registration.objects.get(email="lina@example.com").privacy_notice.text == str(privacy_notice.DEFAULT_TEXT)
    assert PrivacyNotice.objects.count() == 2
    outsider = Client()
    outsider.force_login(make_official(make_tournament(), "organizer"))
    assert outsider.post(url, {"text": "Mine now"}).status_code == 403


def test_an_import_records_that_the_organizer_collected_consent(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from championships.models import Player

    tournament = make_tournament(slug="cup")
    client.force_login(make_official(tournament, "organizer"))
    listed = SimpleUploadedFile("list.csv", b"name,email,date_of_birth,country\nAnn,ann@example.org,1990-01-01,LB\n")
    preview = client.post("/organize/cup/players/import/", {"file": listed})
    assert "privacy notice (version 1)" in preview.content.decode()
    token = preview.context["confirm_form"].initial["token"]
    refused = client.post("/organize/cup/players/import/", {"token": token})
    assert refused.status_code == 422 and not Player.objects.exists()
    assert client.post("/organize/cup/players/import/", {"token": token, "consent": "1"}).status_code == 302
    logged = AuditEntry.objects.get(action="championship.consent_collected")
    assert logged.after == {"version": 1, "players": 1} and logged.tournament == tournament
