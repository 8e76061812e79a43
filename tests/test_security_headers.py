"""Browser-facing hardening: CSP and Permissions-Policy everywhere, no caching of staff pages,
per-address login lockout, and refused requests logged without a traceback."""
import logging
import subprocess
import sys

import pytest

from tests.factories import make_official, make_tournament, make_user
from tests.test_settings import ROOT, clean_env

pytestmark = pytest.mark.django_db


def test_a_public_page_sends_the_policies_and_may_be_cached(client):
    make_tournament(slug="open")
    response = client.get("/t/open/standings/")
    assert response.status_code == 200
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert all(f"{feature}=()" in response["Permissions-Policy"] for feature in ("camera", "microphone", "geolocation"))
    assert "no-store" not in response.get("Cache-Control", "")


@pytest.mark.parametrize("path", ["/referee/", "/ar/referee/", "/accounts/login/", "/admin/login/"])
def test_staff_pages_are_never_stored(client, path):
    client.force_login(make_official(make_tournament(), "referee"))
    response = client.get(path)
    assert response.status_code in (200, 302)
    assert "no-store" in response["Cache-Control"] and "Content-Security-Policy" in response


def test_organizer_pages_are_never_stored(client):
    tournament = make_tournament(slug="org")
    client.force_login(make_official(tournament, "organizer"))
    response = client.get("/organize/org/activity/")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


def test_htmx_is_told_not_to_inject_its_indicator_style(client):
    page = client.get("/accounts/login/").content.decode()
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false}\'>' in page
    assert "<style" not in page and " style=" not in page


def hsts_preload(**env) -> bool:
    probe = "import django; django.setup(); from django.conf import settings as s; print(s.SECURE_HSTS_PRELOAD)"
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=clean_env(DJANGO_SETTINGS_MODULE="catan_tournaments.settings", **env))
    return result.stdout.strip() == "True"


def test_hsts_preload_is_off_unless_asked_for():
    assert hsts_preload(DEBUG="0") is False
    assert hsts_preload(DEBUG="0", HSTS_PRELOAD="1") is True


def sign_in(client, username, password, address):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_failures_from_one_address_lock_only_that_address_for_that_user(client):
    make_user("referee-ana")
    statuses = [sign_in(client, "referee-ana", "wrong", "203.0.113.7").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]  # the fifth failure locks
    assert sign_in(client, "referee-ana", "pw-for-tests-only", "203.0.113.7").status_code == 429  # locked
    response = sign_in(client, "referee-ana", "pw-for-tests-only", "198.51.100.9")
    assert response.status_code == 302  # the same user, from another address, signs in


def test_a_refused_request_is_logged_as_a_warning_without_a_traceback(client, caplog):
    tournament = make_tournament(slug="locked")
    client.force_login(make_user())  # signed in, but no role in this tournament
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/organize/locked/activity/")
    assert response.status_code == 403
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelname == "WARNING" and record.exc_info is None
    assert "Traceback" not in caplog.text and tournament.slug in record.getMessage()
