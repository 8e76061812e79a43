"""Web Push to a player's phone when their table is published (issue 25, item 5), against a local push endpoint.

A push service here is a small HTTP server on 127.0.0.1 that keeps what it is sent; each test subscription has a
receiving key pair made by the test, as a browser makes one, so the test decrypts what the site sent (RFC 8291,
with http_ece) and checks the VAPID signature (RFC 8292) as a push service does. Subscriptions to the local server
are written directly: the subscribe endpoint refuses a plain-http address on an IP, as it should, and the sending
reaches it only through the outbound guard's seam for listed hosts (`local_push`), as a stack on loopback would.
The names of push services the subscribe endpoint is given resolve through a stand-in for DNS (`push_dns`).
"""
import base64
import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext as _
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from py_vapid import Vapid02

from audit.models import AuditEntry
from championships import links
from championships.models import PushSubscription
from core import outbound, webpush
from core.ratelimit import RateLimit
from results.notices import send_seating_pushes
from results.publishing import publish_game
from scheduling.models import Seat
from scheduling.services import generate_seating
from tests.factories import make_entries, make_official, make_tournament
from tests.receivers import RawReceivers
from tests.site import SITE
from tests.ssrf import LITERAL_HOSTS, SPECIAL_NAMES, resolver

pytestmark = pytest.mark.django_db

CONTACT = "mailto:desk@example.org"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """The local push endpoint: keeps each request (path, headers, body) and answers `status[path]` (201 else)."""

    def __init__(self):
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status = service.status.get(self.path, 201)
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "/push/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def local_push(settings):
    """The local push service reachable, and only it: the guard's seam for listed hosts (core/outbound.py)."""
    settings.OUTBOUND_LOCAL_ALLOWED = False
    settings.OUTBOUND_LOCAL_HOSTS = ["127.0.0.1"]


@pytest.fixture(autouse=True)
def push_dns(monkeypatch, settings):
    """Names resolved as the test says (a public address for the push service of the examples), anything else not
    found; the guard's seam off unless a test turns it on."""
    settings.OUTBOUND_LOCAL_ALLOWED, settings.OUTBOUND_LOCAL_HOSTS = False, []
    names = {"push.example.com": ["93.184.215.14"]}
    monkeypatch.setattr(outbound, "lookup", resolver(names))
    return names


@pytest.fixture
def vapid(settings):
    public, private = webpush.new_keys()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    settings.WEBPUSH_CONTACT = CONTACT
    return public


@pytest.fixture
def cup():
    tournament = make_tournament(slug="push-cup", name="Push Cup")
    entries = make_entries(tournament, 8)
    organizer = make_official(tournament, "organizer")
    make_official(tournament, "referee")
    generate_seating(tournament.stages.get().pk, user=organizer, seed=1)
    return tournament, entries, organizer


def browser_subscription(player, endpoint: str):
    """A subscription as a browser makes it: its own P-256 key pair and a 16-byte auth secret."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)
    PushSubscription.objects.create(player=player, endpoint=endpoint, p256dh=b64(public), auth=b64(auth))
    return key, auth


def claims(authorization: str) -> dict:
    token = re.match(r"vapid t=([^,]+),k=", authorization).group(1)
    return json.loads(unb64(token.split(".")[1]))


def test_publishing_pushes_each_subscribed_player_their_table(cup, vapid, push_service, local_push,
                                                              django_capture_on_commit_callbacks):
    tournament, entries, organizer = cup
    game = tournament.games.get(number=1)
    arabic = entries[5].player
    arabic.language = "ar"
    arabic.save()
    keys = {entries[0].player_id: browser_subscription(entries[0].player, f"{push_service.origin}/push/first"),
            arabic.pk: browser_subscription(arabic, f"{push_service.origin}/push/second")}
    token = links.issue(entries[0].player)
    with django_capture_on_commit_callbacks(execute=True):
        publish_game(game.pk, user=organizer)
    assert sorted(path for path, _, _ in push_service.received) == ["/push/first", "/push/second"]
    for path, headers, body in push_service.received:
        player_id = entries[0].player_id if path == "/push/first" else arabic.pk
        key, auth = keys[player_id]
        assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) == webpush.TTL_SECONDS
        payload = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
        seat = Seat.objects.select_related("table").get(game=game, entry__player_id=player_id)
        assert payload["table"] == seat.table.number and payload["game"] == 1
        with translation.override("ar" if player_id == arabic.pk else "en"):  # as the email: the player's language
            title = _("Game %(game)d: table %(table)d · %(tournament)s") % {
                "game": 1, "table": seat.table.number, "tournament": "Push Cup"}
        assert payload["title"] == title and "Push Cup" in payload["body"]
        assert token not in json.dumps(payload) and "/me/" not in payload["url"]
        # in the language the player registered in, as the email
        assert payload["url"] == f"{SITE}{'/ar' if player_id == arabic.pk else ''}/t/push-cup/games/1/"
        # the VAPID header: signed by the configured key, for this push service, with the site's contact
        assert headers["authorization"].endswith(f",k={vapid}")
        assert Vapid02.verify(headers["authorization"])
        assert claims(headers["authorization"])["aud"] == push_service.origin
        assert claims(headers["authorization"])["sub"] == CONTACT


def test_a_gone_subscription_is_removed_and_a_failure_kept_on_the_row(cup, vapid, push_service, local_push):
    tournament, entries, organizer = cup
    game = tournament.games.get(number=1)
    browser_subscription(entries[0].player, f"{push_service.origin}/push/gone")
    browser_subscription(entries[1].player, f"{push_service.origin}/push/broken")
    browser_subscription(entries[2].player, f"{push_service.origin}/push/fine")
    browser_subscription(entries[3].player, f"{push_service.origin}/push/moved")
    push_service.status.update({"/push/gone": 410, "/push/broken": 500, "/push/moved": 307})
    publish_game(game.pk, user=organizer)
    assert send_seating_pushes(game.pk) == 1
    assert "/push/elsewhere" not in [path for path, _, _ in push_service.received]  # never sent on elsewhere
    assert PushSubscription.objects.get(endpoint__endswith="/moved").last_error == "307 Temporary Redirect"
    assert not PushSubscription.objects.filter(endpoint__endswith="/gone").exists()
    assert PushSubscription.objects.get(endpoint__endswith="/broken").last_error.startswith("500")
    assert PushSubscription.objects.get(endpoint__endswith="/fine").last_error == ""
    push_service.status["/push/broken"] = 201
    send_seating_pushes(game.pk)
    assert PushSubscription.objects.get(endpoint__endswith="/broken").last_error == ""


def test_nothing_about_push_without_keys(cup, push_service, client, django_capture_on_commit_callbacks):
    tournament, entries, organizer = cup
    browser_subscription(entries[0].player, f"{push_service.origin}/push/first")
    token = links.issue(entries[0].player)
    with django_capture_on_commit_callbacks(execute=True):
        publish_game(tournament.games.get(number=1).pk, user=organizer)
    assert push_service.received == []
    assert send_seating_pushes(tournament.games.get(number=1).pk) == 0
    page = client.get(f"/me/{token}/").content.decode()
    assert "push-notice" not in page and "push.js" not in page
    assert client.post(f"/me/{token}/push/subscribe/", {"endpoint": "https://push.example.com/a", "p256dh": "AAAA",
                                                        "auth": "AAAA"}).status_code == 404


def test_subscribing_and_unsubscribing_through_the_players_own_token(cup, vapid):
    tournament, entries, organizer = cup
    mine, theirs = links.issue(entries[0].player), links.issue(entries[1].player)
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/me/{mine}/")
    html = page.content.decode()
    assert f'data-key="{vapid}"' in html and "Notify me on this phone" in html and 'id="push-notice" hidden' in html
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    endpoint = "https://push.example.com/send/abc"
    data = {"endpoint": endpoint, "p256dh": b64(b"\x04" + os.urandom(64)), "auth": b64(os.urandom(16))}
    assert client.post(f"/me/{mine}/push/subscribe/", data).status_code == 403  # no CSRF token
    headers = {"HTTP_X_CSRFTOKEN": csrf}
    done = client.post(f"/me/{mine}/push/subscribe/", data, **headers)
    assert done.status_code == 204 and "no-store" in done["Cache-Control"]
    subscription = PushSubscription.objects.get()
    assert subscription.player == entries[0].player and subscription.endpoint == endpoint
    assert AuditEntry.objects.filter(action="player.push_on", player=entries[0].player,
                                     tournament=tournament).exists()
    # another player's token does not remove it; the player's own does
    assert client.post(f"/me/{theirs}/push/unsubscribe/", {"endpoint": endpoint}, **headers).status_code == 204
    assert PushSubscription.objects.filter(player=entries[0].player).exists()
    assert client.post(f"/me/{mine}/push/unsubscribe/", {"endpoint": endpoint}, **headers).status_code == 204
    assert not PushSubscription.objects.exists()
    assert AuditEntry.objects.filter(action="player.push_off", player=entries[0].player).count() == 1
    # the server posts to the endpoint: only https on a named host; keys of the browser's shape and size
    for wrong in ("http://push.example.com/a", "https://127.0.0.1/a", "https://localhost/a",
                  "https://push.example.com:8080/a", "https://push.example.com/" + "a" * 1000):
        assert client.post(f"/me/{mine}/push/subscribe/", {**data, "endpoint": wrong}, **headers).status_code == 422
    assert client.post(f"/me/{mine}/push/subscribe/", {**data, "auth": "not base64!"}, **headers).status_code == 422
    assert client.post(f"/me/{mine}/push/subscribe/", {**data, "auth": ""}, **headers).status_code == 422
    assert client.post(f"/me/{mine}/push/subscribe/", {**data, "auth": b64(os.urandom(15))},
                       **headers).status_code == 422
    assert client.post(f"/me/{mine}/push/subscribe/", {**data, "p256dh": b64(b"\x02" + os.urandom(64))},
                       **headers).status_code == 422
    assert not PushSubscription.objects.exists()
    assert client.post(f"/me/{'x' * 43}/push/subscribe/", data, **headers).status_code == 404
    assert client.get(f"/me/{mine}/push/subscribe/").status_code == 405


def test_a_phone_handed_over_notifies_its_new_player_and_changes_are_limited(cup, vapid, monkeypatch):
    from web.players import views

    tournament, entries, organizer = cup
    client = Client()
    data = {"endpoint": "https://push.example.com/send/shared", "p256dh": b64(b"\x04" + os.urandom(64)),
            "auth": b64(os.urandom(16))}
    assert client.post(f"/me/{links.issue(entries[0].player)}/push/subscribe/", data).status_code == 204
    second = links.issue(entries[1].player)
    assert client.post(f"/me/{second}/push/subscribe/", data).status_code == 204
    assert PushSubscription.objects.get().player == entries[1].player
    monkeypatch.setattr(views, "PUSH_CHANGES", RateLimit("player-push", 1, 3600))
    limited = client.post(f"/me/{second}/push/unsubscribe/", data)
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert PushSubscription.objects.exists()


def test_make_vapid_keys_prints_a_pair_that_signs_and_verifies(capsys):
    call_command("make_vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    vapid = Vapid02.from_string(lines["WEBPUSH_VAPID_PRIVATE_KEY"])
    header = vapid.sign({"sub": CONTACT, "aud": "https://push.example.com", "exp": 2_000_000_000})["Authorization"]
    assert header.endswith(",k=" + lines["WEBPUSH_VAPID_PUBLIC_KEY"]) and Vapid02.verify(header)
    assert len(unb64(lines["WEBPUSH_VAPID_PUBLIC_KEY"])) == 65


def test_subscribing_to_an_address_inside_is_refused_with_the_reason(cup, vapid, push_dns):
    """Issue 33, item 3: a self-registered player subscribed https://metadata.google.internal/… and a name that
    resolved to 127.0.0.1, and the worker connected there when a game was published."""
    tournament, entries, organizer = cup
    token = links.issue(entries[0].player)
    push_dns.update({"inside.example.net": ["127.0.0.1"], "nat64.example.net": ["64:ff9b::7f00:1"],
                     "metadata.google.internal": ["169.254.169.254"]})
    keys = {"p256dh": b64(b"\x04" + os.urandom(64)), "auth": b64(os.urandom(16))}
    inside = "is a local or private address; only public addresses are contacted."
    for endpoint, reason in [
            ("https://metadata.google.internal/computeMetadata/v1/", f"The host metadata.google.internal {inside}"),
            ("https://inside.example.net/push/1", f"The host inside.example.net {inside}"),
            ("https://nat64.example.net/push/1", f"The host nat64.example.net {inside}"),
            ("https://nowhere.example.net/push/1", "The host nowhere.example.net was not found."),
            ("https://[64:ff9b::7f00:1]/push/1", f"The host 64:ff9b::7f00:1 {inside}"),
            ("https://2130706433/push/1", "This browser's notification address cannot be used."),  # the form's
            ("https://93.184.215.14/push/1", "This browser's notification address cannot be used.")]:
        answer = Client().post(f"/me/{token}/push/subscribe/", {"endpoint": endpoint, **keys})
        assert (answer.status_code, answer.json()) == (422, {"error": reason}), endpoint
    assert not PushSubscription.objects.exists()
    assert Client().post(f"/me/{token}/push/subscribe/", {"endpoint": "https://push.example.com/send/ok",
                                                          **keys}).status_code == 204


def test_a_stored_endpoint_inside_is_never_connected_to(cup, vapid, push_dns, django_capture_on_commit_callbacks):
    """Subscriptions made before the guard (written directly): publishing a game connects to none of them; a real
    listener on 127.0.0.1 sees no connection, and each row keeps the reason."""
    tournament, entries, organizer = cup
    with RawReceivers() as start:
        listener = start(lambda connection, stop: connection.sendall(b"HTTP/1.1 201 Created\r\n\r\n"))
        push_dns["inside.example.net"] = ["127.0.0.1"]
        push_dns["mapped.example.net"] = ["::ffff:127.0.0.1"]
        for entry, endpoint in zip(entries, [
                f"https://inside.example.net:{listener.port}/push", f"https://mapped.example.net:{listener.port}/push",
                f"http://127.0.0.1:{listener.port}/push", f"https://[::ffff:7f00:1]:{listener.port}/push",
                f"https://0x7f.1:{listener.port}/push", "https://metadata.google.internal/push"]):
            browser_subscription(entry.player, endpoint)
        with django_capture_on_commit_callbacks(execute=True):
            publish_game(tournament.games.get(number=1).pk, user=organizer)
        assert send_seating_pushes(tournament.games.get(number=1).pk) == 0
        assert listener.connections == 0
    errors = dict(PushSubscription.objects.values_list("endpoint", "last_error"))
    assert all("local or private" in error or error == "Give an https:// address." for error in errors.values()), errors


def test_a_push_service_that_drips_its_answer_is_cut_off_at_the_deadline(cup, vapid, local_push, monkeypatch):
    """The same guard and deadline as the webhooks: a push service answering a header line every 0.2 s."""
    def drip(connection, stop):
        connection.sendall(b"HTTP/1.1 201 Created\r\n")
        while not stop.wait(0.2):
            connection.sendall(b"X-Drip: 1\r\n")

    monkeypatch.setattr(outbound, "DEADLINE_SECONDS", 1.0)
    tournament, entries, organizer = cup
    with RawReceivers() as start:
        service = start(drip)
        browser_subscription(entries[0].player, f"http://127.0.0.1:{service.port}/push/slow")
        publish_game(tournament.games.get(number=1).pk, user=organizer)
        started = time.monotonic()
        assert send_seating_pushes(tournament.games.get(number=1).pk) == 0
        assert time.monotonic() - started < 2.0 and service.connections == 1
    assert PushSubscription.objects.get().last_error == "No answer within 1 seconds."


INSIDE = [f"https://{host}/a" for host in LITERAL_HOSTS + SPECIAL_NAMES] + ["https://inside.example.net/a"]
"""Every address that leads back inside (tests/ssrf.py), and a name that resolves there."""
junk = st.one_of(st.text(max_size=40), st.sampled_from(["", "x" * 3000, "\x00", "https://", "https://a.b/" + "c" * 990,
                                                        "javascript:alert(1)", "https://[::1]/a", "AAAA==",
                                                        "https://push.example.com/a", *INSIDE]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=junk, p256dh=junk, auth=junk)
def test_hostile_values_never_break_the_subscribe_endpoint(cup, vapid, push_dns, endpoint, p256dh, auth):
    """Any value, and every address that leads inside (tests/ssrf.py): refused unless the guard passes it now."""
    from web.players.views import PUSH_CHANGES

    push_dns["inside.example.net"] = ["127.0.0.1"]
    tournament, entries, organizer = cup
    token = links.issue(entries[0].player)
    PUSH_CHANGES.clear(str(entries[0].player_id))
    before = PushSubscription.objects.count()
    response = Client().post(f"/me/{token}/push/subscribe/", {"endpoint": endpoint, "p256dh": p256dh, "auth": auth})
    assert response.status_code in (204, 422)
    if response.status_code != 204:
        assert PushSubscription.objects.count() == before
    else:
        webpush.check_endpoint(PushSubscription.objects.get(endpoint=endpoint).endpoint)  # raises if refused
