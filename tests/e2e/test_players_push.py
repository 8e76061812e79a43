"""The "Notify me on this phone" button of a player's private page (issue 25, item 5), in Chromium on a 390-px phone,
in English and Arabic: shown only where Web Push is configured and the browser can push, absent without JavaScript,
and passing axe-core. Tapping it subscribes through the service worker and gives the server the subscription.

Headless Chromium reaches no real push service, so the page's `pushManager.subscribe` is replaced by one that
answers a subscription as a browser does; everything else (the worker's registration, the permission, the POST
with its CSRF token to the player's own address) is the page's own. `PUSH_SHOTS=<dir>` writes screenshots.
"""
import os
from pathlib import Path

import pytest

from championships import links
from championships.models import PushSubscription
from core import outbound, webpush
from tests.factories import make_entries, make_tournament
from tests.ssrf import resolver

from .test_players_phone import PHONE, checked

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FAKE_SUBSCRIBE = """
PushManager.prototype.subscribe = async function (options) {
  if (!(options.applicationServerKey instanceof Uint8Array) || options.applicationServerKey.length !== 65) {
    throw new Error("not the site's VAPID key");
  }
  return { toJSON: () => ({ endpoint: "https://push.example.com/send/phone-1",
                            keys: { p256dh: "BA" + "A".repeat(85), auth: "A".repeat(22) } }),
           unsubscribe: async () => true };
};
"""


@pytest.fixture
def private_page(settings, monkeypatch):
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = webpush.new_keys()
    # the fake push service's name resolves to a public address (no DNS here): the guard checks it when subscribing
    monkeypatch.setattr(outbound, "lookup", resolver({"push.example.com": ["93.184.215.14"]}))
    tournament = make_tournament(slug="push-open", name="Push Open")
    entry = make_entries(tournament, 4)[0]
    return entry.player, links.issue(entry.player)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_notify_button_subscribes_this_phone(browser, live_server, axe_script, private_page, language):
    player, token = private_page
    prefix = "" if language == "en" else f"/{language}"
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, bypass_csp=True,
                                  permissions=["notifications"])
    context.add_init_script(FAKE_SUBSCRIBE)
    phone = context.new_page()
    failing: dict[str, str] = {}
    shots = os.environ.get("PUSH_SHOTS")
    try:
        assert phone.goto(f"{prefix}/me/{token}/").status == 200
        button = phone.locator("#push-notice button")
        button.wait_for(state="visible")
        checked(phone, axe_script, failing, f"button {language}")
        if shots:
            phone.screenshot(path=str(Path(shots) / f"push-button-{language}.png"))
        button.click()
        phone.locator("#push-status").filter(has_text=" ").wait_for()
        assert PushSubscription.objects.get().player == player
        assert PushSubscription.objects.get().endpoint == "https://push.example.com/send/phone-1"
        checked(phone, axe_script, failing, f"subscribed {language}")
        if shots:
            phone.screenshot(path=str(Path(shots) / f"push-subscribed-{language}.png"))
    finally:
        context.close()
    assert not failing, "\n".join(f"{name}: {text}" for name, text in failing.items())


def test_no_button_without_javascript_or_configuration(browser, live_server, private_page, settings):
    player, token = private_page
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, java_script_enabled=False)
    phone = context.new_page()
    try:
        assert phone.goto(f"/me/{token}/").status == 200
        assert phone.locator("#push-notice").count() == 1 and not phone.locator("#push-notice").is_visible()
        settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
        assert phone.goto(f"/me/{token}/").status == 200
        assert phone.locator("#push-notice").count() == 0
    finally:
        context.close()
