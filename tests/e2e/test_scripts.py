"""A name in any script shows in the browser, never as empty boxes.

Chromium says through the DevTools protocol which fonts drew an element's text (`CSS.getPlatformFontsForNode`);
a character no font has is drawn with the first font's .notdef box, so every character of a name must be in the
character map of one of the fonts reported for it. Unlike a screenshot or a width comparison, this names the
characters that failed and does not depend on how a box happens to look.
"""
import pytest

from tests.factories import make_game, make_official, make_player, make_tournament, play
from tests.glyphs import NAMES_BY_SCRIPT, uncovered

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scripts():
    tournament = make_tournament(slug="scripts-live", name="서울 오픈 王座戦", games=1, status="running")
    entries = [tournament.entries.create(player=make_player(name)) for name in NAMES_BY_SCRIPT.values()]
    game = make_game(tournament, [entries[n:n + 4] for n in range(0, len(entries), 4)])
    referee = make_official(tournament)
    for table in game.tables.all():
        play(table, [10, 8, 6, 4], referee)
    return tournament


def _tofu(page, selector: str) -> dict[str, set[str]]:
    """Each matching element's text → the characters none of the fonts Chromium drew it with has."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
    texts = page.locator(selector).all_inner_texts()
    assert len(nodes) == len(texts) > 0
    found = {}
    for node, text in zip(nodes, texts):
        fonts = [font["postScriptName"] for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
        found[text] = uncovered(text, fonts)
    return found


@pytest.mark.parametrize("language", ["en", "ar"])
def test_names_in_every_script_render_with_real_glyphs(browser, live_server, scripts, language):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(("" if language == "en" else f"/{language}") + f"/t/{scripts.slug}/standings/")
    names = _tofu(page, ".player-cell bdi")
    assert set(names) == set(NAMES_BY_SCRIPT.values())
    assert {name: chars for name, chars in names.items() if chars} == {}
    assert {title: chars for title, chars in _tofu(page, "h1").items() if chars} == {}
    context.close()
