"""The stream overlay in Chromium as OBS would show it: transparent, no scrollbars at 1920×1080 and 1280×720 (and
on a phone), right to left in Arabic, nothing blocked by the Content-Security-Policy, accessible; a VP the referee
saves appears without a reload, marked provisional, then final once signed off.

`OVERLAY_SHOTS=<dir>` also writes screenshots (en and ar, 1920×1080, 1280×720 and 390/768/1280 wide) on a dark
backdrop, for a person to look at (the page itself stays transparent)."""
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from results.sheets import SheetInput, save_entry, sign, sign_off
from scheduling.clocks import change_clock
from tests.factories import make_game, make_official, make_player, make_tournament

from .axe import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Maximilian Oberhauser-Wittelsbach", "فاطمة الزهراء بن عبد الله", "יונתן כהן", "Sara Rahimi"]
SIZES = [(1920, 1080), (1280, 720), (390, 844), (768, 1024), (1280, 800)]
BACKDROP = "document.documentElement.style.background = '#3d5a45'"
"""A dark backdrop, like a video for the screenshots, set through the CSSOM (the CSP refuses a style tag)."""


@pytest.fixture
def final():
    tournament = make_tournament(slug="stream-final", name="National Final 2030", kind="finals", status="running",
                                 games=1, ruleset="cwc-2025")  # 004 §1.1.7: the map-study clock
    entries = [tournament.entries.create(player=make_player(name)) for name in NAMES]
    referee = make_official(tournament)
    game = make_game(tournament, [entries])
    change_clock(game.pk, "start", user=referee)
    return {"referee": referee, "table": game.tables.get()}


def enter(final, vps):
    seats = list(final["table"].seats.order_by("position"))
    sheet = final["table"].sheet
    sheet.refresh_from_db()
    return save_entry(sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), vps))), user=final["referee"],
                      base_version=sheet.version)


def open_page(browser, live_server, size, blocked, **options):
    context = browser.new_context(base_url=live_server.url, viewport={"width": size[0], "height": size[1]},
                                  **options)
    page = context.new_page()
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    return context, page


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"
                         " && document.documentElement.scrollHeight <= window.innerHeight")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_transparent_and_no_scrollbars_at_stream_sizes_and_on_a_phone(browser, live_server, final, language):
    enter(final, [9, 10, 4, 7])
    blocked: list[str] = []
    prefix = "" if language == "en" else f"/{language}"
    for size in SIZES:
        context, page = open_page(browser, live_server, size, blocked)
        page.goto(prefix + "/t/stream-final/overlay/")
        expect(page.locator(".overlay-vp-number")).to_have_count(4)
        expect(page.locator("[data-clock-digits]")).to_be_visible()
        assert page.locator("html").get_attribute("dir") == ("ltr" if language == "en" else "rtl")
        assert fits(page), size
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgba(0, 0, 0, 0)"
        if target := os.environ.get("OVERLAY_SHOTS"):
            page.evaluate(BACKDROP)
            page.screenshot(path=str(Path(target) / f"overlay-{language}-{size[0]}x{size[1]}.png"))
        context.close()
    assert not blocked, blocked


def test_a_saved_vp_shows_without_a_reload_then_the_sign_off(browser, live_server, final):
    blocked: list[str] = []
    context, page = open_page(browser, live_server, (1920, 1080), blocked)
    page.goto("/t/stream-final/overlay/")
    expect(page.locator(".overlay-seat")).to_have_count(4)
    expect(page.locator(".overlay-vp-number")).to_have_count(0)
    page.evaluate("window.notReloaded = true")
    sheet = enter(final, [9, 10, 4, 7])
    expect(page.locator(".overlay-vp-number")).to_have_text(["9", "10", "4", "7"], timeout=10000)
    expect(page.locator(".overlay-state")).to_have_text("Provisional: not signed off yet")
    for seat in final["table"].seats.all():
        sheet = sign(sheet.pk, seat.entry_id, user=final["referee"], method="tap", version=sheet.version)
    sign_off(sheet.pk, user=final["referee"], version=sheet.version)
    expect(page.locator(".overlay-state")).to_have_text("Final result", timeout=10000)
    expect(page.locator(".overlay-seat.winner")).to_contain_text(NAMES[1])
    assert page.evaluate("window.notReloaded === true")
    assert fits(page)
    if target := os.environ.get("OVERLAY_SHOTS"):
        page.evaluate(BACKDROP)
        page.screenshot(path=str(Path(target) / "overlay-en-final-1920x1080.png"))
    context.close()
    assert not blocked, blocked


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_overlay_passes_axe(browser, live_server, final, axe_script, language):
    enter(final, [9, 10, 4, 7])
    context, page = open_page(browser, live_server, (1920, 1080), [], bypass_csp=True)  # to inject axe
    page.goto(("" if language == "en" else f"/{language}") + "/t/stream-final/overlay/")
    expect(page.locator(".overlay-vp-number")).to_have_count(4)
    assert axe_violations(page, axe_script) == []
    context.close()
