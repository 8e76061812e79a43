"""Right-to-left names on left-to-right pages and the other way round keep their order on the screen.

Where names follow each other in running text, the Unicode bidi algorithm would join the neighbours of one direction
into one run and show them backwards; each name must be isolated. Measured in Chromium: the position on the screen of
each name, in every language of the site.
"""
import pytest
from django.urls import reverse

from tests.factories import make_game, make_official, make_player, make_tournament, play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ARABIC = ["أحمد سالم", "فاطمة علي", "خالد يوسف", "مريم حسن"]
LATIN = ["Zoe Adams", "Yann Brel", "Xavier Cole", "Wanda Diaz"]

LEFTS = """(names) => {
  const line = document.querySelectorAll('.revision-scores')[0];
  const text = line.textContent;
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  return names.map((name) => {
    for (const node of nodes) {
      const at = node.data.indexOf(name);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + name.length);
      return range.getBoundingClientRect().left;
    }
    throw new Error(name + ' not in ' + text);
  });
}"""


@pytest.fixture
def sheets():
    tournament = make_tournament(slug="bidi-cup")
    arabic = [tournament.entries.create(player=make_player(name)) for name in ARABIC]
    latin = [tournament.entries.create(player=make_player(name)) for name in LATIN]
    game = make_game(tournament, [arabic, latin])
    referee = make_official(tournament, username="bidi-ref")
    for table in game.tables.all():
        play(table, [10, 8, 6, 4], referee)
    return {names[0]: table for names, table in zip((ARABIC, LATIN), game.tables.order_by("number"))}


@pytest.mark.parametrize("language", ["en", "ar", "he", "fa"])
def test_sheet_history_lists_players_in_seat_order_in_every_direction(browser, live_server, sheets, language):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("bidi-ref")
    page.locator("#id_password").fill("pw-for-tests-only")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/referee/")
    prefix = "" if language == "en" else f"/{language}"
    for names in (ARABIC, LATIN):
        table = sheets[names[0]]
        page.goto(prefix + reverse("referee-sheet", args=[table.game.tournament.slug, table.pk]))
        lefts = page.evaluate(LEFTS, names)
        rtl = language != "en"
        assert lefts == sorted(lefts, reverse=rtl), f"{names} should start at the {'right' if rtl else 'left'}: {lefts}"
    context.close()
