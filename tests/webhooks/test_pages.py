"""The championship's webhooks page: its organizers only; add, turn off, ping, remove; deliveries and their CSV."""
import base64
import hashlib
import hmac
import io

import pytest
from django.utils.translation import gettext, override
from openpyxl import load_workbook

from audit.models import AuditEntry
from webhooks import services
from webhooks.models import Delivery, Event, Webhook

pytestmark = pytest.mark.django_db


def page_url(tournament) -> str:
    return f"/organize/championships/{tournament.championship.slug}/webhooks/"


def test_anonymous_visitors_are_sent_to_sign_in_and_other_organizers_refused(client, cup, local, receiver):
    tournament, organizer, other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    for url in (page_url(tournament), page_url(tournament) + "deliveries.csv"):
        assert "/accounts/login/" in client.get(url)["Location"]
        client.force_login(other)
        assert client.get(url).status_code == 403
        client.logout()
    client.force_login(other)
    assert client.post(page_url(tournament), {"remove": hook.pk}).status_code == 403
    elsewhere = other.staff_roles.get().championship
    answer = client.post(f"/organize/championships/{elsewhere.slug}/webhooks/", {"remove": hook.pk})
    assert answer.status_code == 404 and Webhook.objects.filter(pk=hook.pk).exists()  # not through their own page


def test_an_organizer_adds_a_webhook_and_sees_its_secret_once(client, cup, local, receiver):
    tournament, organizer, _other = cup
    client.force_login(organizer)
    answer = client.post(page_url(tournament), {"url": receiver.url, "events": ["game.published", "sheet.signed_off"]})
    assert answer.status_code == 200
    hook = Webhook.objects.get()
    assert hook.events == ["game.published", "sheet.signed_off"] and hook.created_by == organizer
    assert len(hook.secret) == 64
    shown = answer.context["made_secret"]
    assert shown == "whsec_" + base64.b64encode(hook.secret.encode()).decode() and shown in answer.content.decode()
    page = client.get(page_url(tournament)).content.decode()
    assert shown not in page and hook.secret not in page and receiver.url.replace("&", "&amp;") in page


@pytest.mark.parametrize(("data", "field"), [
    ({"url": "ftp://example.org/", "events": ["game.published"]}, "url"),
    ({"url": "https://example.org/" + "a" * 600, "events": ["game.published"]}, "url"),
    ({"url": "https://example.org/hook"}, "events"),
    ({"url": "https://example.org/hook", "events": ["nonsense"]}, "events"),
])
def test_a_bad_address_or_no_event_is_refused_in_the_readers_language(client, cup, data, field, settings):
    settings.OUTBOUND_LOCAL_ALLOWED = False
    tournament, organizer, _other = cup
    client.force_login(organizer)
    answer = client.post("/ar" + page_url(tournament), data)
    assert answer.status_code == 422 and answer.context["form"].errors[field]
    assert not Webhook.objects.exists()
    if data["url"] == "ftp://example.org/":
        with override("ar"):
            assert gettext("Give an https:// address.") in answer.context["form"].errors["url"]


def test_the_buttons_ping_turn_off_and_remove(client, cup, local, receiver, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(page_url(tournament), {"ping": hook.pk}).status_code == 302
    assert len(receiver.requests) == 1
    page = client.get(page_url(tournament))
    assert [d.event for d in page.context["deliveries"]] == ["ping"]
    assert client.post(page_url(tournament), {"turn_off": hook.pk}).status_code == 302
    hook.refresh_from_db()
    assert not hook.active
    assert client.post(page_url(tournament), {"remove": hook.pk}).status_code == 302
    assert not Webhook.objects.exists()


def one_hostile_answer(client, cup, receiver, callbacks):
    """A test delivery whose receiver answered text a spreadsheet would run; the organizer signed in."""
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    with callbacks(execute=True):
        services.ping(tournament.championship, hook.pk, user=organizer)
    Delivery.objects.update(response_body="=HYPERLINK(1)")
    client.force_login(organizer)
    return tournament


def test_the_deliveries_csv(client, cup, local, receiver, django_capture_on_commit_callbacks):
    tournament = one_hostile_answer(client, cup, receiver, django_capture_on_commit_callbacks)
    answer = client.get(page_url(tournament) + "deliveries.csv")
    lines = answer.content.decode("utf-8-sig").splitlines()
    assert answer["Content-Type"].startswith("text/csv")
    assert lines[0] == "created,event,url,status,attempts,response_code,response,problem,next_attempt,delivery"
    assert ",ping," in lines[1] and ",succeeded,1,200,'=HYPERLINK(1)," in lines[1]


def test_a_failed_delivery_is_sent_again_as_it_was(client, cup, local, receiver, django_capture_on_commit_callbacks):
    """The same body and delivery id (the receiver may have taken it after all), its attempts counted afresh;
    only a failed one, only on an active webhook, only by the championship's organizers."""
    tournament, organizer, other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        services.ping(tournament.championship, hook.pk, user=organizer)
    delivery = Delivery.objects.get()
    client.force_login(organizer)
    with override("en"):
        client.post(page_url(tournament), {"send_again": delivery.pk})  # it succeeded: refused, nothing sent
        refused = gettext("Only a delivery that failed can be sent again.")
        assert refused in client.get(page_url(tournament)).content.decode()
    assert len(receiver.requests) == 1
    Delivery.objects.update(status=Delivery.Status.FAILED, attempts=5, response_status=500, response_body="down")
    client.force_login(other)
    assert client.post(page_url(tournament), {"send_again": delivery.pk}).status_code == 403
    client.force_login(organizer)
    page = client.get(page_url(tournament)).content.decode()
    assert f'name="send_again" value="{delivery.pk}"' in page
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(page_url(tournament), {"send_again": delivery.pk}).status_code == 302
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED and delivery.attempts == 1 and delivery.response_status == 200
    first, again = receiver.requests
    assert again.body == first.body and again.headers["X-Catan-Delivery"] == first.headers["X-Catan-Delivery"]
    logged = AuditEntry.objects.get(action="webhook.redelivered")
    assert logged.user == organizer and logged.after["delivery"] == str(delivery.uid)


def test_a_new_signing_secret_signs_what_is_sent_from_then_on(client, cup, local, receiver,
                                                              django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    old = hook.secret
    client.force_login(organizer)
    answer = client.post(page_url(tournament), {"new_secret": hook.pk})
    hook.refresh_from_db()
    assert hook.secret != old and len(hook.secret) == 64
    assert answer.status_code == 200 and answer.context["made_secret"] == "whsec_" + base64.b64encode(
        hook.secret.encode()).decode()
    logged = AuditEntry.objects.get(action="webhook.secret_changed")
    assert old not in str(logged.after) and hook.secret not in str(logged.after)
    with django_capture_on_commit_callbacks(execute=True):
        services.ping(tournament.championship, hook.pk, user=organizer)
    sent = receiver.requests[-1]
    signed = hmac.new(hook.secret.encode(), sent.headers["X-Catan-Timestamp"].encode() + b"." + sent.body,
                      hashlib.sha256).hexdigest()
    assert sent.headers["X-Catan-Signature"] == f"sha256={signed}"


def test_the_deliveries_as_a_workbook(client, cup, local, receiver, django_capture_on_commit_callbacks):
    tournament = one_hostile_answer(client, cup, receiver, django_capture_on_commit_callbacks)
    answer = client.get(page_url(tournament) + "deliveries.xlsx")
    sheet = load_workbook(io.BytesIO(answer.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("created", "event", "url", "status", "attempts", "response_code", "response", "problem",
                       "next_attempt", "delivery")
    assert rows[1][1] == "ping" and rows[1][6] == "=HYPERLINK(1)" and sheet.cell(2, 7).data_type == "s"
