"""Organizers' keys to API v1's writes, one championship each."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.personal_data import not_personal


@not_personal("an organizer's API token, not a player's")
class ApiToken(models.Model):
    """An organizer's key to API v1's writes (web/api/organizer.py), for one championship: entering and importing
    players, reading results. Only its SHA-256 digest is stored (`championships.links.digest`), so a copy of the
    database opens nothing; it acts as its owner, who must still organize the championship, and it is revoked,
    never deleted, so the activity log keeps naming it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens")
    championship = models.ForeignKey("championships.Championship", models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100, help_text=_("What it is for, e.g. the federation's website."))
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=8, help_text="The token's first characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="api_token_named")]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"
