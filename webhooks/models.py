"""A championship's webhooks and their deliveries (issue 27): see `webhooks.services` and `webhooks.delivery`."""
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.jobs import BackgroundJob
from core.outbound import URL_MAX
from core.personal_data import SCRUB, holds, not_personal


class Event(models.TextChoices):
    """What a webhook may be told; the value is the `event` of the JSON and the `X-Catan-Event` header."""

    GAME_PUBLISHED = "game.published", _("A game's seating is published")
    SHEET_SIGNED_OFF = "sheet.signed_off", _("A record sheet is signed off")
    STANDINGS_CHANGED = "standings.changed", _("The standings may have changed")
    ANNOUNCEMENT_POSTED = "announcement.posted", _("An announcement is posted")


PING = "ping"
"""The event of a test delivery the organizer asks for; every webhook receives it, whatever its events."""


class Format(models.TextChoices):
    """What each delivery's body is (`webhooks.formats`): the JSON event, or a message a chat's incoming webhook
    posts as it is."""

    JSON = "json", _("JSON event (for a program)")
    DISCORD = "discord", _("Discord message (embed)")
    SLACK = "slack", _("Slack message (blocks)")


@not_personal("an organizer's webhook secret, not a player's")
class Webhook(models.Model):
    """An address that receives the championship's events as signed JSON. The secret is kept as it is (it signs
    each delivery) and shown to the championship's organizers, who give it to the receiver to check signatures."""

    championship = models.ForeignKey("championships.Championship", models.CASCADE, related_name="webhooks")
    url = models.CharField(_("address"), max_length=URL_MAX)
    events = models.JSONField(_("events"), default=list)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices, default=Format.JSON)
    secret = models.CharField(max_length=64)
    active = models.BooleanField(_("active"), default=True)
    turned_off_automatically = models.BooleanField(default=False)
    """Turned off because its deliveries kept failing (`webhooks.failing`), not by an organizer."""
    counted_from = models.DateTimeField(default=timezone.now)
    """Failed deliveries made before this (when it was made or last turned on) do not count towards turning it off."""
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.url


@holds(rows=lambda player: Delivery.objects.filter(tournament__entries__player=player.pk, body__contains=player.name)
       .distinct().order_by("pk"), erase={"body": SCRUB},
       why="an event posted to an organizer's webhook that names the player")
class Delivery(BackgroundJob):
    """One event posted to one webhook, a `core.jobs` job: the body is written once and every attempt sends it
    unchanged (with a fresh timestamp and signature). A failed attempt puts it back in the queue for
    `next_attempt_at`; `requested_by` is the webhook's maker."""

    webhook = models.ForeignKey(Webhook, models.CASCADE, related_name="deliveries")
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    event = models.CharField(_("event"), max_length=40)
    tournament = models.ForeignKey("championships.Tournament", models.CASCADE, null=True, blank=True,
                                   related_name="+")
    body = models.TextField()
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(_("response code"), null=True, blank=True)
    response_body = models.CharField(_("response"), max_length=2048, blank=True)

    class Meta(BackgroundJob.Meta):
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_status_due"),
                   models.Index(fields=["webhook", "-created_at"], name="delivery_webhook_recent")]

    def quiet_limit(self) -> timedelta:
        """A delivery waiting for its retry is not lost until well after the retry was due."""
        if self.status == self.Status.QUEUED and self.next_attempt_at:
            return self.stalled_after + max(self.next_attempt_at - self.updated_at, timedelta(0))
        return self.stalled_after
