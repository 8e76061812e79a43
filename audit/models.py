"""The one audit trail: who changed what, when, what it was before and after, and why."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.personal_data import SCRUB, holds


def about_player(player):
    """The entries a player made from their phone, and those about their record, entries and registrations."""
    about = Q(player=player.pk) | Q(object_type="player", object_id=player.pk)
    for object_type, rows in (("entry", player.entries.all()), ("registration", player.registrations.all())):
        about |= Q(object_type=object_type, object_id__in=rows.values("pk"))
    return AuditEntry.objects.filter(about).order_by("pk")


@holds(rows=about_player, erase={"before": SCRUB, "after": SCRUB, "reason": SCRUB},
       why="the activity log's entries about the player: who changed what, when")
class AuditEntry(models.Model):
    """One change made by an organizer, a referee or an admin user; never edited, never deleted.

    `action` is the value of a member of `audit.actions.Action` and reads "<kind>.<what>" (sheet.signed_off,
    seating.swapped, entry.checked_in, admin.changed…), so the activity log filters by kind. The tournament is
    empty for changes that belong to no one tournament (a player's record, a championship); those of a championship
    (its webhooks, API tokens, organizers, board limits) name it in `championship`, for its own activity log.
    """

    tournament = models.ForeignKey("championships.Tournament", models.CASCADE, null=True, blank=True,
                                   related_name="audit_entries")
    championship = models.ForeignKey("championships.Championship", models.CASCADE, null=True, blank=True,
                                     related_name="+")
    """Set only when `tournament` is empty: the championship the change belongs to as a whole."""
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+")
    player = models.ForeignKey("championships.Player", models.SET_NULL, null=True, blank=True, related_name="+")
    """Who acted when it was a player from their own phone (no account): then `user` is empty. Neither: a visitor
    (a registration not confirmed yet)."""
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(_("action"), max_length=40)
    object_type = models.CharField(max_length=40)
    object_id = models.PositiveBigIntegerField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx"),
                   models.Index(fields=["championship", "-at"], name="audit_championship_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user} {self.action} {self.object_type}#{self.object_id}"

    @property
    def who(self) -> str:
        """The account's username, else the name of the player who acted from their phone; "" for a visitor."""
        if self.user is not None:
            return self.user.get_username()
        return self.player.name if self.player is not None else ""

    @property
    def kind(self) -> str:
        return self.action.partition(".")[0]
