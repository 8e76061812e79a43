"""Issue 25, done when: on a 390-px phone a player registers, confirms by the emailed link (Django's outbox), is
promoted from the waiting list, checks in by the QR code's address, sees their table, confirms the result, and the
referee signs off; every players' page passes axe-core (WCAG 2.1 AA) in English and Arabic.

The server's configured address (SITE_URL) is the live server's, as on a deployment: the published registration
address, every emailed link and the QR code are opened exactly as written (issue 32: a test that stripped their host
could not see that they all pointed at localhost:8000).

`GUIDE_SCREENSHOTS=1` also writes the guide's players' chapter pictures (docs/guide/img/players-*.png, English and
Arabic); `PLAYER_SHOTS=<dir>` writes each page at 390, 768 and 1280 px in both languages for review.
"""
import io
import os
import re
from datetime import time
from pathlib import Path

import pytest
import zxingcpp
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from PIL import Image

from attendance import checkin, self_checkin
from championships import links
from championships.models import Entry, Player, Tournament
from ranking.standings import tournament_standings
from results.publishing import publish_game
from results.sheets import SheetInput, save_entry, sign
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament

from .axe import axe_violations
from .test_accessibility import described
from .test_guide_screenshots import GUIDE_IMAGES, shot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDTHS = {390: 844, 768: 1024, 1280: 800}


def _link(pattern: str, message, site: str) -> str:
    """The address an email carries, whole; it is on the site's address."""
    link = re.search(pattern, message.body).group(0)
    assert link.startswith(f"{site}/"), link
    return link


def _qr_address(page) -> str:
    """What a phone's camera reads from the QR code on the screen."""
    image = Image.open(io.BytesIO(page.locator("img.qr-code").screenshot()))
    (code,) = zxingcpp.read_barcodes(image)
    return code.text


class Pages:
    """Each players' page visited: checked with axe-core, and photographed when asked."""

    def __init__(self, axe_script, language: str):
        self.axe_script, self.language, self.failing, self.seen = axe_script, language, {}, []
        self.guide = GUIDE_IMAGES if os.environ.get("GUIDE_SCREENSHOTS") == "1" else None

    def check(self, page, name: str) -> None:
        assert page.locator("html").get_attribute("lang") == self.language, name
        checked(page, self.axe_script, self.failing, name)
        self.seen.append((name, page.url))
        if self.guide is not None:
            shot(page, self.guide, f"players-{name}-{self.language}")

    def assert_clean(self) -> None:
        assert not self.failing, "\n".join(f"{name}: {text}" for name, text in self.failing.items())


def _tournament():
    today = timezone.localdate()
    tournament = make_tournament(slug="phone-open", name="Phone Open", self_registration=True, capacity=4,
                                 date=today, official_start=time(23, 59), games=1, status="registration",
                                 city="Dubai", venue="Harbour Hall")
    entered = make_entries(tournament, 4)
    for n, entry in enumerate(entered):
        Player.objects.filter(pk=entry.player_id).update(email=f"early{n}@example.com")
    return tournament, entered, make_official(tournament, "organizer", "phone-organizer"), \
        make_official(tournament, "referee", "phone-referee")


@pytest.mark.parametrize("language", [pytest.param("en", marks=pytest.mark.stack), "ar"])
def test_a_player_on_a_phone_from_registration_to_the_signed_off_result(browser, site, axe_script, language):
    tournament, entered, organizer, referee = _tournament()
    prefix = "" if language == "en" else f"/{language}"
    context = browser.new_context(viewport=PHONE, base_url=site.url, has_touch=True, bypass_csp=True)
    phone = context.new_page()
    desk = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=site.url).new_page()
    sign_in(desk, "phone-organizer")
    pages = Pages(axe_script, language)
    try:
        # 1. Register by the address the organizers publish: the tournament is full, so a confirmed player waits.
        desk.goto(f"{prefix}/organize/phone-open/registrations/")
        published = desk.locator("main a[href$='/t/phone-open/register/']").get_attribute("href")
        assert published == f"{site.url}{prefix}/t/phone-open/register/"
        assert phone.goto(published).status == 200
        pages.check(phone, "register")
        phone.fill("#id_name", "Rania Khoury")
        phone.fill("#id_email", "rania@example.com")
        phone.fill("#id_date_of_birth", "1994-03-21")
        phone.select_option("#id_country", "LB")
        phone.fill("#id_city", "Beirut")
        phone.fill("#id_friends", "Early Bird")
        phone.check("#id_consent")
        phone.locator("main button[type=submit]").click()
        phone.wait_for_url("**/register/?sent=1")
        pages.check(phone, "register-sent")

        # 2. Confirm by the emailed link: the page asks, the button confirms.
        confirm = site.mail.wait("rania@example.com", lambda m: "/register/confirm/" in m.body)
        assert phone.goto(_link(r"https?://\S+/register/confirm/\S+/", confirm, site.url)).status == 200
        pages.check(phone, "confirm")
        phone.locator("main button[type=submit]").click()
        phone.wait_for_url(re.compile(rf"{re.escape(site.url)}{prefix}/me/[\w-]{{43}}/$"))
        assert phone.locator("main .status-waiting").count() == 1
        pages.check(phone, "me-waiting")
        private = phone.url

        # 3. A place frees (an early player withdraws at the desk): the first waiting takes it, by email.
        checkin.withdraw(tournament, entered[0].pk, user=organizer, reason="Cannot come")
        with translation.override(language):  # the email is in the language the player registered in
            place = _("A place for you: %(tournament)s") % {"tournament": "Phone Open"}
        promoted = site.mail.wait("rania@example.com", lambda m: m.subject == place)
        assert Entry.objects.get(tournament=tournament, player__email="rania@example.com").status == "registered"
        assert phone.goto(_link(r"https?://\S+/me/[\w-]{43}/", promoted, site.url)).status == 200  # as written
        assert phone.locator("main .status-waiting").count() == 0

        # 4. Check in with the QR code the desk shows (its address, as the phone's camera opens it).
        for entry in entered[1:]:
            checkin.check_in(tournament, entry.pk, user=organizer)
        window = self_checkin.open_window(tournament, user=organizer, minutes=15)
        desk.goto(f"{prefix}/organize/phone-open/check-in/qr/")
        scanned = _qr_address(desk)
        assert scanned == f"{site.url}{prefix}/t/phone-open/check-in/{window.code}/"
        phone.goto(scanned)
        pages.check(phone, "check-in")
        phone.locator("main button[type=submit]").click()
        assert phone.locator("main .check-in-done").count() == 1
        pages.check(phone, "checked-in")
        mine = Entry.objects.get(tournament=tournament, player__email="rania@example.com")
        assert mine.status == "checked_in" and mine.checked_in_by_self

        # 5. The seating is published: the player's page shows the table, play order and board.
        generate_seating(tournament.stages.get().pk, user=organizer, seed=5)
        game = tournament.games.get(number=1)
        publish_game(game.pk, user=organizer)
        seated = site.mail.wait("rania@example.com", lambda m: bool(m.attachments))  # the table and a calendar
        assert phone.goto(_link(r"https?://\S+/games/1/", seated, site.url)).status == 200  # every table of the game
        assert f"URL:{site.url}{prefix}/t/phone-open/" in seated.attachments[0][1]
        phone.goto(private)
        seat = game.seats.get(entry=mine)
        assert str(seat.table.number) in phone.locator("main .seat-big").inner_text()
        assert phone.locator("main .table-mates li").count() == 3
        with translation.override(language):
            no_rank = _("No rank yet: your first result gives you one.")
        assert no_rank in phone.locator("main").inner_text()  # not "Rank 1 =" before any result (issue 32 item 5)
        pages.check(phone, "me-table")

        # 6. The referee enters the result; the player confirms it on the phone, the others sign on the tablet.
        table = seat.table
        seats = list(table.seats.order_by("position"))
        sheet = save_entry(table.sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), [10, 8, 6, 4]))),
                           user=referee, base_version=0)
        phone.goto(private)
        pages.check(phone, "me-confirm")
        phone.locator(f"#sheet-{sheet.pk} button[value=confirm]").click()
        phone.wait_for_url(re.compile(rf".*/me/[\w-]{{43}}/#sheet-{sheet.pk}$"))
        assert phone.locator(f"#sheet-{sheet.pk} .message.success").count() == 1
        for other in seats:
            if other.entry_id != mine.pk:
                sheet = sign(sheet.pk, other.entry_id, user=referee, method="tap", version=sheet.version)
        assert sheet.signatures.get(entry=mine).method == "phone"

        # 7. The referee signs off on the tablet.
        tablet = browser.new_context(viewport={"width": 820, "height": 1180}, base_url=site.url,
                                     has_touch=True).new_page()
        sign_in(tablet, "phone-referee")
        tablet.on("dialog", lambda dialog: dialog.accept())
        tablet.goto(f"/referee/phone-open/tables/{table.pk}/")
        tablet.get_by_role("button", name="Sign off and lock the result").click()
        tablet.locator(".locked-banner").wait_for()
        table.sheet.refresh_from_db()
        assert table.sheet.is_locked
        tablet.context.close()
        phone.goto(private)
        pages.check(phone, "me-result")
        assert phone.locator("main table.stack-table tbody tr").count() == 1  # game 1, its result shown
        assert phone.locator("main .confirm-result").count() == 0
        rank = next(row["rank"] for row in tournament_standings(tournament) if row["entry"] == mine.pk)
        assert phone.locator("main table.stack-table tbody tr td.num").last.inner_text().strip() == str(rank)
        assert no_rank not in phone.locator("main").inner_text()  # ranked: the rank after game 1, and overall

        phone.goto(f"{prefix}/me/")
        pages.check(phone, "me-home")
    finally:
        context.close()
        desk.context.close()
    pages.assert_clean()
    assert Tournament.objects.get(pk=tournament.pk).status in ("running", "finished")
    if target := os.environ.get("PLAYER_SHOTS"):
        self_checkin.open_window(tournament, user=organizer)  # the desk and the projector show a code
        _review_shots(browser, site, Path(target), language, pages.seen, organizer_pages(tournament))


def organizer_pages(tournament) -> list[tuple[str, str]]:
    return [("organizer-registrations", f"/organize/{tournament.slug}/registrations/"),
            ("organizer-check-in", f"/organize/{tournament.slug}/check-in/"),
            ("organizer-qr", f"/organize/{tournament.slug}/check-in/qr/")]


def _review_shots(browser, site, target: Path, language: str, seen, staff) -> None:
    """Each page the walk saw, again at the three widths (full page), for a person to look at."""
    target.mkdir(parents=True, exist_ok=True)
    prefix = "" if language == "en" else f"/{language}"
    for width, height in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=site.url)
        page = context.new_page()
        for name, url in seen:
            if name in ("register-sent", "checked-in", "confirm"):
                continue
            page.goto(url)
            page.screenshot(path=str(target / f"{name}-{language}-{width}.png"), full_page=True)
        sign_in(page, "phone-organizer")
        for name, url in staff:
            page.goto(prefix + url)
            page.screenshot(path=str(target / f"{name}-{language}-{width}.png"), full_page=True)
        context.close()


def every_width(browser, live_server):
    """A fresh page at each width in English and Arabic, with the address prefix of its language."""
    for language in ("en", "ar"):
        prefix = "" if language == "en" else f"/{language}"
        for width, height in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server.url,
                                          bypass_csp=True)
            try:
                yield context.new_page(), language, prefix, width
            finally:
                context.close()


def checked(page, axe_script, failing: dict, name: str) -> None:
    """No wider than the screen (asserted), and axe-core's violations noted under `name`, every disclosure open;
    they are closed again after, as the player had them (an open language menu would cover the page)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
    opened = page.evaluate("""() => [...document.querySelectorAll('details')].map(d => {
        const was = d.open; d.open = true; return was; })""")
    if violations := axe_violations(page, axe_script):
        failing[name] = described(violations)
    page.evaluate("(was) => document.querySelectorAll('details').forEach((d, i) => { d.open = was[i]; })", opened)


def test_the_organizers_pages_pass_axe(browser, live_server, axe_script):
    tournament, entered, organizer, referee = _tournament()
    self_checkin.open_window(tournament, user=organizer)
    failing: dict[str, str] = {}
    for page, language, prefix, width in every_width(browser, live_server):
        sign_in(page, "phone-organizer")
        for name, url in organizer_pages(tournament):
            assert page.goto(prefix + url).status == 200, name
            checked(page, axe_script, failing, f"{name} {language} {width}")
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())


def test_the_qr_screen_shows_a_new_windows_code_by_itself(browser, live_server):
    """The projector's QR screen asks for itself every 30 s (no meta refresh): a new window's code replaces the old."""
    tournament, _entered, organizer, _referee = _tournament()
    self_checkin.open_window(tournament, user=organizer)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    page = context.new_page()
    try:
        sign_in(page, "phone-organizer")
        page.clock.install()
        page.goto(f"/organize/{tournament.slug}/check-in/qr/")
        old = page.locator("img.qr-code").get_attribute("src")
        self_checkin.open_window(tournament, user=organizer)
        page.clock.run_for("00:29")
        assert page.locator("img.qr-code").get_attribute("src") == old
        page.clock.run_for("00:02")
        page.wait_for_function("old => document.querySelector('img.qr-code').src !== old", arg=old)
        self_checkin.close_window(tournament, user=organizer)
        page.clock.run_for("00:31")
        page.locator(".qr-screen .message.warning").wait_for()
    finally:
        context.close()


def test_the_wait_page_after_too_many_links_that_open_nothing(browser, live_server, axe_script, monkeypatch):
    """An address past its misses is told to wait, on a page that passes axe-core at every width."""
    from core.ratelimit import RateLimit
    from web.players import tokens

    monkeypatch.setattr(tokens, "TOKEN_MISSES", RateLimit("player-token-miss", 0, 3600))
    target = os.environ.get("PLAYER_SHOTS")
    failing: dict[str, str] = {}
    for page, language, prefix, width in every_width(browser, live_server):
        assert page.goto(f"{prefix}/me/{'x' * 43}/").status == 429
        assert page.locator("main .message.warning").inner_text().strip()
        checked(page, axe_script, failing, f"{language} {width}")
        if target:
            Path(target).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(target) / f"wait-{language}-{width}.png"), full_page=True)
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())


LINE_STARTS = """selector => [...document.querySelectorAll(selector)].flatMap(list => {
  // Each line's first item: an item lower than the one before starts a line (in either direction of writing).
  const items = [...list.children];
  const top = item => item.getBoundingClientRect().top;
  const before = item => getComputedStyle(item, '::before').content.replaceAll('"', '').replace('none', '');
  return items.filter((item, i) => i === 0 || top(item) > top(items[i - 1]) + 1)
    .map(item => (before(item) + item.textContent).trim());
})"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_no_line_of_the_status_starts_with_a_separator_at_390_px(browser, live_server, language):
    """Issue 32 item 5: on a 390-px phone the status line under a tournament's name wrapped with "·" first."""
    tournament = make_tournament(slug="long-cup", name="Long Cup", date=timezone.localdate(), official_start=time(9),
                                 city="Ras Al Khaimah", venue="The Grand Harbour Exhibition and Convention Hall")
    (entry,) = make_entries(tournament, 1)
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.CHECKED_IN, checked_in_by_self=True, minutes_late=12)
    token = links.issue(entry.player)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    try:
        page = context.new_page()
        prefix = "" if language == "en" else f"/{language}"
        for url in (f"{prefix}/me/{token}/", f"{prefix}/t/long-cup/"):
            assert page.goto(url).status == 200
            starts = page.evaluate(LINE_STARTS, ".subtitle")
            assert len(starts) > 1, (url, starts)  # it does wrap at this width
            assert not [start for start in starts if start.startswith("·")], (url, starts)
    finally:
        context.close()
