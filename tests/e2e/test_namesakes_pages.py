"""Namesakes' numbers on the pages a player reads to find their seat, on a phone, in English and Arabic: the
number is readable and the pages stay accessible (axe-core). `NAMESAKE_SHOTS=<dir>` keeps screenshots."""
import os
from datetime import date
from pathlib import Path

import pytest

from championships.models import Entry
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament

from .axe import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def twins():
    tournament = make_tournament(slug="twins", name="Twins Cup", status="running")
    first = Entry.objects.create(tournament=tournament, player=make_player("Layla Haddad", email="l1@example.org"))
    second = Entry.objects.create(tournament=tournament, player=make_player(
        "ليلى حداد", email="l2@example.org", born=date(1985, 5, 5)))
    third = Entry.objects.create(tournament=tournament, player=make_player("Layla  Haddad", email="l3@example.org"))
    others = make_entries(tournament, 9)
    make_game(tournament, [[first, *others[:3]], [second, *others[3:6]], [third, *others[6:]]])
    make_official(tournament, "organizer", username="desk")
    return tournament, first, third


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_phone_reads_the_namesakes_numbers_and_the_pages_stay_accessible(browser, live_server, axe_script, twins,
                                                                           language):
    tournament, first, third = twins
    prefix = "" if language == "en" else f"/{language}"
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url,
                                  bypass_csp=True, locale=language)
    page = context.new_page()
    pages = {"where": f"{prefix}/t/twins/where/?q=layla", "game": f"{prefix}/t/twins/games/1/",
             "player": f"{prefix}/t/twins/players/{third.player_id}/"}
    for name, path in pages.items():
        page.goto(path)
        assert page.locator("small.muted", has_text="(2)").count() >= 1, name
        assert axe_violations(page, axe_script) == [], name
        if target := os.environ.get("NAMESAKE_SHOTS"):
            page.screenshot(path=str(Path(target) / f"{name}-390-{language}.png"), full_page=True)
    page.goto(f"{prefix}/accounts/login/")
    page.locator("input[name=username]").fill("desk")
    page.locator("input[name=password]").fill("pw-for-tests-only")
    page.locator("main form button[type=submit]").click()
    page.goto(f"{prefix}/organize/twins/check-in/?q=layla")
    assert page.locator(".checkin-name", has_text="(2)").count() == 1
    assert axe_violations(page, axe_script) == []
    if target := os.environ.get("NAMESAKE_SHOTS"):
        page.screenshot(path=str(Path(target) / f"checkin-390-{language}.png"), full_page=True)
    context.close()
