"""Players shared by two championships in the browser: the import preview's decisions, a pair declared by the
other championship, a player of another championship entered by the list and awaiting their word (issue 20
item 3, issue 22 items 1-3, issue 33 item 2).

The states only a POST reaches (a preview, a preview checked again) pass axe-core at phone, tablet and laptop
widths in English and Arabic, without pushing the page sideways; and the choice works without JavaScript.
"""
from datetime import date

import pytest

from championships.models import Entry
from championships.relationships import declare_relationship
from championships.services import assign_staff
from tests.factories import make_admin, make_official, make_player, make_tournament

from .axe import axe_violations
from .test_accessibility import WIDTHS, described, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LIST = ("name,email,date_of_birth,country,friends_or_family\n"
        "Layla Haddad,layla@example.org,1990-01-13,LB,\n"           # ours, another birth date: to decide
        "Omar H.,omar@league.example,1991-01-01,JO,\n"              # the other championship's: linked as it is
        "Layla Haddad,layla.h@example.net,1995-05-05,AE,Sara Nader\n"  # a namesake with another email
        "Sara Nader,sara@example.net,1994-04-04,AE,\n")


@pytest.fixture
def shared():
    home = make_tournament(slug="home-cup", games=1)
    league = make_tournament(slug="league-cup", games=1)
    organizer = make_official(home, "organizer", "home-organizer")
    other = make_official(league, "organizer", "league-organizer")
    layla = make_player("Layla Haddad", email="layla@example.org", born=date(1990, 1, 31), country="LB")
    omar = make_player("Omar Haddadin", email="omar@league.example", born=date(1990, 5, 5), country="JO")
    one, two = make_player("Ziad Zein"), make_player("Khaled Aziz")
    for player in (layla, one, two):
        Entry.objects.create(tournament=home, player=player)
    for player in (omar, one, two):
        Entry.objects.create(tournament=league, player=player)
    declare_relationship(one, two, "family", user=other, tournament=league)
    assign_staff(organizer, "organizer", championship=home.championship, user=make_admin())
    return home, layla


def preview(page, home, prefix: str = "") -> None:
    """Signed in as the home organizer, the list uploaded: its preview."""
    sign_in(page, "home-organizer")
    page.goto(f"{prefix}/organize/{home.slug}/players/import/")
    page.locator("input[type=file]").set_input_files(files=[{
        "name": "list.csv", "mimeType": "text/csv", "buffer": LIST.encode()}])
    page.locator("form[enctype] button[type=submit]").click()
    page.wait_for_selector("#import-confirm")


def check(page, name: str, found: dict, overflowing: list) -> None:
    found[name] = axe_violations(page)
    if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
        overflowing.append(name)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_import_preview_asks_and_the_pages_pass_axe(browser, live_server, axe_script, shared, width, language):
    home, layla = shared
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, base_url=live_server.url,
                                  has_touch=width < 1280, bypass_csp=True)
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []
    try:
        preview(page, home, prefix)
        assert page.locator("input[name=decision-2][value=keep]").is_checked()
        check(page, "import preview", found, overflowing)
        page.locator("input[name=decision-2][value=update]").check()
        page.locator("#import-confirm input[name=consent]").check()  # the privacy notice agreed
        page.locator("#import-confirm button.primary").click()  # the counts change: shown again, nothing written
        page.wait_for_selector("input[name=decision-2][value=update]:checked")
        check(page, "import preview, checked again", found, overflowing)
        layla.refresh_from_db()
        assert layla.date_of_birth == date(1990, 1, 31)
        page.locator("#import-confirm input[name=consent]").check()  # the privacy notice agreed
        page.locator("#import-confirm button.primary").click()
        page.wait_for_url(f"**/organize/{home.slug}/players/")
        layla.refresh_from_db()
        assert layla.date_of_birth == date(1990, 1, 13)
        page.goto(f"{prefix}/organize/{home.slug}/relationships/")
        check(page, "friends and family, a pair declared elsewhere", found, overflowing)
        page.goto(f"{prefix}/organize/{home.slug}/entries/")  # Omar, linked by the list: awaiting his word
        check(page, "entries, a namesake and a player of another championship awaiting their word", found,
              overflowing)
        assert page.locator("tr", has_text="Omar Haddadin").locator(".muted").last.is_visible()
        assert page.locator(".namesake").all_inner_texts() == ["(1990)", "(1995)"]
    finally:
        context.close()
    failing = {name: described(v) for name, v in found.items() if v}
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())
    assert not overflowing, f"wider than the {width}-px screen: {', '.join(overflowing)}"


def test_the_choice_works_without_javascript(browser, live_server, shared):
    home, layla = shared
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url,
                                  java_script_enabled=False)
    page = context.new_page()
    try:
        preview(page, home)
        page.locator("input[name=decision-2][value=update]").check()
        page.get_by_role("button", name="Check again with these choices").click()
        assert "1 record updated" in page.locator("#import-confirm button.primary").inner_text()
        page.locator("#import-confirm input[name=consent]").check()  # the privacy notice agreed
        page.locator("#import-confirm button.primary").click()
        page.wait_for_url(f"**/organize/{home.slug}/players/")
    finally:
        context.close()
    layla.refresh_from_db()
    assert layla.date_of_birth == date(1990, 1, 13)
