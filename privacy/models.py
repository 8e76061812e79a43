"""What the privacy app keeps: that a player was erased (and when), never what was erased."""
from django.db import models
from django.utils.translation import gettext_lazy as _


class Erasure(models.Model):
    """A player's personal data erased (privacy/erasure.py). Kept so a tournament file exported before it does not
    bring the player back (`import_tournament` applies the erasures recorded since the file was written): it holds
    the player's id and the time, nothing personal."""

    class By(models.TextChoices):
        PLAYER = "player", _("the player, from their own page")
        ORGANIZER = "organizer", _("an organizer, on the player's written request")
        RETENTION = "retention", _("the retention period")

    player_id = models.PositiveBigIntegerField(_("player id"), unique=True)
    """The player's id when erased (their pseudonym's number); no key, so a restore from an empty database still
    finds it."""
    at = models.DateTimeField(_("erased at"), auto_now_add=True)
    by = models.CharField(_("asked by"), max_length=10, choices=By.choices)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"player {self.player_id} · {self.at:%Y-%m-%d %H:%M}"


class RetentionNotice(models.Model):
    """The organizers of a player's tournaments were told that the player's personal data is erased a month later
    for want of a tournament (privacy/retention.py); a new entry meanwhile makes the notice void."""

    player_id = models.PositiveBigIntegerField(unique=True)
    notified_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"player {self.player_id} · told {self.notified_at:%Y-%m-%d}"
