"""Which event: championships, their tournaments and each tournament's stages."""
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Case, F, Q, Value, When
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from core.personal_data import not_personal
from core.text import NameField, no_hidden_characters
from engines.rulesets import RULESETS

from .players import Country

RULESET_CHOICES = [(ruleset.key, _(ruleset.name)) for ruleset in RULESETS.values()]
"""Read from the one ruleset registry; the names are translated in the catalogs."""

RESERVED_SLUGS = frozenset({"new", "championships", "seasons"})
"""Words the organizer's URLs use next to slugs (`/organize/new/`, `/organize/championships/…`,
`/organize/seasons/…`): no slug may be one."""


TOURNAMENT_ORDER = (F("date").asc(nulls_last=True),
                    Case(When(Exact(F("kind"), "qualifier"), then=Value(0)), default=Value(1)).asc(), "pk")
"""Tournaments in the order they happen: by date, undated last; on one day the qualifiers before the event they lead
to, then as created (a trial run with one date listed the finals between the qualifiers, by name). The models'
default ordering, so lists need no `order_by`; latest first is its `.reverse()`."""


def validate_not_reserved(slug: str) -> None:
    if slug in RESERVED_SLUGS:
        raise ValidationError(_("“%(slug)s” is reserved for the site's own pages: choose another.") % {"slug": slug})


@not_personal("the championship's board limits")
class Championship(models.Model):
    class Scope(models.TextChoices):
        COUNTRY = "country", _("national")
        WORLD = "world", _("world")
        CLUB = "club", _("club series")

    name = NameField(_("name"), max_length=200)
    slug = models.SlugField(_("short name in addresses"), unique=True, validators=[validate_not_reserved])
    scope = models.CharField(_("scope"), max_length=10, choices=Scope.choices, default=Scope.COUNTRY)
    country = models.ForeignKey(Country, models.PROTECT, null=True, blank=True, verbose_name=_("country"))
    year = models.PositiveSmallIntegerField(_("year"))
    age_cutoff = models.DateField(
        _("minimum-age cut-off date"), null=True, blank=True,
        help_text=_("Players must have reached the minimum age on this date."),
    )
    minimum_age = models.PositiveSmallIntegerField(_("minimum age"), default=18)
    preset = models.CharField(
        _("format preset"), max_length=40, blank=True, editable=False,
        help_text=_("The preset it was created from, if any; presets create tournaments only at /organize/new/."),
    )
    board_limits = models.JSONField(
        _("board fairness limits"), default=list, blank=True,
        help_text=_("Keys of engines.boards.fairness.LIMITS every random board of the championship keeps."),
    )

    class Meta:
        ordering = ["-year", "name"]
        constraints = [
            models.CheckConstraint(condition=~Q(slug="") & ~Q(slug__in=sorted(RESERVED_SLUGS)),
                                   name="championship_slug_given"),
            models.CheckConstraint(
                condition=~Q(scope="country") | Q(country__isnull=False), name="national_championship_has_country",
            ),
            no_hidden_characters("name", "championship_name_visible"),
        ]

    def __str__(self) -> str:
        return self.name


@not_personal("the venue's city, not a player's")
class Tournament(models.Model):
    class Kind(models.TextChoices):
        QUALIFIER = "qualifier", _("qualifier")
        FINALS = "finals", _("championship finals")
        WORLD = "world", _("world championship")
        CLUB = "club", _("club tournament")

    class Status(models.TextChoices):
        DRAFT = "draft", _("in preparation")
        REGISTRATION = "registration", _("registration open")
        RUNNING = "running", _("in progress")
        FINISHED = "finished", _("finished")

    championship = models.ForeignKey(
        Championship, models.CASCADE, null=True, blank=True, related_name="tournaments",
        verbose_name=_("championship"),
    )
    name = NameField(_("name"), max_length=200)
    slug = models.SlugField(_("short name in addresses"), unique=True, validators=[validate_not_reserved])
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    city = NameField(_("city"), max_length=100, blank=True)
    venue = NameField(_("venue"), max_length=200, blank=True)
    date = models.DateField(_("date"), null=True, blank=True)
    official_start = models.TimeField(
        _("official start time"), null=True, blank=True,
        help_text=_("Told to players the day before; lateness is counted from it."),
    )
    ruleset = models.CharField(_("ruleset"), max_length=20, choices=RULESET_CHOICES)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT)
    advance_count = models.PositiveSmallIntegerField(
        _("players who advance"), default=0,
        help_text=_("How many players this tournament sends on (a qualifier's top N)."),
    )
    capacity = models.PositiveIntegerField(
        _("number of places"), null=True, blank=True, help_text=_("Empty for open entry."),
    )
    self_registration = models.BooleanField(
        _("players register themselves"), default=False,
        help_text=_("Players register on the tournament's page and confirm by email (championships/signup.py)."),
    )
    registration_closes = models.DateTimeField(_("registration closes at"), null=True, blank=True)
    registration_approval = models.BooleanField(
        _("the organizer approves each registration"), default=False,
        help_text=_("Otherwise a confirmed registration takes a free place at once."),
    )
    embed_origins = models.CharField(
        _("websites that may show the embed"), max_length=1000, blank=True, editable=False,
        help_text=_("The websites, one per line, allowed to show the tournament's embed in a frame."),
    )

    class Meta:
        ordering = TOURNAMENT_ORDER
        constraints = [
            models.CheckConstraint(condition=~Q(slug="") & ~Q(slug__in=sorted(RESERVED_SLUGS)),
                                   name="tournament_slug_given"),
            models.CheckConstraint(condition=~Q(ruleset=""), name="tournament_ruleset_given"),
            models.CheckConstraint(
                condition=Q(kind="club") | Q(championship__isnull=False), name="tournament_in_championship",
            ),
            no_hidden_characters("name", "tournament_name_visible"),
            no_hidden_characters("city", "tournament_city_visible"),
            no_hidden_characters("venue", "tournament_venue_visible"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def crowns_champion(self) -> bool:
        """Its winner is a champion: every event but a qualifier, whose top places only go on (RULES §1)."""
        return self.kind != self.Kind.QUALIFIER


class Stage(models.Model):
    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", _("preliminary")
        SEMIFINAL = "semifinal", _("semifinal")
        FINAL = "final", _("final")

    class Seating(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled (generated)")
        SEEDED = "seeded", _("seeded by rank")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    name = NameField(_("name"), max_length=100)
    games = models.PositiveSmallIntegerField(_("number of games"))
    seating = models.CharField(_("seating"), max_length=10, choices=Seating.choices)
    players = models.PositiveSmallIntegerField(
        _("players"), null=True, blank=True,
        help_text=_("How many top-ranked players take part; empty for everyone entered."),
    )
    boards_per_table = models.BooleanField(
        _("a different board at each table"), default=False,
        help_text=_("Each table of the stage's games gets its own board (Lord of Catan semifinals); "
                    "otherwise every table of a game plays the same board."),
    )

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
            models.CheckConstraint(condition=Q(games__gte=1), name="stage_has_games"),
            models.CheckConstraint(
                condition=Q(players__isnull=True) | Q(players__gte=3), name="stage_players_at_least_three",
            ),
            no_hidden_characters("name", "stage_name_visible"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.name}"
