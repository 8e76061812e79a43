"""Live public pages: a sheet signed off elsewhere shows on an open standings and player page within 5 s, without
a reload; a phone at 390 px never scrolls sideways, in English, Arabic and Hebrew; the pages work without JavaScript."""
import pytest
from playwright.sync_api import expect

from tests.factories import make_game, make_official, make_player, make_tournament, play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Layla Haddad", "أحمد الفارسي", "Noa Levi", "Maximilian Oberhauser-Wittelsbach", "Sara Rahimi",
         "יונתן כהן", "Chen Wei", "فاطمة الزهراء بن عبد الله"]


@pytest.fixture
def running():
    tournament = make_tournament(slug="live-cup", name="Live Cup", status="running")
    entries = [tournament.entries.create(player=make_player(name)) for name in NAMES]
    referee = make_official(tournament)
    game = make_game(tournament, [entries[:4], entries[4:]])
    first, second = game.tables.order_by("number")
    play(first, [10, 8, 6, 4], referee)
    return {"tournament": tournament, "entries": entries, "referee": referee, "second": second}


def test_a_sign_off_appears_on_open_pages_without_a_reload(browser, live_server, running):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    standings, player = context.new_page(), context.new_page()
    sara = running["entries"][4]
    standings.goto("/t/live-cup/standings/")
    player.goto(f"/t/live-cup/players/{sara.player_id}/")
    expect(player.locator(".player-games")).to_contain_text("in play")
    standings.evaluate("window.notReloaded = true")
    play(running["second"], [10, 9, 2, 3], running["referee"])
    expect(standings.locator("table.standings tbody tr").first).to_contain_text("Sara Rahimi", timeout=6000)
    expect(player.locator(".player-games")).to_contain_text("41.67", timeout=6000)  # 10 of 24
    assert standings.evaluate("window.notReloaded === true")
    context.close()


@pytest.mark.parametrize("language", ["en", "ar", "he"])
def test_public_pages_fit_a_phone_in_every_direction(browser, live_server, running, language):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    player, championship = running["entries"][3].player_id, running["tournament"].championship.slug
    for path in ("/", "/t/live-cup/", "/t/live-cup/where/?q=a", "/t/live-cup/games/1/",
                 f"/t/live-cup/players/{player}/", "/t/live-cup/standings/", f"/c/{championship}/"):
        page.goto(prefix + path)
        assert page.locator("html").get_attribute("dir") == ("ltr" if language == "en" else "rtl")
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"), path
    context.close()


def test_where_do_i_sit_works_without_javascript(browser, live_server, running):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/t/live-cup/")
    page.get_by_label("Where do I sit? Type part of your name").fill("fatima")
    page.get_by_role("button", name="Find my table").click()
    expect(page.locator(".where-card")).to_have_count(0)  # "fatima" is not how the name is written
    page.get_by_label("Where do I sit? Type part of your name").fill("فاطمة")
    page.get_by_role("button", name="Find my table").click()
    expect(page.locator(".where-card")).to_contain_text("Table 2")
    page.locator(".where-name").click()
    expect(page.locator("h1")).to_have_text("فاطمة الزهراء بن عبد الله")
    context.close()


def test_standings_and_the_language_menu_work_without_javascript(browser, live_server, running):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False,
                                  viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto("/t/live-cup/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(len(NAMES))
    expect(rows.first).to_contain_text("Layla Haddad")
    page.locator("details.language-menu summary").click()  # the menu opens without a script
    page.get_by_role("navigation", name="Language").get_by_role("link", name="עברית").click()
    expect(page.locator("html")).to_have_attribute("lang", "he")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.locator("table.standings tbody tr").first.get_by_role("link").first.click()
    expect(page.locator("h1")).to_have_text("Layla Haddad")
    assert page.url.endswith(f"/he/t/live-cup/players/{running['entries'][0].player_id}/")
    context.close()
