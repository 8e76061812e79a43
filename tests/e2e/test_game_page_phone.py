"""A game's public page on a 390 px phone: its first screen answers "where do I sit?" (issue 20 item 7).

The boards come after the tables or inside their table's card, folded (<details>, no JavaScript needed), so ten
board pictures no longer push Table 1 five screens down.
"""
import pytest

from scheduling.boards import deal_boards
from tests.factories import make_entries, make_game, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def game_with_boards(slug: str, per_table: bool):
    """A published game of 10 tables (40 players) with its boards dealt: one per table, or one for the game."""
    tournament = make_tournament(slug=slug, games=1, status="running")
    tournament.stages.update(boards_per_table=per_table)
    entries = make_entries(tournament, 40)
    game = make_game(tournament, [entries[i:i + 4] for i in range(0, 40, 4)])
    deal_boards(game)
    return tournament


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("per_table", [True, False], ids=["a board per table", "one board"])
def test_table_1_is_on_the_first_screen_of_a_phone(browser, live_server, language, per_table):
    game_with_boards(f"phone-{language}-{int(per_table)}", per_table)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    page.goto(f"{prefix}/t/phone-{language}-{int(per_table)}/games/1/")
    first = page.locator(".public-table").first
    box = first.bounding_box()
    assert box is not None and box["y"] >= 0
    assert box["y"] + box["height"] <= PHONE["height"], box  # Table 1, every seat of it, without scrolling
    assert page.locator("details.board-details[open]").count() == 0  # the boards are folded
    assert page.locator(".board-figure svg").first.is_hidden()
    context.close()


def test_a_folded_board_opens_without_javascript(browser, live_server):
    game_with_boards("phone-nojs", per_table=True)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto("/t/phone-nojs/games/1/")
    table = page.locator(".public-table").nth(2)
    board = table.locator("details.board-details")
    assert board.locator(".board-figure svg").is_hidden()
    board.locator("summary").click()
    assert board.locator(".board-figure svg").is_visible()
    context.close()
