"""The page a reader sees when a PDF cannot be laid out now (429, `core/pdf_limits.py`): the address was a PDF's,
opened in a browser tab, so it is a page of the site that says why and how long to wait, and passes axe-core at
phone, tablet and laptop widths in English and in Arabic."""
from contextlib import ExitStack

import pytest

from core.pdf_limits import ANONYMOUS
from tests.factories import make_entries, make_game, make_official, make_tournament, play

from .axe import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 768: 1024, 1280: 800}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_busy_page_passes_axe_at_every_width(browser, live_server, axe_script, language):
    tournament = make_tournament(slug="busy-open", games=1)
    game = make_game(tournament, [make_entries(tournament, 4)])
    play(game.tables.get(), [10, 8, 6, 4], make_official(tournament))
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []
    with ExitStack() as readers:
        for _slot in range(ANONYMOUS.limit):  # other readers are laying PDFs out
            readers.enter_context(ANONYMOUS.slot("all"))
        for width, height in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server.url,
                                          bypass_csp=True)
            try:
                page = context.new_page()
                response = page.goto(f"{prefix}/t/{tournament.slug}/standings.pdf")
                assert response.status == 429 and response.headers["retry-after"] == str(ANONYMOUS.retry_after)
                assert page.locator("html").get_attribute("lang") == language
                assert page.locator("h1").count() == 1
                assert page.locator(f"main a[href='{prefix}/t/{tournament.slug}/standings.pdf']").count() == 1
                found[width] = axe_violations(page, axe_script)
                if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
                    overflowing.append(width)
            finally:
                context.close()
    assert {width: v for width, v in found.items() if v} == {}
    assert overflowing == []
