"""The site's address, SITE_URL (issue 32, item 1): every absolute link comes from it, whoever builds it (a request
on another host, a background job), it is required with DEBUG off, and `check --deploy` checks it with the rest of
a deployment's settings (issue 34, item 6)."""
import re
import subprocess
import sys
from datetime import date, datetime, time, timedelta

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from attendance import self_checkin
from catan_tournaments import checks
from championships.models import Player
from core import site
from notices import start_time
from tests.factories import make_entries, make_official, make_tournament
from tests.site import open_link
from tests.test_settings import ROOT, clean_env

pytestmark = pytest.mark.django_db

SECRET = "a-long-random-production-secret-" + "x9Q2" * 10


def test_a_link_built_in_a_background_job_starts_with_the_sites_address(settings, django_capture_on_commit_callbacks):
    """The start-time notice (a beat job, no request) carried http://localhost:8000, SITE_URL's old default."""
    settings.SITE_URL = "https://cup.example.org/"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "cup.example.org"]
    day = date(2026, 6, 11)
    tournament = make_tournament(slug="site-cup", date=day, official_start=time(10, 0))
    (entry,) = make_entries(tournament, 1)
    Player.objects.filter(pk=entry.player_id).update(email="early@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        start_time.send_start_time_notices(timezone.make_aware(datetime.combine(day - timedelta(days=1), time(11))))
    (sent,) = mail.outbox
    link = re.search(r"https?://\S+/me/[\w-]{43}/", sent.body).group(0)
    assert link.startswith("https://cup.example.org/me/")  # one slash: the final one of SITE_URL is dropped
    page = open_link(Client(), link)
    assert page.status_code == 200 and "site-cup" in page.content.decode()


def test_a_page_asked_on_another_host_shows_the_sites_address(client, monkeypatch):
    """The desk's QR code was the address the organizer's browser used (an inside name, a test client's host)."""
    import segno

    tournament = make_tournament(slug="qr-cup")
    organizer = make_official(tournament, "organizer")
    window = self_checkin.open_window(tournament, user=organizer)
    encoded = []
    real = segno.make
    monkeypatch.setattr(segno, "make", lambda content, **options: encoded.append(content) or real(content, **options))
    client.force_login(organizer)
    assert client.get(reverse("organize-checkin-qr", args=[tournament.slug])).status_code == 200  # on testserver
    assert encoded == [f"https://catan.example/t/qr-cup/check-in/{window.code}/"]
    assert open_link(Client(), encoded[0]).status_code == 200  # the player's check-in page


def test_the_projector_names_the_sites_address_not_the_projectors(client):
    make_tournament(slug="screen-cup")
    page = client.get("/t/screen-cup/screen/").content.decode()  # the projector's browser, on testserver
    assert "catan.example/t/screen-cup/where/" in page and "testserver" not in page


def test_no_link_is_built_without_the_sites_address(settings):
    settings.SITE_URL = ""
    with pytest.raises(ImproperlyConfigured, match="SITE_URL is not set"):
        site.absolute("/me/")


@pytest.mark.parametrize(("value", "problem"), [
    ("", "is not set"),
    ("catan.example", "must start with https://"),
    ("ftp://catan.example", "must start with https://"),
    ("https://", "must start with https://"),
    ("https://catan.example/catan/", "origin only"),
    ("https://catan.example/?x=1", "origin only"),
    ("https://user@catan.example", "origin only"),
    ("https://catan.example:port", "is not an address"),
])
def test_only_an_origin_is_a_sites_address(value, problem):
    assert problem in site.problem(value)


@pytest.mark.parametrize("value", ["https://catan.example", "https://catan.example/", "http://127.0.0.1:8000",
                                   "https://catan.test:8443"])
def test_origins_are_accepted(value, settings):
    assert site.problem(value) is None
    settings.SITE_URL = value
    assert site.absolute("/t/x/") == value.rstrip("/") + "/t/x/"


def run(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", **env))


def test_the_web_entry_point_refuses_to_start_without_it_when_debug_is_off():
    refused = run("import catan_tournaments.wsgi", DEBUG="0", SECRET_KEY=SECRET)
    assert refused.returncode != 0 and "SITE_URL is not set" in refused.stderr
    assert run("import catan_tournaments.wsgi", DEBUG="0", SECRET_KEY=SECRET, SITE_URL="https://catan.example",
               ALLOWED_HOSTS="catan.example").returncode == 0
    path = run("import catan_tournaments.wsgi", DEBUG="0", SECRET_KEY=SECRET, SITE_URL="https://catan.example/app/")
    assert path.returncode != 0 and "origin only" in path.stderr


def test_the_worker_refuses_to_start_without_it_when_debug_is_off():
    from celery.signals import worker_init

    code = "import django; django.setup(); from celery.signals import worker_init; worker_init.send(sender=None)"
    refused = run(code, DEBUG="0", SECRET_KEY=SECRET)
    assert refused.returncode == 1 and "SITE_URL is not set" in refused.stderr
    assert run(code, DEBUG="0", SECRET_KEY=SECRET, SITE_URL="https://catan.example").returncode == 0
    assert worker_init.receivers  # connected in catan_tournaments/celery.py, which every worker loads


def test_with_debug_on_it_is_the_development_server():
    probe = run("import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)", DEBUG="1")
    assert probe.stdout.strip() == "http://localhost:8000"


# --- check --deploy -------------------------------------------------------------------------------------------------

@pytest.fixture
def deployed(settings):
    """The settings of a deployment the checks accept."""
    settings.DEBUG = False
    settings.SITE_URL = "https://catan.example"
    settings.ALLOWED_HOSTS = ["catan.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://catan.example"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    assert checks.deployment(None) == []
    return settings


def ids(settings) -> list[str]:
    return [error.id for error in checks.deployment(None)]


def test_an_unset_site_url_fails_the_deploy_check(deployed):
    deployed.SITE_URL = ""
    assert ids(deployed) == ["catan.E001"]


def test_a_site_url_whose_host_is_not_allowed_fails_it(deployed):
    deployed.ALLOWED_HOSTS = ["other.example"]
    assert ids(deployed) == ["catan.E002"]
    deployed.ALLOWED_HOSTS = [".catan.example"]  # the domain and its subdomains, as Django reads it
    assert ids(deployed) == []


def test_a_site_url_whose_origin_is_not_trusted_for_forms_fails_it(deployed):
    deployed.CSRF_TRUSTED_ORIGINS = ["http://catan.example"]  # not the same scheme
    assert ids(deployed) == ["catan.E003"]
    deployed.CSRF_TRUSTED_ORIGINS = ["https://*.example"]
    assert ids(deployed) == []
    deployed.SITE_URL = "https://catan.example:8443"
    deployed.CSRF_TRUSTED_ORIGINS = ["https://catan.example"]  # another port is another origin
    assert ids(deployed) == ["catan.E003"]


@pytest.mark.parametrize("backend", ["console", "locmem", "dummy"])
def test_email_that_never_leaves_fails_it_with_debug_off(deployed, backend):
    deployed.EMAIL_BACKEND = f"django.core.mail.backends.{backend}.EmailBackend"
    (error,) = checks.deployment(None)
    assert error.id == "catan.E004" and "EMAIL_URL" in error.hint
    deployed.DEBUG = True
    assert ids(deployed) == []


def test_only_one_vapid_key_fails_it(deployed):
    deployed.WEBPUSH_VAPID_PUBLIC_KEY = "public"
    (error,) = checks.deployment(None)
    assert error.id == "catan.E005" and "WEBPUSH_VAPID_PRIVATE_KEY" in error.msg
    deployed.WEBPUSH_VAPID_PRIVATE_KEY = "private"
    assert ids(deployed) == []


def test_check_deploy_fails_on_the_command_line_without_the_sites_address():
    env = clean_env(DEBUG="0", SECRET_KEY=SECRET, ALLOWED_HOSTS="catan.example",
                    CSRF_TRUSTED_ORIGINS="https://catan.example")
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, capture_output=True,
                            text=True, env=env)
    assert result.returncode == 1 and "catan.E001" in result.stderr and "SITE_URL is not set" in result.stderr
