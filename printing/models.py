"""Print jobs: a whole game's record sheets or table cards laid out in the background (printing/jobs.py)."""
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.jobs import BackgroundJob
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
