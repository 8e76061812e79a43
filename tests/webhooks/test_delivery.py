"""Deliveries to a real receiver on 127.0.0.1: the body and its signature, retries with backoff after a failure,
and the addresses refused in production (SSRF)."""
import base64
import hashlib
import hmac
import json
import time

import pytest
from django.core.exceptions import ValidationError
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError

from core import outbound
from webhooks import services
from webhooks.delivery import BACKOFF, MAX_ATTEMPTS, signature, standard_secret, standard_signature
from webhooks.models import Delivery, Event, Webhook
from webhooks.tasks import delivery_task, send_overdue_deliveries

pytestmark = pytest.mark.django_db


def verify(secret: str, headers: dict, body: bytes, now: float, tolerance: int = 300) -> bool:
    """What a receiver does (docs/interfaces.md): recompute the signature over "<timestamp>.<body>" and refuse an
    old timestamp."""
    timestamp = headers["X-Catan-Timestamp"]
    expected = "sha256=" + hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-Catan-Signature"]) and abs(now - int(timestamp)) <= tolerance


def test_a_ping_is_signed_and_the_receiver_can_check_it(local, receiver, cup, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    [got] = receiver.requests
    assert got.path == "/hooks/catan?from=test"
    assert verify(hook.secret, got.headers, got.body, time.time())
    assert not verify("another secret", got.headers, got.body, time.time())
    assert not verify(hook.secret, got.headers, got.body + b" ", time.time())  # a changed body fails
    assert not verify(hook.secret, got.headers, got.body, time.time() + 3600)  # an old one replayed fails
    assert got.headers["X-Catan-Event"] == "ping" and got.headers["X-Catan-Delivery"] == str(delivery.uid)
    assert got.headers["Content-Type"] == "application/json; charset=utf-8"
    payload = json.loads(got.body)
    assert payload["event"] == "ping" and payload["delivery"] == str(delivery.uid)
    assert payload["championship"]["slug"] == tournament.championship.slug
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status, delivery.response_body) == (
        Delivery.Status.SUCCEEDED, 1, 200, '{"ok": true}')


def test_the_signature_is_hmac_sha256_of_timestamp_dot_body():
    expected = hmac.new(b"k", b"1700000000.{}", hashlib.sha256).hexdigest()
    assert signature("k", 1700000000, b"{}") == f"sha256={expected}"


def test_a_failing_receiver_is_tried_again_with_growing_waits(local, receiver, cup, later,
                                                               django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    receiver.statuses = [500, 503]
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status) == (Delivery.Status.QUEUED, 1, 500)
    assert len(delivery.response_body) == outbound.KEEP_BYTES and delivery.message == "The receiver answered 500."
    assert delivery.next_attempt_at is not None and not delivery.stalled()
    assert [(seconds, args) for seconds, _task, args in later] == [(60, (delivery.pk,))]
    for expected_wait in (5 * 60, None):  # the second attempt gets a 503, the third a 200
        seconds, task, args = later[-1]
        with django_capture_on_commit_callbacks(execute=True):
            task(*args)
        if expected_wait:
            assert later[-1][0] == expected_wait
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status, delivery.next_attempt_at) == (
        Delivery.Status.SUCCEEDED, 3, 200, None)
    bodies = {r.body for r in receiver.requests}
    assert len(receiver.requests) == 3 and len(bodies) == 1  # the same body each time, freshly signed
    assert all(verify(hook.secret, r.headers, r.body, time.time()) for r in receiver.requests)
    assert len({r.headers["X-Catan-Delivery"] for r in receiver.requests}) == 1


def test_attempts_are_bounded(local, receiver, cup, later, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    receiver.statuses = [500] * 10
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    for _retry in range(MAX_ATTEMPTS - 1):
        _seconds, task, args = later[-1]
        with django_capture_on_commit_callbacks(execute=True):
            task(*args)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.FAILED, MAX_ATTEMPTS)
    assert [seconds for seconds, _task, _args in later] == list(BACKOFF)
    assert len(receiver.requests) == MAX_ATTEMPTS


def test_a_turned_off_webhook_sends_nothing_more(local, receiver, cup, later, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    receiver.statuses = [500]
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    services.set_active(tournament.championship, hook.pk, False, user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        delivery_task(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED and len(receiver.requests) == 1


def test_a_lost_retry_is_swept_up(local, receiver, cup, later, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    receiver.statuses = [500]
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    assert send_overdue_deliveries() == 0  # not due yet
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.created_at.replace(year=2020))
    with django_capture_on_commit_callbacks(execute=True):
        assert send_overdue_deliveries() == 1
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED and delivery.attempts == 2


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "10.1.2.3", "192.168.0.10", "169.254.169.254", "[::1]",
                                  "[::ffff:127.0.0.1]", "100.64.0.1", "0.0.0.0", "224.0.0.1"])
def test_local_and_private_addresses_are_refused_in_production(settings, host):
    settings.OUTBOUND_LOCAL_ALLOWED = False
    with pytest.raises(outbound.Refused):
        outbound.post(f"https://{host}/hook", b"{}", {})


def test_a_public_address_passes_the_check(settings):
    settings.OUTBOUND_LOCAL_ALLOWED = False
    assert outbound.resolve("93.184.215.14", 443) == "93.184.215.14"


@pytest.mark.parametrize("url", ["http://example.org/hook", "ftp://example.org/", "https://user:pw@example.org/",
                                 "https:///nohost", "https://example.org:port/", "https://example.org/" + "a" * 500])
def test_only_https_addresses_without_credentials_are_accepted(settings, url):
    settings.OUTBOUND_LOCAL_ALLOWED = False
    with pytest.raises(outbound.Refused):
        outbound.check_url(url)


def test_a_delivery_to_a_refused_address_fails_without_retrying(settings, receiver, cup, later,
                                                                django_capture_on_commit_callbacks):
    settings.OUTBOUND_LOCAL_ALLOWED = False
    tournament, organizer, _other = cup
    with pytest.raises(ValidationError):  # plain http is refused when the webhook is added
        services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    port = receiver.url.split(":")[2].split("/")[0]
    with pytest.raises(ValidationError):  # and so is a local address (issue 33)
        services.add_webhook(tournament.championship, f"https://127.0.0.1:{port}/", [Event.GAME_PUBLISHED],
                             user=organizer)
    hook = Webhook.objects.create(championship=tournament.championship, url=f"https://127.0.0.1:{port}/",
                                  events=[Event.GAME_PUBLISHED], secret="s" * 64, created_by=organizer)  # from before
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED and delivery.attempts == 1 and not later
    assert "local or private" in delivery.message and receiver.requests == []


def test_redirects_are_not_followed(local, cup, later, django_capture_on_commit_callbacks):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    hits = []

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):
            hits.append(self.path)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(302)
            self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        tournament, organizer, _other = cup
        hook = services.add_webhook(tournament.championship, f"http://127.0.0.1:{server.server_address[1]}/h",
                                    [Event.GAME_PUBLISHED], user=organizer)
        with django_capture_on_commit_callbacks(execute=True):
            delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    finally:
        server.shutdown()
        server.server_close()
    delivery.refresh_from_db()
    assert hits == ["/h"] and delivery.response_status == 302 and delivery.status == Delivery.Status.QUEUED


def test_a_delivery_verifies_with_the_standard_webhooks_library(local, receiver, cup,
                                                                 django_capture_on_commit_callbacks):
    """What a receiver using Standard Webhooks does: the `whsec_` secret from the console, the three headers."""
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.ping(tournament.championship, hook.pk, user=organizer)
    [got] = receiver.requests
    verifier = StandardWebhook(standard_secret(hook.secret))
    assert verifier.verify(got.body, got.headers)["delivery"] == str(delivery.uid)
    assert got.headers["webhook-id"] == str(delivery.uid) and got.headers["webhook-signature"].startswith("v1,")
    with pytest.raises(WebhookVerificationError):
        verifier.verify(got.body + b" ", got.headers)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(standard_secret("another secret")).verify(got.body, got.headers)
    assert verify(hook.secret, got.headers, got.body, time.time())  # the deprecated X-Catan-* headers still sent


def test_the_standard_signature_is_base64_hmac_of_id_dot_timestamp_dot_body():
    digest = hmac.new(b"k", b"msg_1.1700000000.{}", hashlib.sha256).digest()
    assert standard_signature("k", "msg_1", 1700000000, b"{}") == "v1," + base64.b64encode(digest).decode()
    assert standard_secret("k") == "whsec_aw=="
