"""The map-study clock: two browsers (one whose own clock is 90 s off) show the same time left, after a reload
too (when the page comes from a cache, its server time stale), from the server's end time; without JavaScript
the page shows when the study ends."""
import re

import pytest
from playwright.sync_api import expect

from scheduling.clocks import change_clock
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SKEWED_DEVICE = "(() => { const real = Date.now; Date.now = () => real() + 90000; })();"


def seconds_left(page) -> int:
    minutes, seconds = page.locator("#map-study-clock [data-clock-digits]").inner_text().split(":")
    return 60 * int(minutes) + int(seconds)


def test_two_screens_agree_on_the_time_left(browser, live_server):
    tournament = make_tournament(slug="clock-cup", name="Clock Cup", status="running",
                                 ruleset="cwc-2025")  # 004 §1.1.7: map-study time
    entries = make_entries(tournament, 4)
    referee = make_official(tournament)
    game = make_game(tournament, [entries])
    change_clock(game.pk, "start", user=referee)
    right = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    skewed = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 800})
    skewed.add_init_script(SKEWED_DEVICE)
    first, second = right.new_page(), skewed.new_page()
    first.goto("/t/clock-cup/")
    second.goto("/ar/t/clock-cup/")
    assert second.evaluate("Date.now() - new Date().getTime()") > 80000  # this device's clock really is off
    for _ in range(2):
        first.wait_for_timeout(1200)  # both have ticked
        a, b = seconds_left(first), seconds_left(second)
        assert 280 <= a <= 300 and abs(a - b) <= 1, (a, b)
        second.reload()
        second.wait_for_timeout(500)
    right.close()
    skewed.close()
    plain = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = plain.new_page()
    page.goto("/t/clock-cup/")
    expect(page.locator("#map-study-clock")).to_contain_text(re.compile(r"Study ends at \d\d:\d\d:\d\d"))
    plain.close()
