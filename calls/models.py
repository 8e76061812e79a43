"""A player's call for a referee at their table (issue 36): why, who placed it, who went, and the ruling."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from championships.models import Entry, Tournament
from core.personal_data import BLANK, holds
from results.models import ANNOUNCEMENT_MAX
from scheduling.models import Table

NOTE_MAX = 200
"""A player's note: a line typed on a phone at the table, not a statement."""
RULING_MAX = ANNOUNCEMENT_MAX - 50
"""A ruling can be posted as an announcement, after the game and table: with them it is never longer than one."""


@holds(about="placed_by__player", erase={"note": BLANK}, why="the player's call for a referee at their table")
class Call(models.Model):
    """Open while `resolved_at` is empty; taken while a referee is on the way (`taken_by`)."""

    class Reason(models.TextChoices):
        """The seeds' reasons to call a judge (004 §1.2.2, §1.1.8, §2.0.4, §2.0.6, §2.1.6; 001 §5)."""

        RULES = "rules", _("A rules question or dispute")
        TIMED_TURNS = "timed_turns", _("Timed turns wanted")
        CARDS = "cards", _("A judge to handle the cards")
        PIECES = "pieces", _("Missing pieces")
        STEP_AWAY = "step_away", _("A player must step away")
        DICE_LOG = "dice_log", _("Logging dice rolls")
        OTHER = "other", _("Something else")

    class PassedTo(models.TextChoices):
        HEAD_REFEREE = "head_referee", _("the head referee")
        ORGANIZER = "organizer", _("the organizer")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="calls")
    table = models.ForeignKey(Table, models.CASCADE, related_name="calls")
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=NOTE_MAX, blank=True)
    placed_by = models.ForeignKey(Entry, models.PROTECT, related_name="calls")
    placed_at = models.DateTimeField(_("called at"), auto_now_add=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True,
                                 related_name="calls_taken")
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    first_taken_at = models.DateTimeField(_("first taken at"), null=True, blank=True)
    """When a referee first went: the wait the organizer's figures count, kept when the call is passed on."""
    passed_to = models.CharField(_("passed to"), max_length=20, choices=PassedTo.choices, blank=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True,
                                    related_name="calls_resolved")
    ruling = models.CharField(_("ruling"), max_length=RULING_MAX, blank=True)

    class Meta:
        ordering = ["placed_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "reason"], condition=Q(resolved_at__isnull=True),
                                    name="call_open_once_per_table_reason"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("note"), NOTE_MAX), name="call_note_length"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("ruling"), RULING_MAX),
                                   name="call_ruling_length"),
            models.CheckConstraint(condition=Q(taken_by__isnull=True) | Q(taken_at__isnull=False),
                                   name="call_taken_with_time"),
        ]
        indexes = [models.Index(fields=["tournament", "resolved_at"], name="call_open_idx")]

    def __str__(self) -> str:
        return f"{self.table} · {self.reason}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None

    @property
    def pauses(self) -> bool:
        """The game at the table stands still from the call until it is resolved (`PAUSING`)."""
        return self.reason in PAUSING


PAUSING = frozenset({Call.Reason.RULES, Call.Reason.STEP_AWAY})
"""Calls that pause the game: "players may pause the game and call for a Judge" on a rules or conduct concern
(004 §1.2.2), and a player who must step away pauses it (004 §2.1.6). The pause lasts until the call is resolved."""
