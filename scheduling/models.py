"""When and where: games of a stage, their tables and the play-order seats."""
from datetime import timedelta

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from championships.models import Entry, Stage, Tournament
from core.jobs import BackgroundJob
from core.personal_data import holds


class Game(models.Model):
    """One round of a stage; `number` counts through the tournament's stages from 1."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        PUBLISHED = "published", _("seating published")
        FINISHED = "finished", pgettext_lazy("game", "finished")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="games")
    stage = models.ForeignKey(Stage, models.CASCADE, related_name="game_set")
    number = models.PositiveSmallIntegerField(_("game number"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    board_code = models.CharField(_("board"), max_length=120, blank=True)
    study_seconds = models.PositiveIntegerField(_("map study time (seconds)"), null=True, blank=True)
    """The map-study countdown (seed 004 §1.1.7): its length once started; empty while it was never started."""
    study_ends_at = models.DateTimeField(_("map study ends at"), null=True, blank=True)
    """While the countdown runs: when it reaches zero (every screen counts down to this server time)."""
    study_paused_remaining = models.PositiveIntegerField(_("map study left when paused (seconds)"), null=True,
                                                         blank=True)
    study_stopped_at = models.DateTimeField(_("map study ended early at"), null=True, blank=True)
    """All players agreed to end the study early (or the announcer stopped it)."""

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        game = _("game")  # outside the f-string, where makemessages finds it
        return f"{self.tournament} · {game} {self.number}"


class Table(models.Model):
    game = models.ForeignKey(Game, models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table number"))
    board_code = models.CharField(_("board"), max_length=120, blank=True)
    """Only in a stage that gives each table its own board; otherwise the table plays the game's board."""
    turn_seconds = models.PositiveSmallIntegerField(_("timed turns (seconds a turn)"), null=True, blank=True)
    """Set while a referee imposes timed turns on this table (001 §5, 004 §1.1.8); empty: no turn timer."""
    placement_seconds = models.PositiveSmallIntegerField(_("timed initial placements (seconds each)"), null=True,
                                                         blank=True)
    """Under rules that time initial placements too (004 §1.1.8), set with the timed turns; empty: not timed."""

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(condition=Q(turn_seconds__isnull=True) | Q(turn_seconds__gte=1),
                                   name="table_turn_seconds_positive"),
            models.CheckConstraint(condition=Q(placement_seconds__isnull=True)
                                   | Q(placement_seconds__gte=1, turn_seconds__isnull=False),
                                   name="table_placements_timed_with_turns"),
        ]

    def __str__(self) -> str:
        table = _("table")  # outside the f-string, where makemessages finds it
        return f"{self.game} · {table} {self.number}"


@holds(about="entry__player", why="where the player sat")
class Seat(models.Model):
    """A player at a table; `game` repeats table.game so the database can refuse a double seat."""

    table = models.ForeignKey(Table, models.CASCADE, related_name="seats")
    game = models.ForeignKey(Game, models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("play-order position"))
    seed = models.PositiveSmallIntegerField(
        _("seed"), null=True, blank=True,
        help_text=_("Seated by rank: the player's seed in the stage (1 = best ranked); empty in scheduled games."),
    )
    """Fixed when a seeded stage is seated; it stays with the player when the play order is recorded."""

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="seat_once_per_game"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "seed"], name="seat_seed_unique"),
            models.CheckConstraint(condition=Q(position__gte=1, position__lte=4), name="seat_position_range"),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1), name="seat_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.position}: {self.entry.player}"


class PlanningJob(BackgroundJob):
    """One request to plan a stage's seating, run in the background (`core.jobs`); a failed job keeps its error
    until it is run again."""

    stage = models.ForeignKey(Stage, models.CASCADE, related_name="planning_jobs")
    seed = models.PositiveIntegerField(_("seed"))
    players = models.PositiveIntegerField(_("players"))
    estimate_seconds = models.FloatField(_("expected duration (seconds)"))

    stalled_after = timedelta(minutes=2)

    class Meta(BackgroundJob.Meta):
        indexes = [models.Index(fields=["stage", "status"], name="planning_job_stage_status")]
        constraints = [
            models.CheckConstraint(condition=Q(done__gte=0, done__lte=1), name="planning_job_done_share"),
        ]

    def __str__(self) -> str:
        return f"{self.stage} · {self.get_status_display()}"

    def quiet_limit(self) -> timedelta:
        """Two minutes, or twice the expected duration of a long job."""
        return max(self.stalled_after, timedelta(seconds=2 * self.estimate_seconds))
