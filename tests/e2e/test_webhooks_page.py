"""A championship's webhooks page in the browser (issue 27 item 3): add a webhook, send a test to a real receiver on
127.0.0.1, see the delivery; axe-core at phone, tablet and laptop widths in English and Arabic, nothing wider than
the screen. HOOKS_SHOTS=<directory> keeps screenshots to look at."""
import os
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.utils import timezone

from championships.models import StaffRole
from championships.services import assign_staff
from tests.factories import make_admin, make_tournament, make_user
from webhooks.models import Delivery, Webhook

from .axe import axe_violations
from .test_accessibility import WIDTHS, described, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def receiver():
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # http.server's name
            received.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            self.send_response(200)
            self.send_header("Content-Length", "11")
            self.end_headers()
            self.wfile.write(b'{"ok":true}')

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/catan-webhook-receiver/with/a/rather/long/path", received
    server.shutdown()
    server.server_close()


def shot(page, name: str) -> None:
    if target := os.environ.get("HOOKS_SHOTS"):
        Path(target).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(target) / f"{name}.png"), full_page=True)


def earlier_deliveries(championship, organizer) -> None:
    """A delivery waiting for its retry after a 500 with a long answer, and one that failed for good; their webhook
    was turned off after its deliveries kept failing."""
    hook = Webhook.objects.create(championship=championship, url="https://bot.example.org/hooks/catan",
                                  events=["standings.changed"], secret="s" * 64, created_by=organizer,
                                  active=False, turned_off_automatically=True)
    common = {"webhook": hook, "requested_by": organizer, "body": "{}", "response_status": 500,
              "response_body": "<html><body>Internal Server Error " + "x" * 300 + "</body></html>"}
    Delivery.objects.create(event="standings.changed", status=Delivery.Status.QUEUED, attempts=2,
                            next_attempt_at=timezone.now() + timedelta(minutes=5),
                            message="The receiver answered 500.", **common)
    Delivery.objects.create(event="standings.changed", status=Delivery.Status.FAILED, attempts=5,
                            message="The receiver answered 500.", **common)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_webhooks_page_adds_pings_and_passes_axe(browser, live_server, axe_script, receiver, settings, width,
                                                     language):
    settings.OUTBOUND_LOCAL_ALLOWED = True
    url, received = receiver
    tournament = make_tournament(slug="hooks-cup", games=1)
    organizer = make_user("hooks-organizer")
    assign_staff(organizer, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    earlier_deliveries(tournament.championship, organizer)
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, base_url=live_server.url,
                                  has_touch=width < 1280, bypass_csp=True)
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    found, overflowing = {}, []

    def check(name: str) -> None:
        opened = page.evaluate("""() => [...document.querySelectorAll('details')].map(d => {
            const was = d.open; d.open = true; return was; })""")  # check inside
        found[name] = axe_violations(page, axe_script)
        if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
            overflowing.append(name)
        shot(page, f"{name.replace(' ', '-')}-{language}-{width}")
        # closed again as they were: an open language menu would cover the page's own controls
        page.evaluate("(was) => document.querySelectorAll('details').forEach((d, i) => { d.open = was[i]; })", opened)

    try:
        sign_in(page, "hooks-organizer")
        page.goto(f"{prefix}/organize/championships/{tournament.championship.slug}/webhooks/")
        check("webhooks")
        assert page.locator(".webhook-list .status").count() == 1  # the one turned off, told why
        page.locator("input[name=url]").fill(url)
        page.locator("input[name=events][value='announcement.posted']").uncheck()
        page.locator("select[name=format]").first.select_option("discord")
        page.locator("form.stacked button[type=submit]").click()
        page.wait_for_selector("#made-secret")  # the signing secret, shown this once
        check("webhooks with the new secret")
        hook = Webhook.objects.get(url=url)
        assert page.locator("#made-secret").input_value().startswith("whsec_") and hook.format == "discord"
        assert hook.events == ["game.published", "sheet.signed_off", "standings.changed"]
        page.locator(f"button[name=ping][value='{hook.pk}']").click()
        page.wait_for_selector(".messages")
        assert len(received) == 1
        assert page.locator("table.deliveries tbody tr").count() == 3
        assert page.locator("table.deliveries tbody tr").first.locator("code").first.inner_text() == "ping"
        check("webhooks after a test")
    finally:
        context.close()
    failing = {name: described(v) for name, v in found.items() if v}
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())
    assert not overflowing, f"wider than the {width}-px screen: {', '.join(overflowing)}"
