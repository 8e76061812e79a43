"""Issue 34: Web Push end to end on the stack. A player's phone subscribes on their private page (through nginx, to a
replica, which checks the endpoint with the outbound guard); the organizer publishes the game; the stack's Celery
worker encrypts and signs the player's table and posts it through the guard, whose seam lets in the stack's own push
receiver alone (`OUTBOUND_LOCAL_HOSTS`), over TLS verified against the stack's CA; the receiver keeps what arrived,
which decrypts, with the phone's keys, to the player's table and a link on the site's address.

Headless Chromium reaches no push service, so the page's `pushManager.subscribe` answers with the stack's receiver
as the push service and keys made here, as a browser's would be (tests/e2e/test_players_push.py does the same)."""
import base64
import json
import os
import time
from pathlib import Path

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from championships import links
from championships.models import PushSubscription
from reliability.push_receiver import received
from results.publishing import publish_game
from scheduling.models import Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament

from .test_players_phone import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.stack, pytest.mark.django_db(transaction=True)]

ARRIVAL_SECONDS = 30
"""The most the stack's worker may take to send a push the publication caused."""

SUBSCRIBE = """
PushManager.prototype.subscribe = async function () {
  return { toJSON: () => (%s), unsubscribe: async () => true };
};
"""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_a_published_table_reaches_the_players_phone_through_the_outbound_guard(browser, site, settings, stack):
    """Only against the stack (its worker and push receiver; the `stack` fixture skips it elsewhere)."""
    env = stack["env"]
    # this process publishes, as a replica would: with the stack's keys, Web Push is on
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = (
        env["WEBPUSH_VAPID_PUBLIC_KEY"], env["WEBPUSH_VAPID_PRIVATE_KEY"])
    tournament = make_tournament(slug="push-stack", name="Push Stack")
    entries = make_entries(tournament, 8)
    organizer = make_official(tournament, "organizer")
    make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    player, token = entries[0].player, links.issue(entries[0].player)

    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    endpoint = f"{stack['push_url']}send/{b64(os.urandom(9))}"
    subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)), "auth": b64(auth)}}
    context = browser.new_context(viewport=PHONE, base_url=site.url, has_touch=True, permissions=["notifications"])
    context.add_init_script(SUBSCRIBE % json.dumps(subscription))
    phone = context.new_page()
    try:
        assert phone.goto(f"/me/{token}/").status == 200
        phone.locator("#push-notice button").click()
        phone.locator("#push-status").filter(has_text=" ").wait_for()
    finally:
        context.close()
    assert PushSubscription.objects.get(player=player).endpoint == endpoint  # the replica's guard accepted it

    game = tournament.games.get(number=1)
    publish_game(game.pk, user=organizer)
    path, deadline = "/" + endpoint.split("/", 3)[3], time.monotonic() + ARRIVAL_SECONDS
    while not (arrived := [r for r in received(Path(stack["push"])) if r["path"] == path]):
        assert time.monotonic() < deadline, f"no push reached the receiver within {ARRIVAL_SECONDS} s"
        time.sleep(0.25)
    [message] = arrived
    assert message["headers"]["Content-Encoding"] == "aes128gcm"
    payload = json.loads(http_ece.decrypt(base64.b64decode(message["body"]), private_key=key, auth_secret=auth,
                                          version="aes128gcm"))
    seat = Seat.objects.select_related("table").get(game=game, entry__player=player)
    assert payload["table"] == seat.table.number and payload["game"] == 1 and "Push Stack" in payload["title"]
    assert payload["url"] == f"{site.url}/t/push-stack/games/1/"  # the site's address, never a replica's
    assert PushSubscription.objects.get(player=player).last_error == ""
