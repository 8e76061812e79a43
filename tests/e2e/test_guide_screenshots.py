"""The user guide's screenshots (docs/guide.md), taken by walking a small championship from its preset to its
champion, so the pictures never go stale.

`GUIDE_SCREENSHOTS=1` writes them to docs/guide/img/ (then commit them); otherwise they go to a temporary
directory and the test still checks that every page of the walk renders.
"""
import dataclasses
import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from PIL import Image
from playwright.sync_api import expect

from attendance import checkin
from championships.formats import plan_from_preset
from championships.models import Entry
from championships.services import assign_staff
from championships.setup import create_championship
from ranking.qualification import advance_qualifiers, seat_seeded_stage
from results.penalties import record_penalty
from results.publishing import publish_game
from scheduling.models import Game
from scheduling.services import generate_seating
from tests.factories import make_user, play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GUIDE_IMAGES = Path(settings.BASE_DIR) / "docs" / "guide" / "img"
PLAYERS = ["Layla Haddad", "Noa Levi", "أحمد الفارسي", "Chen Wei", "Sara Rahimi", "Tomás Ortega", "Amira Nasser",
           "Jonas Berg"]
"""Strongest first: the walk's results follow this order, so the standings have no tie at the cut-off."""


@pytest.fixture
def images(tmp_path) -> Path:
    if os.environ.get("GUIDE_SCREENSHOTS") == "1":
        GUIDE_IMAGES.mkdir(parents=True, exist_ok=True)
        return GUIDE_IMAGES
    return tmp_path


def shot(page, images: Path, name: str) -> None:
    """The visible part of the page as a small PNG (a 256-colour palette keeps the guide light)."""
    path = images / f"{name}.png"
    page.screenshot(path=str(path))
    with Image.open(path) as image:
        assert image.width == page.viewport_size["width"]
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def visit(page, url: str) -> None:
    response = page.goto(url)
    assert response.status == 200, f"{url}: {response.status}"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{url} is too wide"


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-for-tests-only")
    page.locator("main").get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/referee/")


def play_game(game: Game, referee) -> None:
    """Every table of the game entered, signed and signed off; the strongest player at a table wins."""
    strength = {name: n for n, name in enumerate(PLAYERS)}
    for table in game.tables.order_by("number"):
        seats = list(table.seats.select_related("entry__player").order_by("position"))
        ranks = [strength[s.entry.player.name] for s in seats]
        best = min(ranks)
        play(table, [10 if r == best else 9 - r for r in ranks], referee)


def test_the_guide_walk_from_a_preset_to_the_champion(browser, live_server, images):
    organizer = make_user("guide-organizer")
    organizer.user_permissions.add(Permission.objects.get(codename="add_championship"))
    referee = make_user("guide-referee")
    wide = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=live_server.url)
    narrow = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url, has_touch=True)
    tablet = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url, has_touch=True)
    page, phone, referee_phone = wide.new_page(), narrow.new_page(), tablet.new_page()
    try:
        sign_in(page, "guide-organizer")
        # 1. a championship from a preset
        visit(page, "/organize/new/")
        shot(page, images, "01-new-championship")
        visit(page, "/organize/new/?preset=uae-2022&year=2030")
        expect(page.get_by_role("button", name="Create the championship")).to_be_visible()
        shot(page, images, "02-adjust-preset")
        plan = plan_from_preset("uae-2022", year=2030)  # made smaller, as the adjust page allows: 1 qualifier
        qualifier_plan, _second, finals_plan = plan.tournaments
        qualifier_plan = dataclasses.replace(qualifier_plan, advance_count=4, stages=(
            dataclasses.replace(qualifier_plan.stages[0], games=2),))
        finals_plan = dataclasses.replace(finals_plan, capacity=4, stages=(
            dataclasses.replace(finals_plan.stages[0], games=1), finals_plan.stages[1]))
        championship = create_championship(dataclasses.replace(plan, tournaments=(qualifier_plan, finals_plan)),
                                           user=organizer)
        qualifier = championship.tournaments.get(kind="qualifier")
        finals = championship.tournaments.get(kind="finals")
        visit(page, f"/organize/championships/{championship.slug}/")
        shot(page, images, "03-championship-console")

        # 2. staff
        visit(page, f"/organize/{qualifier.slug}/staff/")
        page.get_by_label("Username or email address").fill("guide-referee")
        page.get_by_label("Role").select_option("referee")
        page.get_by_role("button", name="Invite", exact=True).click()
        expect(page.get_by_text("guide-referee is now referee.")).to_be_visible()
        shot(page, images, "04-staff")
        assign_staff(referee, "referee", tournament=finals, user=organizer)

        # 3. players: a registration list, previewed, then imported and entered
        visit(page, f"/organize/{qualifier.slug}/players/import/")
        rows = "".join(f"{name},player{n}@example.org,199{n}-0{n + 1}-1{n},{country},{friend}\n"
                       for n, (name, country, friend) in enumerate(zip(
                           PLAYERS, ["LB", "IL", "AE", "CN", "IR", "ES", "EG", "Norway"],
                           ["", "", "", "", "", "", "", "Layla Haddad"])))
        page.locator("input[type=file]").set_input_files(files=[{
            "name": "registrations.csv", "mimeType": "text/csv",
            "buffer": ("name,email,date_of_birth,country,friends_or_family\n" + rows).encode()}])
        page.get_by_role("button", name="Check the list").click()
        expect(page.get_by_role("heading", name="Preview of registrations.csv")).to_be_visible()
        shot(page, images, "05-import-preview")
        page.locator("input[name=consent]").check()  # the players agreed to the championship's privacy notice
        page.get_by_role("button", name=re.compile(r"^Import: 8 new players, 8 players entered in ")).click()
        visit(page, f"/organize/{qualifier.slug}/players/")
        shot(page, images, "06-players")
        visit(page, f"/organize/{qualifier.slug}/entries/")
        shot(page, images, "07-entries")
        assert qualifier.entries.count() == 8

        # 4. check-in on the day: one player five minutes late, one still to come; "late" is typed and confirmed
        entries = {e.player.name: e for e in qualifier.entries.select_related("player")}
        for name, entry in entries.items():
            if name != PLAYERS[-2]:
                checkin.check_in(qualifier, entry.pk, user=organizer, minutes_late=5 if name == PLAYERS[-1] else 0)
        visit(page, f"/organize/{qualifier.slug}/check-in/")
        expect(page.locator(f"#checkin-entry-{entries[PLAYERS[-2]].pk}").get_by_role(
            "button", name=re.compile("^On time"))).to_be_visible()
        shot(page, images, "08-check-in")
        sign_in(phone, "guide-organizer")
        visit(phone, f"/organize/{qualifier.slug}/check-in/")
        shot(phone, images, "08-check-in-phone")
        waiting = phone.locator(f"#checkin-entry-{entries[PLAYERS[-2]].pk}")
        waiting.locator("summary", has_text="Late…").click()
        waiting.get_by_label("Minutes late").fill("7")
        waiting.get_by_role("button", name="Next: confirm").click()
        expect(waiting.get_by_role("button", name="Confirm: late, 7 minutes")).to_be_focused()
        waiting.scroll_into_view_if_needed()
        shot(phone, images, "08-check-in-late-phone")
        waiting.get_by_role("link", name="Cancel").click()
        expect(waiting.get_by_role("button", name=re.compile("^On time"))).to_be_visible()
        assert not qualifier.penalties.filter(entry=entries[PLAYERS[-2]]).exists()  # nothing written before "Confirm"
        checkin.check_in(qualifier, entries[PLAYERS[-2]].pk, user=organizer)

        # 5. seating: generated, read, published
        stage = qualifier.stages.get()
        visit(page, f"/organize/{qualifier.slug}/stages/{stage.pk}/")
        page.get_by_role("button", name="Generate seating").click()
        expect(page.get_by_role("heading", name="Quality report")).to_be_visible()
        shot(page, images, "09-seating")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Publish this game's seating").first.click()
        expect(page.locator(".status-published").first).to_be_visible()
        page.locator("#game-" + str(Game.objects.get(tournament=qualifier, number=1).pk)).scroll_into_view_if_needed()
        shot(page, images, "10-published")

        # 6. the referee's tablet: the desk, a record sheet
        sign_in(referee_phone, "guide-referee")
        visit(referee_phone, f"/referee/{qualifier.slug}/")
        shot(referee_phone, images, "11-referee-desk-phone")
        game = Game.objects.get(tournament=qualifier, number=1)
        visit(referee_phone, f"/referee/{qualifier.slug}/tables/{game.tables.get(number=1).pk}/")
        shot(referee_phone, images, "12-record-sheet-phone")
        visit(page, f"/referee/{qualifier.slug}/")
        shot(page, images, "11-referee-desk")
        play_game(game, referee)
        second = Game.objects.get(tournament=qualifier, number=2)
        publish_game(second.pk, user=organizer)
        play_game(second, referee)

        # 7. penalties, standings, qualification
        record_penalty(entries[PLAYERS[4]].pk, user=referee, kind="warning", game=second,
                       reason="Rolled the dice before the previous player ended the turn")
        visit(page, f"/referee/{qualifier.slug}/penalties/")
        shot(page, images, "13-penalties")
        visit(page, f"/t/{qualifier.slug}/standings/")
        shot(page, images, "14-standings")
        visit(page, f"/organize/{qualifier.slug}/qualification/")
        expect(page.get_by_role("button", name="Send the top 4 to the finals")).to_be_visible()
        shot(page, images, "15-qualification")
        advance_qualifiers(qualifier.pk, user=organizer)
        assert finals.entries.count() == 4

        # 8. finals: a game, then the final table seated by rank, then the champion
        preliminary, final = finals.stages.order_by("order")
        generate_seating(preliminary.pk, user=organizer, seed=1)
        finals_game = Game.objects.get(stage=preliminary)
        publish_game(finals_game.pk, user=organizer)
        play_game(finals_game, referee)
        seat_seeded_stage(final.pk, user=organizer)
        visit(page, f"/organize/{finals.slug}/stages/{final.pk}/")
        shot(page, images, "16-final-seated-by-rank")
        final_game = Game.objects.get(stage=final)
        publish_game(final_game.pk, user=organizer)
        play_game(final_game, referee)
        visit(page, f"/organize/{finals.slug}/")
        champion = min((e.player.name for e in finals.entries.select_related("player")), key=PLAYERS.index)
        expect(page.get_by_role("heading", name=f"Champion: {champion}")).to_be_visible()
        shot(page, images, "17-champion")
        visit(page, f"/c/{championship.slug}/")
        shot(page, images, "18-championship-public")
        assert Entry.objects.filter(tournament=finals).count() == 4
    finally:
        for context in (wide, narrow, tablet):
            context.close()
    written = sorted(images.glob("*.png"))
    assert len(written) == 21, [p.name for p in written]
    assert sum(p.stat().st_size for p in written) < 3_000_000
