"""Who is here: the windows in which players check themselves in."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class CheckInWindow(models.Model):
    """A time box in which players check themselves in by the QR code the desk or the projector shows
    (attendance/self_checkin.py, `self_check_in`). Each window has its own random code, so a photo of the code sent home
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
