"""A Google Forms export in the import preview, in the browser (issue 27 item 6): the columns it read and ignored,
the date format it guessed, and the choice that reads the dates again; axe-core at phone, tablet and laptop widths
in English and Arabic, nothing wider than the screen. FORMS_SHOTS=<directory> keeps screenshots to look at."""
import os
from pathlib import Path

import pytest

from championships.models import Player
from tests.factories import make_official, make_tournament

from .axe import axe_violations
from .test_accessibility import WIDTHS, described, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "forms" / "google-forms-registrations.csv"
ARABIC = SAMPLE.with_name("google-forms-arabic-first-and-last-names.csv")


def shot(page, name: str) -> None:
    if target := os.environ.get("FORMS_SHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(target) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_forms_preview_guesses_the_dates_and_passes_axe(browser, live_server, axe_script, width, language):
    tournament = make_tournament(slug="forms-cup", games=1)
    make_official(tournament, "organizer", "forms-organizer")
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, base_url=live_server.url,
                                  has_touch=width < 1280, bypass_csp=True)
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []

    def check(name: str) -> None:
        found[name] = axe_violations(page)
        if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
            overflowing.append(name)
        shot(page, f"{name.replace(' ', '-')}-{language}-{width}")

    try:
        sign_in(page, "forms-organizer")
        page.goto(f"{prefix}/organize/forms-cup/players/import/")
        page.locator("input[type=file]").set_input_files(files=[{
            "name": SAMPLE.name, "mimeType": "text/csv", "buffer": SAMPLE.read_bytes()}])
        page.locator("form[enctype] button[type=submit]").click()
        page.wait_for_selector("#import-confirm")
        select = page.locator("select[name=date_format]")
        assert select.input_value() == "month_first"
        assert page.locator("time.read-date[datetime='1990-05-31']").count() == 1
        check("forms preview")
        select.select_option("day_first")
        page.locator(".date-format button").click()
        page.wait_for_selector(".preview-table .row-bad")
        assert page.locator("select[name=date_format]").input_value() == "day_first"
        assert page.locator("#import-confirm button.primary").count() == 0  # three rows refused: nothing to import
        check("forms preview day first")
        page.locator("select[name=date_format]").select_option("month_first")
        page.locator(".date-format button").click()
        page.wait_for_selector("#import-confirm button.primary")
        page.locator("#import-confirm input[name=consent]").check()  # the players agreed to the privacy notice
        page.locator("#import-confirm button.primary").click()
        page.wait_for_url("**/organize/forms-cup/players/")
        page.goto(f"{prefix}/organize/forms-cup/players/import/")  # a form asked in Arabic, names in two questions
        page.locator("input[type=file]").set_input_files(files=[{
            "name": ARABIC.name, "mimeType": "text/csv", "buffer": ARABIC.read_bytes()}])
        page.locator("form[enctype] button[type=submit]").click()
        page.wait_for_selector("#import-confirm")
        assert page.locator(".column-list bdi", has_text="الاسم الأول + اسم العائلة").count() == 1
        check("arabic form preview")
    finally:
        context.close()
    assert Player.objects.filter(email="layla.haddad@example.org").exists()
    failing = {name: described(v) for name, v in found.items() if v}
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())
    assert not overflowing, f"wider than the {width}-px screen: {', '.join(overflowing)}"
