"""axe-core (WCAG 2.1 A and AA rules) on the public, referee and organizer pages: phone, tablet and laptop widths,
in English and in Arabic (right to left); the public pages also as a reader sees them on a phone, in Hebrew too."""
from datetime import time

import pytest
from axes.models import AccessFailureLog
from django.contrib.auth.models import Permission

from attendance import checkin
from audit.actions import Action
from audit.services import record_change
from calls.services import place_call, take_call
from championships import links
from championships.services import assign_staff
from printing.models import PrintJob
from ratings.seasons import create_season
from ratings.services import recompute_all
from results.announcements import post_announcement
from results.penalties import record_penalty
from results.sheets import SheetInput, save_entry
from scheduling.boards import change_board
from scheduling.clocks import change_clock, set_timed_turns
from scheduling.models import PlanningJob
from scheduling.services import generate_seating
from tests.factories import (
    make_admin,
    make_championship,
    make_game,
    make_official,
    make_player,
    make_tournament,
    play,
)
from tests.scheduling.crowd import crowd, seat_in_rotation
from webhooks.models import Webhook

from .axe import axe_violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 768: 1024, 1280: 800}
NAMES = [  # Latin, Arabic and Hebrew script; some long
    "Layla Haddad", "أحمد الفارسي", "Noa Levi", "Maximilian Oberhauser-Wittelsbach", "Sara Rahimi",
    "יונתן כהן", "Chen Wei", "فاطمة الزهراء بن عبد الله",
]


@pytest.fixture
def tournament_day():
    """A running qualifier: game 1 published (table 1 signed off, table 2 being entered), games 2-3 planned,
    a penalty, and the activity log that all of this wrote; a finished finals of the same players in a season of
    the organizer's, and everyone's ratings across the two (one player hidden from the public ratings)."""
    tournament = make_tournament(slug="a11y-cup", name="Accessibility Cup", status="running", advance_count=4,
                                 ruleset="cwc-2025")  # 004 §1.1.7: the map-study clock
    entries = [tournament.entries.create(player=make_player(name)) for name in NAMES]
    for entry in (entries[1], entries[6]):  # marked "no photos or videos" on the desk, the sheet, the player list
        entry.player.media_opt_out = True
        entry.player.save(update_fields=["media_opt_out"])
    organizer = make_official(tournament, "organizer", username="a11y-organizer")
    organizer.user_permissions.add(Permission.objects.get(codename="add_championship"))  # /organize/new/
    game = make_game(tournament, [entries[:4], entries[4:]])
    first, second = game.tables.order_by("number")
    play(first, [10, 8, 6, 4], organizer)
    seats = list(second.seats.order_by("position"))
    save_entry(second.sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), [7, 10, 5, 9]))),
               user=organizer, base_version=0)
    record_penalty(entries[5].pk, user=organizer, kind="warning", reason="Left the table during play")  # 004: no VP off
    for other, reason in ((entries[1], "Gave a free ore"), (entries[2], "Port service for a free brick")):
        record_penalty(entries[0].pk, user=organizer, kind="collusion", partner_id=other.pk, game=game, reason=reason)
    stage = tournament.stages.get()
    generate_seating(stage.pk, user=organizer, seed=3)
    large = make_tournament(slug="a11y-open", name="Accessibility Open", ruleset="cwc-2025", games=4)
    assign_staff(organizer, "organizer", tournament=large, user=make_admin())
    large_stage = large.stages.get()
    seat_in_rotation(large_stage, crowd(large, 240))  # 60 tables a game: games and tables in pages
    PlanningJob.objects.create(stage=large_stage, requested_by=organizer, seed=4, players=240, estimate_seconds=2,
                               status=PlanningJob.Status.FAILED, message="The stage changed while it was planned.")
    post_announcement(tournament.pk, "Game 2 starts at 14:00 in the main hall.", user=organizer)
    door = make_tournament(slug="a11y-door", name="Accessibility Door", official_start=time(10, 0))
    assign_staff(organizer, "organizer", tournament=door, user=make_admin())
    at_door = [door.entries.create(player=make_player(f"{name} 2")) for name in NAMES[:6]]
    checkin.check_in(door, at_door[0].pk, user=organizer)  # every state of the desk, with its undo
    checkin.check_in(door, at_door[1].pk, user=organizer, minutes_late=9)
    checkin.check_in(door, at_door[2].pk, user=organizer, minutes_late=30)
    checkin.mark_no_show(door, [at_door[3].pk], user=organizer)
    checkin.withdraw(door, at_door[4].pk, user=organizer, reason="Felt unwell")
    printing = PrintJob.objects.create(game=game, kind="record_sheets", requested_by=organizer,
                                       status=PrintJob.Status.RUNNING, done=0.4)
    misprint = PrintJob.objects.create(game=game, kind="table_cards", requested_by=organizer,
                                       status=PrintJob.Status.FAILED, message="The PDF could not be laid out.")
    change_board(game.pk, user=organizer)  # the board on the game page, the desk and the projector
    change_clock(game.pk, "start", user=organizer)  # and the map-study clock on the overview too
    set_timed_turns(second.pk, True, user=organizer)  # the tablet's turn timer on the record sheet
    waiting = place_call(second.pk, "pieces", "The blue road is missing from the box", player=seats[0].entry.player)
    take_call(place_call(second.pk, "rules", player=seats[1].entry.player).pk, user=organizer)  # someone going
    paused = make_official(tournament, "referee", username="a11y-paused-referee")  # the staff page's unlock button
    AccessFailureLog.objects.bulk_create(AccessFailureLog(username=paused.username, ip_address="203.0.113.9",
                                                          user_agent="x", http_accept="", path_info="/accounts/login/")
                                         for _ in range(5))
    tour = make_championship(slug="a11y-tour", name="Accessibility Tour")
    assign_staff(organizer, "organizer", championship=tour, user=make_admin())
    hook = Webhook.objects.create(championship=tour, url="https://bot.example.org/catan", secret="s" * 64,
                                  created_by=organizer, active=False, turned_off_automatically=True)
    record_change(None, None, Action.WEBHOOK_FAILING, hook, after={"url": hook.url}, championship_id=tour.pk,
                  reason="5 deliveries in a row failed.")  # the championship's activity log: done by the site
    finals = make_tournament(slug="a11y-finals", name="Accessibility Finals", championship=tour, kind="finals",
                             status="running", games=1)
    finals_entries = [finals.entries.create(player=entry.player) for entry in entries]
    for table, vps in zip(make_game(finals, [finals_entries[:4], finals_entries[4:]]).tables.order_by("number"),
                          ([6, 10, 8, 7], [10, 9, 4, 5])):
        play(table, vps, organizer)
    finals.status = "finished"
    finals.save(update_fields=["status"])
    season = create_season(user=organizer, name="Accessibility Tour 2030", championship_ids=[tour.pk],
                           points={"finals": [25, 18, 15, 12, 10, 8]}, tiebreaks=["wins", "total_vp"])
    hidden = entries[7].player  # opted out of the public ratings: their organizer is told so on their page
    hidden.listed = False
    hidden.save(update_fields=["listed"])
    recompute_all()
    return {
        "home": "/",
        "ratings": "/ratings/",
        "rated player": f"/ratings/players/{entries[1].player_id}/",
        "standings": f"/t/{tournament.slug}/standings/",
        "overview": f"/t/{tournament.slug}/",
        "where do I sit": f"/t/{tournament.slug}/where/?q=a",
        "game": f"/t/{tournament.slug}/games/1/",
        "player": f"/t/{tournament.slug}/players/{entries[1].player_id}/",
        "my page": f"/me/{links.issue(entries[4].player)}/",  # table 2: the study clock and timed turns
        "projector": f"/t/{tournament.slug}/screen/",
        "embed, a player found": f"/t/{tournament.slug}/embed/?q=a",
        "championship": f"/c/{tournament.championship.slug}/",
        "desk": f"/referee/{tournament.slug}/",
        "record sheet": f"/referee/{tournament.slug}/tables/{second.pk}/",
        "calls from the tables": f"/referee/{tournament.slug}/calls/",
        "a call": f"/referee/{tournament.slug}/calls/{waiting.pk}/",
        "the day's calls": f"/organize/{tournament.slug}/calls/",
        "seating stage": f"/organize/{tournament.slug}/stages/{stage.pk}/",
        "seating stage, large, a failed planning, a player found": f"/organize/{large.slug}/stages/{large_stage.pk}/"
                                                                   f"?game=2&page=2&q=Player%2000006",
        "qualification": f"/organize/{tournament.slug}/qualification/",
        "activity log": f"/organize/{tournament.slug}/activity/",
        "players": f"/organize/{tournament.slug}/players/",
        "add a player": f"/organize/{tournament.slug}/players/add/",
        "import a list": f"/organize/{tournament.slug}/players/import/",
        "friends and family": f"/organize/{tournament.slug}/relationships/",
        "entries": f"/organize/{tournament.slug}/entries/",
        "check-in": f"/organize/{tournament.slug}/check-in/",
        "check-in, every state": f"/organize/{door.slug}/check-in/",
        "check-in, confirming a late arrival": f"/organize/{door.slug}/check-in/{at_door[5].pk}/late/?minutes_late=12",
        "check-in, too late to play": f"/organize/{door.slug}/check-in/{at_door[5].pk}/late/?minutes_late=40",
        "penalties (a collusion decision pending)": f"/referee/{tournament.slug}/penalties/",
        "ties and draws": f"/referee/{tournament.slug}/draws/",
        "organizer's championships": "/organize/",
        "tournament console": f"/organize/{tournament.slug}/",
        "print job, laying out": f"/organize/{tournament.slug}/print/jobs/{printing.pk}/",
        "print job, failed": f"/organize/{tournament.slug}/print/jobs/{misprint.pk}/",
        "staff": f"/organize/{tournament.slug}/staff/",
        "embed on another website": f"/organize/{tournament.slug}/embed/",
        "championship console": f"/organize/championships/{tournament.championship.slug}/",
        "API tokens": f"/organize/championships/{tour.slug}/api-tokens/",
        "championship activity log": f"/organize/championships/{tour.slug}/activity/",
        "new championship": "/organize/new/",
        "new championship from a preset": "/organize/new/?preset=uae-2022&year=2030",
        "new championship, custom format": "/organize/new/?preset=custom&year=2030",
        "rated player hidden from the public": f"/ratings/players/{hidden.pk}/",
        "seasons": "/organize/seasons/",
        "new season": "/organize/seasons/new/",
        "season": f"/organize/seasons/{season.pk}/",
        "change a season": f"/organize/seasons/{season.pk}/edit/",
    }


PUBLIC = ("home", "standings", "overview", "where do I sit", "game", "player", "projector", "championship", "ratings",
          "rated player", "my page", "embed, a player found")


@pytest.mark.parametrize("language", ["en", "he"])
def test_public_pages_pass_axe_for_a_reader_on_a_phone(browser, live_server, axe_script, tournament_day, language):
    """As a player sees them (not signed in, the language menu as links), at 390 px; Hebrew as well."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url, has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []
    try:
        for name in PUBLIC:
            assert page.goto(prefix + tournament_day[name]).status == 200, name
            assert page.locator("html").get_attribute("lang") == language
            found[name] = axe_violations(page, axe_script)
            if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
                overflowing.append(name)
    finally:
        context.close()
    failing = {name: described(v) for name, v in found.items() if v}
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())
    assert not overflowing, f"wider than the 390-px screen: {', '.join(overflowing)}"


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-for-tests-only")
    page.locator("main").get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/referee/")


def described(violations: list[dict]) -> str:
    return "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at " + ", ".join(n["target"] for n in v["nodes"][:5])
                     for v in violations)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", WIDTHS)
def test_pages_pass_axe_wcag21_aa(browser, live_server, axe_script, tournament_day, width, language):
    # bypass_csp: axe-core is injected as an inline script, which the site's policy rightly refuses.
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, base_url=live_server.url,
                                  has_touch=width < 1280, bypass_csp=True)
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []
    try:
        page.goto(f"{prefix}/accounts/password_reset/")
        found["forgot your password"] = axe_violations(page, axe_script)
        page.goto(f"{prefix}/accounts/login/")
        found["staff sign-in"] = axe_violations(page, axe_script)
        for _ in range(5):  # wrong passwords until this username is paused from this address
            page.fill("input[name=username]", "a11y-nobody")
            page.fill("input[name=password]", "wrong")
            page.locator("main button[type=submit]").click()
        assert page.locator("h1").count() == 1 and page.locator("a[href$='/accounts/login/']").count()
        found["sign-in paused"] = axe_violations(page, axe_script)
        page.goto(f"{prefix}/accounts/login/")
        sign_in(page, "a11y-organizer")
        for name, path in tournament_day.items():
            response = page.goto(prefix + path)
            assert response.status == 200, f"{name}: {response.status}"
            assert page.locator("html").get_attribute("lang") == language
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # check inside
            found[name] = axe_violations(page, axe_script)
            # Nothing may push the page sideways: wide tables scroll inside their own region.
            if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
                overflowing.append(name)
    finally:
        context.close()
    failing = {name: described(v) for name, v in found.items() if v}
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())
    assert not overflowing, f"wider than the {width}-px screen: {', '.join(overflowing)}"
