"""A championship's webhooks: registered, turned off and on, removed and pinged by its organizers; told of events.

Each change is checked (`require_championship_organizer`), made in one transaction and audited. The events are
queued by `emit` once the change that made them commits, so a change rolled back sends nothing; each matching
webhook gets one `Delivery` (`webhooks.delivery` sends it, `webhooks.tasks` runs it in the background).
"""
from __future__ import annotations

import secrets
import uuid
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.actions import Action
from audit.services import record_change
from championships.models import Championship, Tournament
from championships.permissions import require_championship_organizer
from core import jobs as core_jobs
from core import outbound
from core.site import absolute

from .delivery import body_for
from .formats import payload_for
from .models import PING, Delivery, Event, Format, Webhook
from .tasks import delivery_task

SECRET_BYTES = 32
WEBHOOKS_MAX = 10
"""Webhooks per championship: each event is posted to every one of them."""
RECENT = 50
"""Deliveries listed on the console page."""


def _events(chosen: list[str]) -> list[str]:
    events = [event for event in Event.values if event in set(chosen)]
    if not events:
        raise ValidationError({"events": [_("Choose at least one event.")]})
    return events


def add_webhook(championship: Championship, url: str, events: list[str], *, user,
                format_: str = Format.JSON) -> Webhook:
    """A new webhook with its own secret (shown to the championship's organizers on the console), posting each event
    in `format_` (the JSON event, or a Discord or Slack message)."""
    require_championship_organizer(user, championship)
    if format_ not in Format.values:
        raise ValidationError({"format": [_("Choose one of the formats.")]})
    try:
        url = outbound.check_url(url)
    except outbound.Refused as error:
        raise ValidationError({"url": [str(error)]}) from None
    chosen = _events(events)
    with transaction.atomic():
        Championship.objects.select_for_update().get(pk=championship.pk)
        if championship.webhooks.count() >= WEBHOOKS_MAX:
            raise ValidationError(_("A championship has at most %(max)d webhooks.") % {"max": WEBHOOKS_MAX})
        webhook = Webhook.objects.create(championship=championship, url=url, events=chosen, created_by=user,
                                         format=format_, secret=secrets.token_hex(SECRET_BYTES))
        record_change(user, None, Action.WEBHOOK_ADDED, webhook, championship_id=championship.pk,
                      after={"url": url, "events": chosen, "format": format_, "championship": championship.slug})
    return webhook


def _locked(championship: Championship, webhook_id: int) -> Webhook:
    return get_object_or_404(Webhook.objects.select_for_update(), pk=webhook_id, championship=championship)


def set_active(championship: Championship, webhook_id: int, active: bool, *, user) -> Webhook:
    """Turn the webhook off (nothing more is sent, waiting retries fail) or on again."""
    require_championship_organizer(user, championship)
    with transaction.atomic():
        webhook = _locked(championship, webhook_id)
        if webhook.active != active:
            webhook.active = active
            if active:  # earlier failures no longer count towards turning it off (`webhooks.failing`)
                webhook.counted_from, webhook.turned_off_automatically = timezone.now(), False
            webhook.save(update_fields=["active", "counted_from", "turned_off_automatically"])
            record_change(user, None, Action.WEBHOOK_TURNED_ON if active else Action.WEBHOOK_TURNED_OFF, webhook,
                          after={"url": webhook.url}, championship_id=championship.pk)
    return webhook


def set_format(championship: Championship, webhook_id: int, format_: str, *, user) -> Webhook:
    """Post the webhook's events from now on in `format_` (deliveries already made keep their body)."""
    require_championship_organizer(user, championship)
    if format_ not in Format.values:
        raise ValidationError({"format": [_("Choose one of the formats.")]})
    with transaction.atomic():
        webhook = _locked(championship, webhook_id)
        if webhook.format != format_:
            before, webhook.format = webhook.format, format_
            webhook.save(update_fields=["format"])
            record_change(user, None, Action.WEBHOOK_FORMAT_CHANGED, webhook, championship_id=championship.pk,
                          before={"format": before}, after={"url": webhook.url, "format": format_})
    return webhook


def remove_webhook(championship: Championship, webhook_id: int, *, user) -> None:
    """The webhook and its deliveries are gone; the activity log keeps its address."""
    require_championship_organizer(user, championship)
    with transaction.atomic():
        webhook = _locked(championship, webhook_id)
        record_change(user, None, Action.WEBHOOK_REMOVED, webhook, before={"url": webhook.url},
                      championship_id=championship.pk)
        webhook.delete()


def ping(championship: Championship, webhook_id: int, *, user) -> Delivery:
    """A test delivery (event "ping") to the webhook, now, whether or not it is turned on for events."""
    require_championship_organizer(user, championship)
    with transaction.atomic():
        webhook = _locked(championship, webhook_id)
        delivery = _delivery(webhook, PING, None, {"message": "Hello from the CATAN tournaments site."})
        record_change(user, None, Action.WEBHOOK_PINGED, webhook, after={"url": webhook.url},
                      championship_id=championship.pk)
    return delivery


def new_secret(championship: Championship, webhook_id: int, *, user) -> Webhook:
    """A new signing secret at once (the old one leaked, or the receiver changed hands): every attempt from now on,
    the retries already waiting included, is signed with it. The secret is never in the audit trail."""
    require_championship_organizer(user, championship)
    with transaction.atomic():
        webhook = _locked(championship, webhook_id)
        webhook.secret = secrets.token_hex(SECRET_BYTES)
        webhook.save(update_fields=["secret"])
        record_change(user, None, Action.WEBHOOK_SECRET_CHANGED, webhook, after={"url": webhook.url},
                      championship_id=championship.pk)
    return webhook


def send_again(championship: Championship, delivery_id: int, *, user) -> Delivery:
    """A failed delivery sent again as it was, the same body and delivery id (a receiver that took it after all
    ignores the repeat by `X-Catan-Delivery`), its attempts counted afresh."""
    require_championship_organizer(user, championship)
    with transaction.atomic():
        delivery = get_object_or_404(Delivery.objects.select_for_update().select_related("webhook"), pk=delivery_id,
                                     webhook__championship=championship)
        if delivery.status != Delivery.Status.FAILED:
            raise ValidationError(_("Only a delivery that failed can be sent again."))
        if not delivery.webhook.active:
            raise ValidationError(_("Turn the webhook on first: a webhook that is off sends nothing."))
        delivery.status, delivery.attempts, delivery.next_attempt_at = Delivery.Status.QUEUED, 0, None
        delivery.response_status, delivery.response_body, delivery.message = None, "", ""
        delivery.started_at = delivery.finished_at = None
        delivery.save()
        record_change(user, None, Action.WEBHOOK_REDELIVERED, delivery.webhook, championship_id=championship.pk,
                      after={"url": delivery.webhook.url, "delivery": str(delivery.uid)})
        core_jobs.dispatch(delivery, delivery_task)
    return delivery


def _public(championship: Championship, tournament: Tournament | None) -> dict[str, Any]:
    """What the public pages say of where the event happened (slugs, names and addresses)."""
    where: dict[str, Any] = {"championship": {
        "slug": championship.slug, "name": championship.name,
        "url": absolute(reverse("public-championship", args=[championship.slug]))}}
    if tournament is not None:
        where["tournament"] = {"slug": tournament.slug, "name": tournament.name,
                               "url": absolute(reverse("public-tournament", args=[tournament.slug]))}
    return where


def _delivery(webhook: Webhook, event: str, tournament: Tournament | None, data: dict[str, Any]) -> Delivery:
    """The delivery's row with its body, dispatched once it commits."""
    uid = uuid.uuid4()
    body = body_for(payload_for(webhook.format, {
        "event": event, "delivery": str(uid), "created_at": timezone.now().isoformat(),
        **_public(webhook.championship, tournament), "data": data}))
    delivery = Delivery.objects.create(webhook=webhook, uid=uid, event=event, tournament=tournament, body=body,
                                       requested_by_id=webhook.created_by_id)
    core_jobs.dispatch(delivery, delivery_task)
    return delivery


def emit(tournament: Tournament, event: Event, data: dict[str, Any]) -> None:
    """Tell the webhooks of the tournament's championship that asked for `event`, once this transaction commits."""
    transaction.on_commit(partial(_send, tournament.pk, event, data), robust=True)


def _send(tournament_id: int, event: Event, data: dict[str, Any]) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.championship_id is None:
        return
    webhooks = [w for w in Webhook.objects.filter(championship_id=tournament.championship_id, active=True)
                .select_related("championship") if event in w.events]
    for webhook in webhooks:
        if event == Event.STANDINGS_CHANGED and Delivery.objects.filter(
                webhook=webhook, event=event, tournament=tournament, status=Delivery.Status.QUEUED,
                attempts=0).exists():
            continue  # one not yet sent says the same: a burst of sign-offs sends one
        with transaction.atomic():
            _delivery(webhook, event, tournament, data)


def webhooks_of(championship: Championship) -> list[Webhook]:
    return list(championship.webhooks.all())


def recent_deliveries(championship: Championship, limit: int | None = RECENT) -> list[Delivery]:
    """The championship's deliveries, newest first, with their webhook."""
    deliveries = (Delivery.objects.filter(webhook__championship=championship).select_related("webhook")
                  .defer("body"))
    return list(deliveries[:limit] if limit else deliveries)
