"""A webhook's format (issue 38 item 3): Discord embeds and Slack blocks of each event, posted to a real receiver on
127.0.0.1 as a chat's incoming webhook would get them, chosen per webhook on the console and audited."""
import json

import pytest

from audit.models import AuditEntry
from results.announcements import post_announcement
from tests.factories import make_admin
from webhooks import services
from webhooks.models import Event, Format, Webhook

pytestmark = pytest.mark.django_db


def test_a_discord_webhook_posts_an_embed_of_the_event(local, receiver, cup, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    services.add_webhook(tournament.championship, receiver.url, [Event.ANNOUNCEMENT_POSTED], user=organizer,
                         format_=Format.DISCORD)
    with django_capture_on_commit_callbacks(execute=True):
        post_announcement(tournament.pk, "Table 2 moved to the terrace. @everyone", user=make_admin())
    [got] = receiver.requests
    message = json.loads(got.body)
    [embed] = message["embeds"]
    assert embed["title"] == "Announcement" and embed["description"] == "Table 2 moved to the terrace. @everyone"
    assert embed["author"] == {"name": tournament.name, "url": "https://catan.example/t/hook-cup/"}
    assert embed["url"] == "https://catan.example/t/hook-cup/"
    assert embed["footer"]["text"] == tournament.championship.name
    assert isinstance(embed["color"], int) and embed["timestamp"]
    assert message["allowed_mentions"] == {"parse": []}  # an announcement cannot ping a whole server
    assert "event" not in message and got.headers["webhook-signature"].startswith("v1,")


def test_a_slack_webhook_posts_blocks_with_a_link(local, receiver, cup, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    hook = services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer,
                                format_=Format.SLACK)
    with django_capture_on_commit_callbacks(execute=True):
        services.ping(tournament.championship, hook.pk, user=organizer)
    message = json.loads(receiver.requests[0].body)
    assert message["text"].startswith("Test message")
    assert [block["type"] for block in message["blocks"]] == ["header", "context", "actions"]
    assert message["blocks"][-1]["elements"][0]["url"].startswith("https://catan.example/")


def test_the_format_is_chosen_on_the_console_and_audited(client, cup, local, receiver):
    tournament, organizer, _other = cup
    client.force_login(organizer)
    address = f"/organize/championships/{tournament.championship.slug}/webhooks/"
    answer = client.post(address, {"url": receiver.url, "events": ["game.published"], "format": "discord"})
    hook = Webhook.objects.get()
    assert answer.status_code == 200 and hook.format == Format.DISCORD
    assert AuditEntry.objects.get(action="webhook.added").after["format"] == "discord"
    assert client.post(address, {"set_format": hook.pk, "format": "slack"}).status_code == 302
    hook.refresh_from_db()
    assert hook.format == Format.SLACK
    changed = AuditEntry.objects.get(action="webhook.format_changed")
    assert (changed.user, changed.before, changed.after["format"]) == (organizer, {"format": "discord"}, "slack")
    client.post(address, {"set_format": hook.pk, "format": "telegram"})
    hook.refresh_from_db()
    assert hook.format == Format.SLACK
    assert "Slack message (blocks)" in client.get(address).content.decode()
