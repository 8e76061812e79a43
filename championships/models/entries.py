"""Who takes part in a tournament: the players' entries, their invitations to confirm, the staff."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.personal_data import BLANK, holds

from .events import Championship, Tournament
from .players import Player


@holds(about="player", why="the player's place in a tournament: results and ranks hang on it")
class Entry(models.Model):
    """A player's place in one tournament, from registration to the end."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        NOT_ADMITTED = "not_admitted", _("not admitted")
        WITHDRAWN = "withdrawn", _("withdrawn")
        NO_SHOW = "no_show", _("did not come")
        DISQUALIFIED = "disqualified", _("disqualified")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, models.PROTECT, related_name="entries")
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    checked_in_by_self = models.BooleanField(
        _("checked in by themselves"), default=False,
        help_text=_("From the check-in QR code on the player's own phone, not at the desk."),
    )
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"), default=0)
    source_tournament = models.ForeignKey(
        Tournament, models.SET_NULL, null=True, blank=True, related_name="qualified_entries",
        verbose_name=_("qualified from"),
    )
    source_rank = models.PositiveIntegerField(_("rank in qualifier"), null=True, blank=True)
    replaces = models.OneToOneField(
        "self", models.SET_NULL, null=True, blank=True, related_name="replaced_by",
        verbose_name=_("replaces"),
    )

    class Meta:
        ordering = ["tournament", "player__name"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_tournament"),
            models.CheckConstraint(
                condition=Q(source_rank__isnull=True) | Q(source_tournament__isnull=False),
                name="entry_source_rank_needs_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES


ACTIVE_STATUSES = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
"""Entries that still play: seated in the next games, eligible to go on."""
GONE_STATUSES = (Entry.Status.WITHDRAWN, Entry.Status.NOT_ADMITTED, Entry.Status.NO_SHOW)
"""Entries that take no further part and are not ranked unless they played (disqualified ones are listed last)."""


@holds(about="entry__player", erase={"email": BLANK, "date_of_birth": BLANK},
       why="what an organizer of another championship typed to find the player")
class EntryInvitation(models.Model):
    """An entry made by an organizer who could not see the player's record (a player of another championship, found
    by what the organizer typed): until the player confirms it, the tournament's organizers see of the record only
    what they typed (championships/foreign_players.py, `permissions.personal_details`)."""

    entry = models.OneToOneField(Entry, models.CASCADE, related_name="invitation")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+")
    email = models.EmailField(_("email as typed"), blank=True)
    date_of_birth = models.DateField(_("date of birth as typed"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed by the player at"), null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.entry} · {'confirmed' if self.confirmed_at else 'awaiting the player'}"


class StaffRole(models.Model):
    """An organizer (of a tournament or a whole championship) or a referee (of a tournament)."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("organizer")
        REFEREE = "referee", _("referee")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="staff_roles")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    tournament = models.ForeignKey(Tournament, models.CASCADE, null=True, blank=True, related_name="staff")
    championship = models.ForeignKey(Championship, models.CASCADE, null=True, blank=True, related_name="staff")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(tournament__isnull=False, championship__isnull=True)
                           | Q(tournament__isnull=True, championship__isnull=False, role="organizer")),
                name="staff_role_scope",
            ),
            models.UniqueConstraint(fields=["user", "role", "tournament"], name="staff_role_once_per_tournament"),
            models.UniqueConstraint(
                fields=["user", "role", "championship"], name="staff_role_once_per_championship",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.tournament or self.championship}"
