"""The organizer's print jobs (a whole game's record sheets or table cards laid out in the background), start-time
notices, check-in windows, API tokens, and the emails that could not be sent."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.jobs import BackgroundJob
from core.personal_data import BLANK, holds, not_personal
from scheduling.models import Game


class PrintJob(BackgroundJob):
    """One batch PDF, laid out outside the request (`core.jobs`); its state and, once done, the file itself live in
    this row.

    The PDF is kept in the database, not under MEDIA_ROOT: the Celery worker and the web processes need not
    share a disk, and a backup of the database holds it too (a 50-table game's sheets are a few hundred KB).
    """

    class Kind(models.TextChoices):
        RECORD_SHEETS = "record_sheets", _("record sheets")
        TABLE_CARDS = "table_cards", _("table cards")

    game = models.ForeignKey(Game, models.CASCADE, related_name="print_jobs")
    kind = models.CharField(_("document"), max_length=16, choices=Kind.choices)
    paper = models.CharField(max_length=8, default="a4")
    pdf = models.BinaryField(null=True, blank=True, editable=False)

    class Meta(BackgroundJob.Meta):
        indexes = [models.Index(fields=["game", "kind", "status"], name="print_job_game_kind_status")]
        constraints = [
            models.CheckConstraint(condition=Q(done__gte=0, done__lte=1), name="print_job_done_share"),
            models.CheckConstraint(condition=Q(kind__in=["record_sheets", "table_cards"]), name="print_job_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.get_kind_display()} · {self.get_status_display()}"


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


class CheckInWindow(models.Model):
    """A time box in which players check themselves in by the QR code the desk or the projector shows
    (organize/checkin.py, `self_check_in`). Each window has its own random code, so a photo of the code sent home
    stops working when the window ends; opening a new one ends the one before."""

    tournament = models.ForeignKey("championships.Tournament", models.CASCADE, related_name="check_in_windows")
    code = models.CharField(max_length=32, unique=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    opened_at = models.DateTimeField(auto_now_add=True)
    closes_at = models.DateTimeField(_("closes at"))
    closed_at = models.DateTimeField(_("closed early at"), null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.opened_at:%H:%M}–{self.closes_at:%H:%M}"


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


@holds(rows=lambda player: UndeliveredEmail.objects.filter(to__iexact=player.email).order_by("pk")
       if player.email else UndeliveredEmail.objects.none(), delete=True,
       why="an email to the player the site could not send", hidden=("message",))
class UndeliveredEmail(models.Model):
    """An email the site gave up on (core.mail: after its retries), shown to the organizers of the tournament or the
    championship it concerns (organize/undelivered.py): who it was to, what it was, why it failed. The same email
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
