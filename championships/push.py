"""A player's phones told when their table is published (Web Push, `core.webpush`): the subscriptions a player
makes and removes from their private page, and the sending to all of a player's subscriptions.

A browser's subscription is one row, whoever made it last: a phone handed to another player who subscribes on it
notifies that player from then on. A player keeps the newest `KEPT`. Sending happens in the background only
(results/notices.py); a push service that says the subscription is gone removes the row.
"""
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from audit.actions import Action
from audit.services import record_change_in
from core import outbound, webpush

from .models import Player, PushSubscription

KEPT = 10
"""Browsers notified per player: the newest that subscribed."""


def _tournaments(player: Player) -> set[int]:
    return set(player.entries.values_list("tournament_id", flat=True))


def subscribe(player: Player, *, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Notify this browser (its push endpoint and keys) of the player's tables from now on; audited. An endpoint
    the outbound guard refuses (not a push service's shape, a local or private address, a name that is not found)
    is refused with the guard's reason."""
    try:
        webpush.check_endpoint(endpoint)
    except outbound.Refused as error:
        raise ValidationError({"endpoint": [str(error)]}) from None
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth, "last_error": ""})
        stale = PushSubscription.objects.filter(player=player).values_list("pk", flat=True)[KEPT:]
        PushSubscription.objects.filter(pk__in=list(stale)).delete()
        record_change_in(None, _tournaments(player), Action.PLAYER_PUSH_ON, subscription, player=player,
                         after={"player": player.name})
    return subscription


def unsubscribe(player: Player, *, endpoint: str) -> bool:
    """Stop notifying this browser of the player's tables (another player's subscription is left alone); audited
    when there was one. True when one was removed."""
    with transaction.atomic():
        subscription = PushSubscription.objects.filter(player=player, endpoint=endpoint).first()
        if subscription is None:
            return False
        record_change_in(None, _tournaments(player), Action.PLAYER_PUSH_OFF, subscription, player=player,
                         after={"player": player.name})
        subscription.delete()
    return True


def notify(player: Player, payload: dict[str, Any]) -> int:
    """Send `payload` to each of the player's subscriptions now (a background job's work); a subscription its push
    service says is gone is removed, a failure is kept on the row. Returns how many went through."""
    delivered = 0
    for subscription in PushSubscription.objects.filter(player=player):
        outcome = webpush.send(subscription.endpoint, subscription.p256dh, subscription.auth, payload)
        if outcome.gone:
            subscription.delete()
        elif subscription.last_error != outcome.problem:
            subscription.last_error = outcome.problem
            subscription.save(update_fields=["last_error"])
        delivered += outcome.delivered
    return delivered
