"""The emails that could not be sent, in a browser (issue 32, item 3): the console's warning leads to the page, which
names who, what and why at phone, tablet and laptop widths in English and Arabic without sideways scrolling, passes
axe-core, and sends an email again with one tap. `EMAIL_SHOTS=<dir>` keeps a screenshot of each page."""
import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone

from championships.models import StaffRole
from core.sealed import seal
from notices.models import UndeliveredEmail
from tests.factories import make_championship, make_tournament, make_user

from .axe import axe_violations
from .test_accessibility import described, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 768: 1024, 1280: 800}


def _message(to: str, subject: str) -> str:
    return seal({"to": to, "subject": subject, "body": "Your tables: https://catan.example/me/x/", "attachments": [],
                 "record": None, "about": []})


@pytest.fixture
def cup():
    championship = make_championship(slug="mail-champ", name="بطولة الإمارات 2026")
    tournament = make_tournament(slug="mail-open", name="Mail Open", championship=championship)
    boss = make_user("mail-boss")
    StaffRole.objects.create(user=boss, role=StaffRole.Role.ORGANIZER, championship=championship)
    now = timezone.now()
    rows = [
        ("fatima.alzahra.binabdullah.longaddress@mail.example.co.uk", "Game 3: table 12 · Mail Open",
         "550 5.1.1 <fatima.alzahra.binabdullah.longaddress@mail.example.co.uk>: Recipient address rejected: User "
         "unknown in virtual mailbox table", 1),
        ("noa@example.com", "Start time: Mail Open", "ConnectionRefusedError: [Errno 111] Connection refused", 4),
    ]
    for n, (to, subject, reason, failures) in enumerate(rows):
        UndeliveredEmail.objects.create(tournament=tournament, to=to, subject=subject, reason=reason,
                                        failures=failures, failed_at=now - timedelta(minutes=n),
                                        message=_message(to, subject))
    UndeliveredEmail.objects.create(tournament=tournament, to="sara@example.com", subject="Your private link",
                                    reason="TimeoutError: timed out", failed_at=now - timedelta(hours=2),
                                    sent_again_at=now - timedelta(hours=1), sent_again_by=boss)
    UndeliveredEmail.objects.create(championship=championship, to="mail-boss@example.com",
                                    subject="Webhook turned off: بطولة الإمارات 2026", reason="SMTPServerDisconnected",
                                    failed_at=now - timedelta(minutes=5),
                                    message=_message("mail-boss@example.com", "Webhook turned off"))
    return tournament


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_page_names_who_what_and_why_at_every_width(browser, live_server, axe_script, cup, language):
    prefix = "" if language == "en" else f"/{language}"
    shots = Path(os.environ["EMAIL_SHOTS"]) if os.environ.get("EMAIL_SHOTS") else None
    failing = {}
    for width, height in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server.url,
                                      has_touch=width < 1280, bypass_csp=True)
        page = context.new_page()
        sign_in(page, "mail-boss")
        page.goto(f"{prefix}/organize/mail-open/")
        warning = page.locator("main .console-warning")
        assert warning.is_visible() and "3" in warning.inner_text()  # two of the tournament's, one of its championship
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / f"console-{language}-{width}.png"))
        warning.locator("a").click()
        page.wait_for_url(f"**{prefix}/organize/mail-open/emails/")
        assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
        rows = page.locator("main table.undelivered tbody tr")
        assert rows.count() == 4
        assert "fatima.alzahra" in rows.nth(0).inner_text() and "User unknown" in rows.nth(0).inner_text()
        assert page.locator("main button[name=send_again]").count() == 3  # the one sent again has none
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"wider than {width}px"
        if violations := axe_violations(page, axe_script):
            failing[f"{language} {width}"] = described(violations)
        if shots:
            page.screenshot(path=str(shots / f"emails-{language}-{width}.png"), full_page=True)
        context.close()
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())


def test_send_again_with_one_tap(browser, live_server, cup):
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url, has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, "mail-boss")
        page.goto("/organize/mail-open/emails/")
        page.locator("main button[name=send_again]").first.click()
        page.locator(".message.success").wait_for()
        assert "fatima.alzahra" in page.locator(".message.success").inner_text()
        assert page.locator("main button[name=send_again]").count() == 2
    finally:
        context.close()
    (sent,) = mail.outbox
    assert sent.to == ["fatima.alzahra.binabdullah.longaddress@mail.example.co.uk"]
    assert sent.subject == "Game 3: table 12 · Mail Open"
