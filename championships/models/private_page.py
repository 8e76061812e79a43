"""What opens and notifies a player's own page: private links and the browsers that asked for news."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.personal_data import holds

from .players import Player


@holds(about="player", delete=True, why="the private link's digest, to open the player's own page",
       hidden=("digest", "secret"))
class PlayerLink(models.Model):
    """One private link of a player (`/me/<token>/`, championships/links.py). Only a digest of its token is stored,
    so a copy of the database opens nobody's page. The link emails carry is made once per player from `secret` and
    the site's `SECRET_KEY`, so every email sends the same one; the organizer's rotation removes them all."""

    player = models.ForeignKey(Player, models.CASCADE, related_name="links")
    digest = models.CharField(max_length=64, unique=True)
    secret = models.CharField(max_length=64, blank=True, default="")
    """What the token is derived from, with `SECRET_KEY` (`links.issue`): the link emails carry. Empty for a link
    that still opens the page but is never sent again (made before, or under an older `SECRET_KEY`)."""
    created_at = models.DateTimeField(auto_now_add=True)
    shown_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, null=True, blank=True, related_name="+",
        help_text=_("The organizer this link was shown to, to hand over to a player without email: it acts only in "
                    "the tournaments they organize. Empty for a link emailed to the player."),
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint("player", condition=~Q(secret=""), name="player_link_one_sent")]

    def __str__(self) -> str:
        return f"{self.player} · {self.created_at:%Y-%m-%d %H:%M}"


@holds(about="player", delete=True, why="a browser the player asked to be notified on", hidden=("p256dh", "auth"))
class PushSubscription(models.Model):
    """One browser that asked, from the player's private page, to be told when their table is published (Web Push,
    championships/push.py). The endpoint is the push service's address for that browser; the two keys encrypt
    what is sent to it, so only that browser reads it. A push service that answers "gone" removes the row."""

    ENDPOINT_MAX = 1000
    player = models.ForeignKey(Player, models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=ENDPOINT_MAX, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    last_error = models.CharField(max_length=200, blank=True)
    """Why the last sending failed ("" once one went through): a status and a reason, never the message."""

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.player} · {self.created_at:%Y-%m-%d %H:%M}"
