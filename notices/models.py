"""The emails the site keeps a record of: each start-time notice sent, and each email it could not send."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.personal_data import BLANK, holds


@holds(about="entry__player", erase={"email": BLANK}, why="the start-time email sent to the player")
class StartTimeNotice(models.Model):
    """One email telling a participant the official start time (seed 001 §6: one day before). A row per entry and
    announced start: the same start is never sent twice, a moved start is sent again."""

    entry = models.ForeignKey("championships.Entry", models.CASCADE, related_name="start_time_notices")
    email = models.EmailField(_("sent to"), max_length=254)
    start = models.DateTimeField(_("official start announced"))
    moved = models.BooleanField(_("the start had moved"), default=False)
    sent_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        ordering = ["-sent_at"]
        constraints = [models.UniqueConstraint(fields=["entry", "start"], name="start_notice_once_per_start")]

    def __str__(self) -> str:
        return f"{self.entry} · {self.start:%Y-%m-%d %H:%M}"


@holds(rows=lambda player: UndeliveredEmail.objects.filter(to__iexact=player.email).order_by("pk")
       if player.email else UndeliveredEmail.objects.none(), delete=True,
       why="an email to the player the site could not send", hidden=("message",))
class UndeliveredEmail(models.Model):
    """An email the site gave up on (core.mail: after its retries), shown to the organizers of the tournament or the
    championship it concerns (notices/undelivered.py): who it was to, what it was, why it failed. The same email
    failing again (a notice tried on each run) adds to `failures` rather than a row. The message itself is kept
    sealed (core.sealed: it may hold a private link) until it is sent again."""

    tournament = models.ForeignKey("championships.Tournament", models.CASCADE, null=True, blank=True,
                                   related_name="undelivered_emails")
    championship = models.ForeignKey("championships.Championship", models.CASCADE, null=True, blank=True,
                                     related_name="undelivered_emails")
    """Set only when `tournament` is empty: an email about the championship as a whole (a webhook turned off)."""
    to = models.EmailField(_("to"), max_length=254)
    subject = models.CharField(_("subject"), max_length=300)
    reason = models.CharField(_("why it failed"), max_length=500)
    failed_at = models.DateTimeField(_("failed at"))
    failures = models.PositiveIntegerField(default=1)
    message = models.TextField(blank=True, editable=False)
    """The whole message, sealed; emptied once it is sent again."""
    sent_again_at = models.DateTimeField(_("sent again at"), null=True, blank=True)
    sent_again_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True,
                                      related_name="+")

    class Meta:
        ordering = ["-failed_at", "-pk"]
        indexes = [models.Index(fields=["tournament", "-failed_at"], name="undelivered_tournament_idx"),
                   models.Index(fields=["championship", "-failed_at"], name="undelivered_championship_idx")]
        constraints = [models.CheckConstraint(
            condition=Q(tournament__isnull=False, championship__isnull=True)
            | Q(tournament__isnull=True, championship__isnull=False), name="undelivered_about_one_event")]

    def __str__(self) -> str:
        return f"{self.failed_at:%Y-%m-%d %H:%M} · {self.subject}"
