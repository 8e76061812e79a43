from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.db import DatabaseError
from django.templatetags.static import static

from tests.factories import make_tournament

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_healthz_reports_503_when_the_database_fails(client, monkeypatch):
    def broken(*args, **kwargs):
        raise DatabaseError("down")

    monkeypatch.setattr("django.db.backends.utils.CursorWrapper.execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable" and response.json()["database"] == "down"


def test_favicon_ico_leads_to_the_sites_icon_without_touching_the_database(client, django_assert_num_queries):
    """Issue 20 item 11: every browser asks for /favicon.ico, which was a 404. It sends the browser to the icon the
    pages also name, and answers without the database (it is asked for on every first visit)."""
    icon = static("icons/favicon.svg")
    with django_assert_num_queries(0):
        response = client.get("/favicon.ico")

    assert response.status_code == 302 and response["Location"] == icon
    assert "max-age=86400" in response["Cache-Control"]
    svg = Path(finders.find("icons/favicon.svg")).read_text(encoding="utf-8")
    assert svg.startswith("<svg") and 'viewBox="0 0 64 64"' in svg
    for prefix in ("", "/ar"):
        assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in client.get(f"{prefix}/").content.decode()


def test_tournament_list_api(client):
    tournament = make_tournament(name="Dubai qualifier", slug="dubai")
    (row,) = client.get("/api/tournaments/").json()
    assert {k: row[k] for k in ("slug", "name", "kind", "date", "status", "ruleset")} == {
        "slug": "dubai", "name": "Dubai qualifier", "kind": "qualifier", "date": "2022-06-11",
        "status": tournament.status, "ruleset": "cnc-2022",
    }


def test_home_lists_tournaments_with_language_and_direction(client):
    make_tournament(name="Abu Dhabi qualifier")
    english = client.get("/").content.decode()
    assert 'lang="en" dir="ltr"' in english and "Abu Dhabi qualifier" in english
    arabic = client.get("/ar/").content.decode()
    assert 'lang="ar" dir="rtl"' in arabic


def test_staff_sign_in_page(client):
    page = client.get("/accounts/login/").content.decode()
    assert '<label for="id_username"' in page and '<label for="id_password"' in page


def test_the_language_menu_leaves_any_language_for_any_other(client):
    make_tournament(slug="x")
    page = client.get("/ar/t/x/standings/?page=2").content.decode()
    for code, href in (("en", "/t/x/standings/?page=2"), ("he", "/he/t/x/standings/?page=2"),
                       ("fa", "/fa/t/x/standings/?page=2")):
        assert f'<a href="{href}" hreflang="{code}" lang="{code}">' in page
    assert '<a href="/ar/t/x/standings/?page=2" hreflang="ar" lang="ar" aria-current="true">' in page
    assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page  # nothing personal on a public page
    assert client.post("/i18n/setlang/", {"language": "he", "next": "/t/x/standings/"})["Location"] == \
        "/he/t/x/standings/"
    assert client.post("/i18n/setlang/", {"language": "en", "next": "/t/x/standings/"})["Location"] == \
        "/t/x/standings/"


def test_unknown_tournaments_and_games_answer_404_in_json(client):
    make_tournament(slug="known")
    for url, detail in (
        ("/api/tournaments/nowhere/standings/", "No tournament with that slug."),
        ("/api/tournaments/nowhere/games/1/seating/", "No tournament with that slug."),
        ("/api/tournaments/known/games/7/seating/", "No published game with that number."),
    ):
        response = client.get(url)
        assert response.status_code == 404 and response["Content-Type"] == "application/json"
        assert response.json() == {"detail": detail}
