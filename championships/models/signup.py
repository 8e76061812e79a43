"""Players registering themselves: their registrations and the privacy notice each accepted."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length, Upper
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from core.personal_data import BLANK, PSEUDONYM, holds
from core.text import NameField, no_hidden_characters

from .entries import Entry
from .events import Championship, Tournament
from .players import Country, Player

FRIENDS_MAX = 1000
"""The most a registration's friends-or-family list may hold (a few names, one a line)."""


@holds(rows=lambda player: Registration.objects.filter(
    Q(player=player.pk) | (Q(player=None, email__iexact=player.email) if player.email else Q(pk__in=[]))
).order_by("pk"), erase={"name": PSEUDONYM, "email": lambda row: f"registration-{row.pk}@erased.invalid",
                         "date_of_birth": BLANK, "city": BLANK, "friends": BLANK,
                         "confirm_digest": lambda row: f"erased-{row.pk}"}, hidden=("confirm_digest",),
    why="the details the player typed to register, as typed")
class Registration(models.Model):
    """A player's own registration for a tournament (championships/signup.py): typed on the tournament's page,
    confirmed by the emailed link, then entered, waiting for a place, awaiting the organizer, refused or cancelled.

    The details are kept as typed; the player record they become is linked on confirmation (an existing one by its
    email, unchanged but for details it lacks)."""

    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("email not confirmed")
        PENDING = "pending", _("awaiting approval")
        WAITING = "waiting", _("on the waiting list")
        ENTERED = "entered", _("entered")
        REFUSED = "refused", _("refused")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, models.PROTECT, null=True, blank=True, related_name="registrations")
    entry = models.OneToOneField(Entry, models.SET_NULL, null=True, blank=True, related_name="registration")
    name = NameField(_("name"), max_length=200)
    email = models.EmailField(_("email"))
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    country = models.ForeignKey(Country, models.PROTECT, null=True, blank=True, verbose_name=_("country"))
    city = NameField(_("city"), max_length=100, blank=True)
    friends = models.TextField(_("friends or family playing"), blank=True)
    media_opt_out = models.BooleanField(_("opts out of photos and videos"), default=False)
    language = models.CharField(_("language"), max_length=7, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.UNCONFIRMED)
    confirm_digest = models.CharField(max_length=64, unique=True)
    """The digest of the emailed confirmation token (the token itself is never stored)."""
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    """Also the waiting list's order."""
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    privacy_notice = models.ForeignKey(
        "PrivacyNotice", models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("privacy notice accepted"),
        help_text=_("The version of the championship's privacy notice the player accepted when registering."))

    class Meta:
        ordering = ["tournament", "confirmed_at", "pk"]
        constraints = [
            # by the one normalisation every match of a typed email uses (core/emails.py)
            models.UniqueConstraint(Upper("email"), "tournament", condition=~Q(status__in=["refused", "cancelled"]),
                                    name="registration_once_per_email_upper"),
            models.CheckConstraint(condition=Q(confirmed_at__isnull=False) | Q(status__in=["unconfirmed", "refused",
                                                                                          "cancelled"]),
                                   name="registration_confirmed_before_decided"),
            models.CheckConstraint(condition=~Q(status__in=["pending", "waiting", "entered"]) | Q(player__isnull=False),
                                   name="registration_confirmed_has_player"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("friends"), FRIENDS_MAX),
                                   name="registration_friends_length"),
            no_hidden_characters("name", "registration_name_visible"),
            no_hidden_characters("city", "registration_city_visible"),
        ]

    def __str__(self) -> str:
        return f"{self.name} · {self.tournament} · {self.get_status_display()}"


class PrivacyNotice(models.Model):
    """One version of a championship's privacy notice (championships/privacy_notice.py): what is kept about its
    players, why and for how long. Never changed: a change is a new version, so each registration says which text
    the player accepted."""

    TEXT_MAX = 20000
    championship = models.ForeignKey(Championship, models.CASCADE, related_name="privacy_notices")
    version = models.PositiveIntegerField(_("version"))
    text = models.TextField(_("text"))
    created_at = models.DateTimeField(_("written at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["championship", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "version"], name="privacy_notice_version_once"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("text"), 20000), name="privacy_notice_length"),
            models.CheckConstraint(condition=~Q(text=""), name="privacy_notice_has_text"),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · v{self.version}"
