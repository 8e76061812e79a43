"""Events reach the webhooks that asked for them once the change commits; a change rolled back sends nothing, and the
body holds only what the public pages show."""
import json

import pytest
from django.db import transaction

from audit.models import AuditEntry
from results.announcements import post_announcement
from results.publishing import publish_game
from scheduling.models import Game
from tests.factories import make_admin, make_entries, make_game, make_official, play
from webhooks import events, services
from webhooks.models import Delivery, Event

pytestmark = pytest.mark.django_db


def events_received(receiver) -> list[str]:
    return [json.loads(r.body)["event"] for r in receiver.requests]


def test_signing_off_a_sheet_tells_the_sheet_and_the_standings_once(local, receiver, cup,
                                                                    django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    services.add_webhook(tournament.championship, receiver.url, Event.values, user=organizer)
    entries = make_entries(tournament, 8)
    game = make_game(tournament, [entries[:4], entries[4:]])
    first, second = game.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        play(first, [10, 8, 6, 4], make_admin())
    assert events_received(receiver) == ["sheet.signed_off", "standings.changed"]
    signed = json.loads(receiver.requests[0].body)
    assert signed["data"]["game"] == 1 and signed["data"]["table"] == 1
    assert signed["tournament"] == {"slug": "hook-cup", "name": tournament.name,
                                    "url": "https://catan.example/t/hook-cup/"}
    standings = json.loads(receiver.requests[1].body)["data"]
    assert standings["api"] == "https://catan.example/api/v1/tournaments/hook-cup/standings/"
    names = {e.player.name for e in entries}
    assert not any(name in r.body.decode() for r in receiver.requests for name in names)  # no personal data


def test_only_the_events_asked_for_are_sent_and_only_to_the_championships_webhooks(local, receiver, cup,
                                                                                   django_capture_on_commit_callbacks):
    tournament, organizer, other = cup
    services.add_webhook(tournament.championship, receiver.url, [Event.ANNOUNCEMENT_POSTED], user=organizer)
    elsewhere = other.staff_roles.get().championship
    services.add_webhook(elsewhere, receiver.url, Event.values, user=other)
    with django_capture_on_commit_callbacks(execute=True):
        post_announcement(tournament.pk, "Lunch at one", user=organizer)
        play(make_game(tournament, [make_entries(tournament, 4)]).tables.get(), [10, 8, 6, 4], make_admin())
    assert events_received(receiver) == ["announcement.posted"]
    assert json.loads(receiver.requests[0].body)["data"]["text"] == "Lunch at one"


def test_publishing_a_game_is_told_and_a_rolled_back_change_sends_nothing(local, receiver, cup,
                                                                          django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    services.add_webhook(tournament.championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    make_official(tournament, "referee")
    game = make_game(tournament, [make_entries(tournament, 4)])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLANNED)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        publish_game(game.pk, user=organizer)
        raise RuntimeError("rolled back")
    assert receiver.requests == [] and not Delivery.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        publish_game(game.pk, user=organizer)
    [got] = receiver.requests
    data = json.loads(got.body)["data"]
    assert got.headers["X-Catan-Event"] == "game.published"
    assert data["game"] == 1 and data["url"] == "https://catan.example/t/hook-cup/games/1/"
    assert data["seating"] == "https://catan.example/api/v1/tournaments/hook-cup/games/1/seating/"


def test_a_burst_of_standings_changes_waiting_to_go_is_sent_once(local, receiver, cup,
                                                                 django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    services.add_webhook(tournament.championship, receiver.url, [Event.STANDINGS_CHANGED], user=organizer)
    with django_capture_on_commit_callbacks() as emitted:
        for _change in range(3):
            events.standings_changed(tournament.pk)
    for callback in emitted:  # each makes its delivery; none is sent (the test's transaction never commits)
        callback()
    assert Delivery.objects.filter(event="standings.changed").count() == 1 and receiver.requests == []


def test_every_change_to_a_webhook_is_audited(local, receiver, cup, django_capture_on_commit_callbacks):
    tournament, organizer, _other = cup
    championship = tournament.championship
    hook = services.add_webhook(championship, receiver.url, [Event.GAME_PUBLISHED], user=organizer)
    services.set_active(championship, hook.pk, False, user=organizer)
    services.set_active(championship, hook.pk, True, user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        services.ping(championship, hook.pk, user=organizer)
    services.remove_webhook(championship, hook.pk, user=organizer)
    assert list(AuditEntry.objects.filter(user=organizer, action__startswith="webhook.").order_by("pk")
                .values_list("action", flat=True)) == ["webhook.added", "webhook.turned_off", "webhook.turned_on",
                                                       "webhook.pinged", "webhook.removed"]
    assert not Delivery.objects.exists()  # removed with its webhook

