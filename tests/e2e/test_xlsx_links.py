"""The XLSX links beside the CSV ones (issue 27, item 5), in a browser: visible on the organizer's downloads panel,
the check-in desk and the public standings, at phone, tablet and laptop widths in English and Arabic; axe-core
passes; a workbook downloaded from the standings opens right to left in Arabic."""
import io
import os
from pathlib import Path

import pytest
from openpyxl import load_workbook

from results.publishing import publish_game
from scheduling.models import Game
from scheduling.services import generate_seating
from tests.factories import make_admin, make_official, make_player, make_tournament, play

from .axe import axe_violations
from .test_accessibility import described, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 768: 1024, 1280: 800}
NAMES = ["Layla Haddad", "أحمد الفارسي", "Noa Levi", "=HYPERLINK(\"http://x\",\"1\")", "Sara Rahimi", "יונתן כהן",
         "Chen Wei", "فاطمة الزهراء بن عبد الله"]
SHOTS = Path(os.environ.get("XLSX_SHOTS", "/tmp/xlsx-shots"))


@pytest.fixture
def cup():
    tournament = make_tournament(slug="sheet-cup", name="Spreadsheet Cup", status="running", games=2)
    for name in NAMES:
        tournament.entries.create(player=make_player(name))
    organizer = make_official(tournament, "organizer", username="sheet-organizer")
    make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=make_admin(), seed=3)
    game = Game.objects.get(tournament=tournament, number=1)
    publish_game(game.pk, user=organizer)
    play(game.tables.get(number=1), [10, 8, 6, 4], organizer)
    return tournament


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", WIDTHS)
def test_xlsx_links_are_visible_and_pages_pass_axe(browser, live_server, axe_script, cup, width, language):
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, base_url=live_server.url,
                                  has_touch=width < 1280, bypass_csp=True, accept_downloads=True)
    page = context.new_page()
    sign_in(page, "sheet-organizer")
    prefix = "" if language == "en" else f"/{language}"
    pages = {"console": (f"{prefix}/organize/sheet-cup/", 7), "check-in": (f"{prefix}/organize/sheet-cup/check-in/", 1),
             "standings": (f"{prefix}/t/sheet-cup/standings/", 1)}
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, (path, links) in pages.items():
        page.goto(path)
        xlsx = page.locator("main a[href*='.xlsx']")
        assert xlsx.count() == links, (name, xlsx.count())
        for i in range(links):
            assert xlsx.nth(i).is_visible(), (name, i)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} wider than {width}px"
        violations = axe_violations(page, axe_script)
        assert not violations, f"{name}: {described(violations)}"
        if name == "console":
            page.locator("#downloads-title").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"console-{language}-{width}.png"))
        if name == "standings":
            page.screenshot(path=str(SHOTS / f"standings-{language}-{width}.png"))
    with page.expect_download() as download:
        page.locator("main a[href$='standings.xlsx']").click()
    sheet = load_workbook(io.BytesIO(Path(download.value.path()).read_bytes())).active
    assert bool(sheet.sheet_view.rightToLeft) is (language == "ar")
    assert NAMES[3] in [row[1] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)
    context.close()
