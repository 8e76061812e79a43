"""An organizer on a tablet swaps two players by picking their seats: a tap, then the keyboard."""
import pytest
from playwright.sync_api import expect

from audit.models import AuditEntry
from scheduling.models import Game, Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_organizer_picks_two_seats_and_swaps_them(tablet):
    tournament = make_tournament(slug="swap-e2e", name="Swap Cup", games=2)
    make_entries(tournament, 12)
    organizer = make_official(tournament, "organizer", username="tablet-organizer")
    stage = tournament.stages.get()
    generate_seating(stage.pk, user=organizer, seed=1)
    game = Game.objects.get(tournament=tournament, number=1)
    first, second = (Seat.objects.select_related("entry__player").get(game=game, table__number=t, position=p)
                     for t, p in ((1, 2), (3, 1)))

    tablet.goto("/accounts/login/")
    tablet.get_by_label("Username").fill("tablet-organizer")
    tablet.get_by_label("Password").fill("pw-for-tests-only")
    tablet.locator("main").get_by_role("button", name="Sign in").click()
    tablet.goto(f"/organize/swap-e2e/stages/{stage.pk}/")
    section = tablet.locator("section.game").filter(has=tablet.get_by_role("heading", name="Game 1"))
    section.locator(f"label[for='s{game.pk}-1.2']").tap()
    box = section.get_by_role("checkbox", name=f"seat 3.1 {second.entry.player.name}")
    box.focus()
    tablet.keyboard.press("Space")
    expect(box).to_be_checked()
    expect(section.locator(".swap-picked")).to_have_text(
        f"seat 1.2 {first.entry.player.name} AE ⇄ seat 3.1 {second.entry.player.name} AE")
    section.get_by_role("button", name="Swap the two seats").tap()
    expect(tablet.locator(".message.success")).to_contain_text("Seats 1.2 and 3.1 swapped in game 1")
    assert Seat.objects.get(game=game, table__number=1, position=2).entry_id == second.entry_id
    assert AuditEntry.objects.filter(action="seating.swapped", user=organizer).count() == 1
