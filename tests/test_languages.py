"""Choosing a language (core/language.py, the header's menu): a first visit follows the browser, moving within the
site never redirects, staff keep theirs across sign-in, and a player's emails are in the language they
registered in."""
import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import translate_url
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import override

from championships.templatetags.site_tags import _translated
from tests.factories import make_entries, make_official, make_tournament

pytestmark = pytest.mark.django_db

NEW = ["de", "fr", "es", "it", "pt-br", "nl", "pl", "tr", "el", "ja", "zh-hans", "ko"]


def german(message: str) -> str:
    with override("de"):
        text = _(message)
    assert text != message, f"no German translation of {message!r}"
    return text


@pytest.fixture
def cup():
    tournament = make_tournament(slug="lang-cup", name="Lang Cup", self_registration=True, capacity=8)
    entry, = make_entries(tournament, 1)
    return tournament, entry


def test_sixteen_languages_each_named_in_itself_in_a_menu_that_needs_no_script(client, cup):
    assert [code for code, _name in settings.LANGUAGES] == ["en", "ar", "he", "fa", *NEW]
    page = client.get("/de/t/lang-cup/").content.decode()
    menu = re.search(r'<details class="language-menu">(.*?)</details>', page, re.S).group(1)
    links = re.findall(r'<a href="([^"]+)" hreflang="([^"]+)" lang="([^"]+)"( aria-current="true")?>([^<]+)</a>', menu)
    assert [(href, code, name) for href, code, lang, _current, name in links] == [
        ("/t/lang-cup/" if code == "en" else f"/{code}/t/lang-cup/", code, name) for code, name in settings.LANGUAGES]
    assert all(code == lang for _href, code, lang, _current, _name in links)
    assert [code for _href, code, _lang, current, _name in links if current] == ["de"]
    assert '<summary>' in menu and '<span lang="de">Deutsch</span></summary>' in menu
    assert "<form" not in menu and "csrfmiddlewaretoken" not in page  # plain links: the page is cached whole


@pytest.mark.parametrize("path", ["/t/lang-cup/standings/?page=2&q=%C3%A9", "/de/t/lang-cup/", "/no/such/page/",
                                  "/me/abc/", "https://example.org/ar/t/lang-cup/players/7/#games"])
def test_the_menus_links_are_djangos_translation_of_the_address(path):
    """The menu resolves the address once (site_tags._translated), giving what Django's translate_url gives."""
    with override("de"):
        assert _translated(path) == [translate_url(path, code) for code, _name in settings.LANGUAGES]


@pytest.mark.parametrize("code", NEW)
def test_each_new_language_has_its_pages_dates_and_country_names(client, cup, code):
    tournament, entry = cup
    page = client.get(f"/{code}/t/lang-cup/players/{entry.player_id}/").content.decode()
    assert f'<html lang="{code}" dir="ltr">' in page
    with override(code):
        assert escape(_("CATAN tournaments")) != "CATAN tournaments"
        assert escape(_("CATAN tournaments")) in page
        assert escape(str(entry.player.country.local_name)) in page  # django-countries' name in the language
        assert str(entry.player.country.local_name) != "United Arab Emirates"
        day = date_format(tournament.date, "DATE_FORMAT")  # 11 June 2022 as the language writes a date
    with override("en"):
        assert day != date_format(tournament.date, "DATE_FORMAT")
    assert escape(day) in client.get(f"/{code}/").content.decode()


def test_a_first_visit_follows_the_browsers_accept_language(cup):
    visitor = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    first = visitor.get("/t/lang-cup/?x=1")
    assert first.status_code == 302 and first["Location"] == "/de/t/lang-cup/?x=1"
    assert "Accept-Language" in first["Vary"] and "private" in first["Cache-Control"]
    page = visitor.get(first["Location"])
    assert page.status_code == 200 and '<html lang="de"' in page.content.decode()
    assert escape(german("CATAN tournaments")) in page.content.decode()
    assert Client(HTTP_ACCEPT_LANGUAGE="pt-PT,pt;q=0.8").get("/")["Location"] == "/pt-br/"
    assert Client(HTTP_ACCEPT_LANGUAGE="zh-CN").get("/")["Location"] == "/zh-hans/"
    me_page = visitor.get(f"/me/{'x' * 43}/")  # a player's page too (an unknown token: then the 404 in German)
    assert me_page.status_code == 302 and me_page["Location"] == f"/de/me/{'x' * 43}/"


def test_english_browsers_outside_addresses_and_moving_within_the_site_are_not_redirected(cup):
    assert Client(HTTP_ACCEPT_LANGUAGE="en-GB,de;q=0.5").get("/t/lang-cup/").status_code == 200
    assert Client(HTTP_ACCEPT_LANGUAGE="sw").get("/t/lang-cup/").status_code == 200  # not a site language
    german_browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    assert german_browser.get("/api/tournaments/").status_code == 200  # the API is in no language
    assert german_browser.get("/healthz").status_code == 200
    # picked English from the menu on a German page: the link is followed within the site, English stays
    chosen = german_browser.get("/t/lang-cup/", HTTP_SEC_FETCH_SITE="same-origin")
    assert chosen.status_code == 200 and '<html lang="en"' in chosen.content.decode()
    assert german_browser.get("/t/lang-cup/", HTTP_REFERER="http://testserver/de/t/lang-cup/").status_code == 200
    assert german_browser.get("/t/lang-cup/", HTTP_SEC_FETCH_SITE="cross-site").status_code == 302
    assert german_browser.get("/t/lang-cup/", HTTP_REFERER="https://elsewhere.example/").status_code == 302
    assert german_browser.post("/t/lang-cup/register/", {}).status_code == 422  # a form sent: answered, not moved
    assert german_browser.get("/t/lang-cup/", HTTP_HX_REQUEST="true").status_code == 200


def test_staff_keep_their_language_across_sign_in(cup):
    tournament, _entry = cup
    organizer = make_official(tournament, "organizer", username="sprache")
    staff = Client()  # an English browser
    signed_in = staff.post("/de/accounts/login/?next=/organize/lang-cup/",
                           {"username": organizer.username, "password": "pw-for-tests-only"})
    assert signed_in.status_code == 302 and signed_in["Location"] == "/de/organize/lang-cup/"
    assert staff.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert '<html lang="de"' in staff.get(signed_in["Location"]).content.decode()
    # a bookmark opened the next day (from outside): German, whatever the browser says
    later = staff.get("/organize/", HTTP_ACCEPT_LANGUAGE="en")
    assert later.status_code == 302 and later["Location"] == "/de/organize/"
    staff.post("/de/accounts/logout/")
    assert staff.get("/accounts/login/")["Location"] == "/de/accounts/login/"  # and signing in again


def test_a_players_emails_are_in_the_language_they_registered_in(cup, django_capture_on_commit_callbacks):
    data = {"name": "Lena Vogel", "email": "lena@example.com", "date_of_birth": "1991-04-05", "country": "DE",
            "city": "Köln", "consent": "on"}  # the privacy notice, accepted
    with django_capture_on_commit_callbacks(execute=True):
        assert Client().post("/de/t/lang-cup/register/", data).status_code == 302
    (message,) = mail.outbox
    assert message.subject == german("Confirm your registration: %(tournament)s") % {"tournament": "Lang Cup"}
    link = re.search(r"https?://\S+/register/confirm/\S+/", message.body).group(0)
    assert "/de/t/lang-cup/register/confirm/" in link
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(link.split("catan.example", 1)[1])
    assert len(mail.outbox) == 2  # entered: the next email is German too, though this request was English
    assert mail.outbox[1].subject == german("Registration: %(tournament)s") % {"tournament": "Lang Cup"}
    assert german("You are entered in %(tournament)s.") % {"tournament": "Lang Cup"} in mail.outbox[1].body
