"""An organizer in the browser: a championship from /organize/new/, a referee invited, game 1 published, champion."""
import re

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from championships.models import Championship, Entry
from scheduling.models import Game
from scheduling.services import generate_seating
from tests.factories import make_player, make_user, play

pytestmark = [pytest.mark.e2e, pytest.mark.stack, pytest.mark.django_db(transaction=True)]


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-for-tests-only")
    page.locator("main").get_by_role("button", name="Sign in").click()


def test_from_a_new_championship_to_its_champion(tablet):
    organizer = make_user("journey-organizer")
    organizer.user_permissions.add(Permission.objects.get(codename="add_championship"))
    referee = make_user("journey-referee")
    page = tablet
    sign_in(page, "journey-organizer")

    page.goto("/organize/new/")
    page.get_by_role("radio", name="Custom format").check()
    page.get_by_label("Year").fill("2031")
    page.get_by_role("button", name="Continue: adjust the details").click()
    page.get_by_label("Championship name").fill("Journey Cup")
    page.get_by_label("Tournament name").fill("Journey night")
    page.locator("input[name='s-0-games']").fill("1")
    page.get_by_role("button", name="Create the championship").click()
    expect(page.get_by_role("heading", name="Journey Cup")).to_be_visible()
    tournament = Championship.objects.get(name="Journey Cup").tournaments.get()
    expect(page.get_by_role("link", name="Appoint a referee")).to_be_visible()

    page.get_by_role("link", name="Appoint a referee").click()
    page.get_by_label("Username or email address").fill("journey-referee")
    page.get_by_label("Role").select_option("referee")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_text("journey-referee is now referee.")).to_be_visible()

    for n in range(4):  # players come from the players pages of the console, tested on their own
        Entry.objects.create(tournament=tournament, player=make_player(f"Journey player {n}"))
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    page.goto(f"/organize/{tournament.slug}/")
    page.get_by_role("link", name="Publish game 1").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Publish this game's seating").click()
    page.goto(f"/organize/{tournament.slug}/")
    expect(page.locator(".tournament-facts")).to_contain_text("in progress")
    expect(page.get_by_role("link", name=re.compile("1 table missing results in game 1"))).to_be_visible()

    table = Game.objects.get(tournament=tournament).tables.get()
    play(table, [6, 10, 7, 5], referee)  # the referee's tablet is walked through in test_referee_flow
    champion = table.seats.get(position=2).entry.player.name
    page.reload()
    expect(page.locator(".tournament-facts")).to_contain_text("finished")
    expect(page.get_by_role("heading", name=f"Champion: {champion}")).to_be_visible()
    page.goto(f"/organize/championships/{tournament.championship.slug}/")
    expect(page.get_by_role("heading", name=f"Champion: {champion}")).to_be_visible()
