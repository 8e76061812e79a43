"""Issue 37, done when: on a 390-px phone a player opens "Your data" from their own page, downloads the JSON, asks
for erasure and confirms it by the emailed link, opened as written; each page passes axe-core (WCAG 2.1 AA), in
English and Arabic."""
import json
from pathlib import Path

import pytest

from championships import links
from championships.models import Player
from privacy.erasure import pseudonym
from tests.factories import make_entries, make_tournament

from .test_players_phone import PHONE, Pages, _link

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_player_downloads_and_erases_their_data_on_a_phone(browser, site, axe_script, language):
    (entry,) = make_entries(make_tournament(slug="data-cup", name="Data Cup"), 1)
    Player.objects.filter(pk=entry.player_id).update(name="Rania Khoury", email="rania@example.com", language=language)
    prefix = "" if language == "en" else f"/{language}"
    phone = browser.new_context(viewport=PHONE, base_url=site.url, has_touch=True, bypass_csp=True,
                                accept_downloads=True).new_page()
    pages = Pages(axe_script, language)
    phone.goto(f"{prefix}/me/{links.issue(Player.objects.get(pk=entry.player_id))}/")
    phone.locator("main .own-data-link a").click()
    phone.wait_for_url("**/data/")
    pages.check(phone, "my-data")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than the phone
    with phone.expect_download() as download:
        phone.locator("main a[download]").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["data"]["championships.player"]["rows"][0]["email"] == "rania@example.com"
    phone.locator("main .own-erase button").click()
    phone.wait_for_url("**/data/")
    asked = site.mail.wait("rania@example.com", lambda m: "/me/erase/" in m.body)
    phone.goto(_link(r"https?://\S+/me/erase/\S+/", asked, site.url))
    pages.check(phone, "erase-confirm")
    assert Player.objects.get(pk=entry.player_id).email == "rania@example.com"  # opening the link erased nothing
    phone.locator("main button.danger").click()
    phone.wait_for_selector("main .message.success")
    pages.check(phone, "erased")
    assert Player.objects.get(pk=entry.player_id).name == pseudonym(entry.player_id)
    pages.assert_clean()
