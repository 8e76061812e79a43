"""Issue 36, done when: a 390-px phone calls a referee, a 768-px tablet sees the call within 5 s, takes it, the phone
shows who is coming, and the referee resolves it with a ruling posted as an announcement; a call for timed turns
starts them from the queue; the organizer's CSV lists the call and its wait. The phone's, the queue's, the call's
and the organizer's pages pass axe-core (WCAG 2.1 AA); offline, the tablet's banner says calls need the network."""
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from championships import links
from results.models import Announcement
from tests.factories import make_entries, make_game, make_official, make_tournament

from .axe import axe_violations
from .test_guide_screenshots import GUIDE_IMAGES, shot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_phone_calls_and_the_tablet_answers(browser, live_server, axe_script, tmp_path):
    """`GUIDE_SCREENSHOTS=1` also writes the guide's pictures of the calls (docs/guide/img/calls-*.png)."""
    images = GUIDE_IMAGES if os.environ.get("GUIDE_SCREENSHOTS") == "1" else tmp_path
    tournament = make_tournament(slug="call-cup", name="Call Cup", status="running")
    entries = make_entries(tournament, 8)
    make_official(tournament, username="rita")
    game = make_game(tournament, [entries[:4], entries[4:]])
    first, second = game.tables.order_by("number")
    phone_context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844},
                                         has_touch=True, bypass_csp=True)
    tablet_context = browser.new_context(base_url=live_server.url, viewport={"width": 768, "height": 1024},
                                          bypass_csp=True)
    phone, tablet = phone_context.new_page(), tablet_context.new_page()
    sign_in(tablet, "rita")
    tablet.goto("/referee/call-cup/calls/")
    expect(tablet.locator("#calls-queue")).to_contain_text("No call is waiting.")
    assert axe_violations(tablet, axe_script) == []
    tablet_context.set_offline(True)  # the banner says calls need the network
    expect(tablet.locator("#tablet-state")).to_contain_text("calls from the tables need the network")
    tablet_context.set_offline(False)
    expect(tablet.locator("#tablet-state")).to_contain_text("Online")

    phone.goto(f"/me/{links.issue(entries[0].player)}/")
    phone.get_by_label("Why do you call a referee?").select_option("rules")
    phone.get_by_label("A note for the referee (optional)").fill("May I trade before rolling?")
    phone.get_by_role("button", name="Call a referee to my table").click()
    expect(phone.locator(".call-states")).to_contain_text("Waiting for a referee since")
    assert axe_violations(phone, axe_script) == []
    phone.locator(".call-referee").scroll_into_view_if_needed()
    shot(phone, images, "calls-phone-en")

    row = tablet.locator("#calls-queue tr", has_text="Game 1, table 1")
    expect(row).to_contain_text("May I trade before rolling?", timeout=5000)  # polled, no reload
    row.get_by_role("button", name="I'm going").click()
    expect(tablet.locator("#calls-queue")).to_contain_text("rita is going")
    shot(tablet, images, "calls-queue-en")
    expect(phone.locator(".call-states")).to_contain_text("A referee is coming: rita.", timeout=6000)

    tablet.locator("#calls-queue tr", has_text="Game 1, table 1").get_by_role("link").click()
    assert axe_violations(tablet, axe_script) == []
    tablet.get_by_label("Ruling (optional)").fill("Trading comes after the roll.")
    tablet.get_by_label("Post the ruling as an announcement").check()
    shot(tablet, images, "calls-resolve-en")
    tablet.get_by_role("button", name="Resolved").click()
    expect(tablet.locator("#calls-queue")).to_contain_text("No call is waiting.")
    assert Announcement.objects.get(tournament=tournament).text == "Game 1, table 1: Trading comes after the roll."
    expect(phone.locator(".call-states")).to_contain_text("Trading comes after the roll.", timeout=6000)

    other = phone_context.new_page()
    other.goto(f"/me/{links.issue(entries[4].player)}/")
    other.get_by_label("Why do you call a referee?").select_option("timed_turns")
    other.get_by_role("button", name="Call a referee to my table").click()
    expect(tablet.locator("#calls-queue")).to_contain_text("Game 1, table 2", timeout=5000)
    tablet.locator("#calls-queue tr", has_text="Game 1, table 2").get_by_role("link").click()
    tablet.get_by_label("Start timed turns at this table").check()
    tablet.get_by_role("button", name="Resolved").click()
    expect(tablet.locator("#calls-queue")).to_contain_text("No call is waiting.")
    second.refresh_from_db()
    assert second.turn_seconds and first.calls.get().ruling == "Trading comes after the roll."

    desk_context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 800},
                                       bypass_csp=True, accept_downloads=True)
    organizer = desk_context.new_page()
    make_official(tournament, "organizer", username="olga")
    sign_in(organizer, "olga")
    organizer.goto("/organize/call-cup/calls/")
    expect(organizer.locator("main")).to_contain_text("Median wait")
    assert axe_violations(organizer, axe_script) == []
    with organizer.expect_download() as download:
        organizer.locator("#dl-calls-csv").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert len(lines) == 3 and lines[1].split(",")[1:4] == ["1", "1", "rules"] and lines[1].split(",")[8].isdigit()
    for context in (phone_context, tablet_context, desk_context):
        context.close()
