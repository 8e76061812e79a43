"""A player's page in each new language, chosen from the header's menu on a 390-px phone: the menu works without
JavaScript, the page is in the language chosen (html lang), nothing pushes it sideways (long German and Greek
words, CJK text) and it passes axe."""
import pytest

from championships import links
from championships.models import Player
from tests.factories import make_entries, make_game, make_official, make_tournament, play

from .axe import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEW = ["de", "fr", "es", "it", "pt-br", "nl", "pl", "tr", "el", "ja", "zh-hans", "ko"]
LONG_NAMES = ["Maximilian Oberhauser-Wittelsbach", "Παναγιώτης Χατζηκωνσταντινόπουλος", "Donaudampfschifffahrtskapitän",
              "鈴木 さくら", "王小明", "김민준", "Zoë Łukasiewicz-Ångström", "Ayşe Çağlayan"]


@pytest.fixture
def player_page():
    """A player at a signed-off table of a qualifier whose name is one long German word, in a second game."""
    tournament = make_tournament(slug="sprachen", name="Landesmeisterschaftsqualifikationsturnier Πανελλήνιο",
                                 status="running")
    entries = make_entries(tournament, len(LONG_NAMES))
    for entry, name in zip(entries, LONG_NAMES):
        Player.objects.filter(pk=entry.player_id).update(name=name)
    game = make_game(tournament, [entries[:4], entries[4:]])
    play(game.tables.get(number=1), [10, 8, 6, 4], make_official(tournament))
    make_game(tournament, [entries[4:], entries[:4]], number=2, stage=game.stage)
    return f"/me/{links.issue(Player.objects.get(pk=entries[1].player_id))}/"


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_the_players_page_in_each_new_language_from_the_menu(browser, live_server, axe_script, player_page, script):
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url, has_touch=True,
                                  bypass_csp=True, java_script_enabled=script)
    page = context.new_page()
    languages = NEW if script else NEW[:5]  # without JavaScript (no axe either): the menu alone, five of them
    failing, overflowing = {}, []
    try:
        assert page.goto(player_page).status == 200
        for code in languages:
            menu = page.locator("details.language-menu")
            menu.locator("summary").click()
            link = menu.locator(f'a[hreflang="{code}"]')
            assert link.is_visible() and link.get_attribute("lang") == code
            outside = page.evaluate("""() => [...document.querySelectorAll('.language-menu a')].map(a =>
                a.getBoundingClientRect()).filter(r => r.left < 0 || r.right > window.innerWidth).length""")
            assert outside == 0, f"{code}: {outside} of the menu's languages off the screen"
            if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):  # the open menu too
                overflowing.append(f"{code} (menu open)")
            link.click()
            page.wait_for_url(f"**/{code}{player_page}")
            assert page.locator("html").get_attribute("lang") == code
            assert page.locator("html").get_attribute("dir") == "ltr"
            assert page.locator(f'details.language-menu summary [lang="{code}"]').count() == 1
            if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
                overflowing.append(code)
            if script:
                failing[code] = axe_violations(page, axe_script)
    finally:
        context.close()
    failing = {code: v for code, v in failing.items() if v}
    assert not failing, "\n".join(f"{code}: " + "; ".join(f"{v['id']}: {v['help']} at "
                                                          + ", ".join(n["target"] for n in v["nodes"][:5])
                                                          for v in found) for code, found in failing.items())
    assert not overflowing, f"wider than the 390-px screen: {', '.join(overflowing)}"


def test_the_menu_is_reached_and_used_by_keyboard(browser, live_server, player_page):
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto(player_page)
        page.locator("details.language-menu summary").focus()
        page.keyboard.press("Enter")
        assert page.locator("details.language-menu").get_attribute("open") is not None
        page.keyboard.press("Escape")  # with JavaScript, Escape (or a tap outside) closes it again
        assert page.locator("details.language-menu").get_attribute("open") is None
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        page.mouse.click(5, 830)  # below the open list, outside the menu
        assert page.locator("details.language-menu").get_attribute("open") is None
        page.locator("details.language-menu summary").focus()
        page.keyboard.press("Enter")
        page.locator('details.language-menu a[hreflang="el"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_url(f"**/el{player_page}")
        assert page.locator("html").get_attribute("lang") == "el"
    finally:
        context.close()
