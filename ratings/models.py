"""Ratings across events (each player's current rating and its history, game by game) and season rankings.

The history is kept per rated table, in the one fixed order (`RatedTable.key`), so that a correction of an old
game recomputes from that game on: what came before it stays as it is (`ratings.services`).
"""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from championships.models import Championship, Player, Tournament
from core.personal_data import holds, not_personal
from core.text import NameField, no_hidden_characters

KEY_LENGTH = 40
"""A table's place in the order as text that sorts as the order does (`ratings.games.table_key`)."""


@holds(about="player", why="the player's rating across events")
class PlayerRating(models.Model):
    """A player's rating after every rated game so far: mu, sigma and the ordinal lists rank by (mu − 3σ)."""

    player = models.OneToOneField(Player, models.CASCADE, primary_key=True, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["-ordinal", "player_id"]
        constraints = [models.CheckConstraint(condition=Q(games__gte=1) & Q(sigma__gt=0), name="rating_has_games")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f}"


class RatedTable(models.Model):
    """A signed-off table as the ratings took it in: its place in the order and its result, so that the next update
    sees what changed (a correction, a new date, a tournament no longer running)."""

    key = models.CharField(max_length=KEY_LENGTH, unique=True)
    tournament = models.ForeignKey(Tournament, models.DO_NOTHING, db_constraint=False, related_name="+")
    """Not cascaded: when a tournament is deleted, its rows stay until the update that follows has read the ratings
    its games gave (the players' ratings before them), then replays without them (`ratings.services`)."""
    game_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=200)
    """"player:place" pairs in player order (`ratings.games.result_text`)."""

    class Meta:
        ordering = ["key"]
        indexes = [models.Index(fields=["tournament", "key"], name="rated_table_tournament")]

    def __str__(self) -> str:
        return self.key


@holds(about="player", why="each rated table's change to the player's rating")
class RatingChange(models.Model):
    """One player's rating before and after one rated table."""

    table = models.ForeignKey(RatedTable, models.DO_NOTHING, to_field="key", db_column="key", related_name="changes")
    """By the table's key (`table_id` is the key): a player's history and a replay read in order without a join, and
    the replay writes the rows without reading ids back. Deleted with their table by the replay (changes first)."""
    player = models.ForeignKey(Player, models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    games_before = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["table_id", "player_id"]
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="rating_change_once_per_table")]
        indexes = [models.Index(fields=["player", "table"], name="rating_change_player_key")]

    def __str__(self) -> str:
        return f"{self.table_id} · {self.player_id}"


class RatingRequest(models.Model):
    """Work for the background update: a tournament whose signed-off tables may have changed. Kept in the database,
    so that a burst of sign-offs is one update and a job that was lost is made up by the next one."""

    tournament_id = models.PositiveBigIntegerField()
    """Not unique: each change adds a row, and the update deletes only the rows it read (one added meanwhile
    stays for the next update)."""

    def __str__(self) -> str:
        return f"tournament {self.tournament_id}"


class RatingState(models.Model):
    """One row: the update's lock (one runner at a time) and when the ratings last changed."""

    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings updated {self.updated_at or 'never'}"


@not_personal("a season's points per place and tiebreaks")
class Season(models.Model):
    """An organizer's season over several of their championships: points per place in each event (a table per kind
    of event) and the tiebreaks they chose (`ratings.seasons`)."""

    name = NameField(_("name"), max_length=200)
    championships = models.ManyToManyField(Championship, related_name="seasons", verbose_name=_("championships"))
    points = models.JSONField(_("points per place"), default=dict)
    """Tournament kind → points for places 1, 2, 3, … (places further down score nothing)."""
    tiebreaks = models.JSONField(_("tiebreaks"), default=list)
    """Keys of `ratings.seasons.TIEBREAKS`, in the order they apply."""
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(default=0)
    """Bumped by every change: a form based on an older version is refused rather than overwriting."""

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [no_hidden_characters("name", "season_name_visible")]

    def __str__(self) -> str:
        return self.name
