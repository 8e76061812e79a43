"""A player of another championship in the browser (issue 33 items 1-2): the organizer enters them from the entries
page's form and sees the entry awaiting the player; the player opens the link from the invitation email exactly as
written, confirms on their phone; a link an organizer handed over says where it cannot confirm. Each page passes
axe-core at phone, tablet and laptop widths in English and Arabic without pushing the page sideways.

`PLAYER_SHOTS=<dir>` writes each page for review.
"""
import os
import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from championships import links
from championships.models import Entry, Player, PlayerLink
from results.sheets import SheetInput, save_entry
from tests.factories import make_entries, make_game, make_official, make_player, make_tournament

from .axe import axe_violations
from .test_accessibility import WIDTHS, described, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two(live_server, settings):
    settings.SITE_URL = live_server.url
    home = make_tournament(slug="home-league", name="Home League", games=1)
    make_official(home, "organizer", "home-organizer")
    mina = make_player("Mina Haddad", email="mina@example.org", born=date(1991, 4, 5), country="LB")
    yara = make_player("Yara Saleh", email="", born=date(1993, 7, 14))
    for player in (mina, yara):
        Entry.objects.create(tournament=home, player=player)
    away = make_tournament(slug="away-open", name="Away Open", games=1)
    bob = make_official(away, "organizer", "away-organizer")
    return home, away, bob, mina, yara


def check(page, name: str, found: dict, overflowing: list, shots: Path | None) -> None:
    found[name] = axe_violations(page)
    if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
        overflowing.append(name)
    if shots is not None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", WIDTHS)
def test_entering_and_confirming_across_championships(browser, live_server, axe_script, two, width, language):
    home, away, bob, mina, yara = two
    Player.objects.filter(pk__in=[mina.pk, yara.pk]).update(language=language)  # their emails' and links' language
    yara.refresh_from_db()
    shots = Path(os.environ["PLAYER_SHOTS"]) if os.environ.get("PLAYER_SHOTS") else None
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []
    size = {"width": width, "height": WIDTHS[width]}
    staff = browser.new_context(viewport=size, base_url=live_server.url, bypass_csp=True)
    phone = browser.new_context(viewport=size, has_touch=width < 1280, bypass_csp=True)
    try:
        page = staff.new_page()
        sign_in(page, "away-organizer")
        page.goto(f"{prefix}/organize/away-open/entries/")
        page.locator(".find-player input[name=email]").fill("MINA@example.org")
        page.locator(".find-player button[type=submit]").click()
        page.wait_for_selector(".message.success")
        check(page, f"entries-awaiting-{width}-{language}", found, overflowing, shots)
        assert page.locator("tr", has_text="Mina Haddad").locator(".muted").last.is_visible()
        (invitation,) = [m for m in mail.outbox if m.to == ["mina@example.org"]]
        address = re.search(r"https?://\S+/me/[\w-]+/", invitation.body).group(0)
        own = phone.new_page()
        own.goto(address)  # exactly as the email writes it
        check(own, f"me-invited-{width}-{language}", found, overflowing, shots)
        own.locator(".own-invitations button[type=submit]").click()
        own.wait_for_selector(".message.success")
        assert not own.locator(".own-invitations").count()
        # a link handed over to Yara, who has no email, by the organizer of her only tournament; then Bob enters her
        alice = get_user_model().objects.get(username="home-organizer")
        _player, shown = links.rotate(yara.pk, user=alice, tournament=home)
        page.goto(f"{prefix}/organize/away-open/entries/")
        page.locator(".find-player input[name=name]").fill("Yara Saleh")
        page.locator(".find-player input[name=born]").fill("1993-07-14")
        page.locator(".find-player button[type=submit]").click()
        page.wait_for_selector(".message.success")
        entry = Entry.objects.get(tournament=away, player=yara)
        table = make_game(away, [[entry, *make_entries(away, 3)]]).tables.get()
        save_entry(table.sheet.pk, SheetInput(dict(zip(
            table.seats.order_by("position").values_list("entry_id", flat=True), [10, 7, 5, 3]))),
            user=bob, base_version=0)
        assert PlayerLink.objects.get(player=yara).shown_to == alice
        handed = phone.new_page()
        handed.goto(shown)
        check(handed, f"me-handed-over-{width}-{language}", found, overflowing, shots)
        assert handed.locator(".confirm-result .message.warning").is_visible()
    finally:
        staff.close()
        phone.close()
    failing = {name: described(v) for name, v in found.items() if v}
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())
    assert not overflowing, f"wider than the {width}-px screen: {', '.join(overflowing)}"
