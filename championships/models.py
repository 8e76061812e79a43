"""Who plays and in which event: players, championships, tournaments, stages, entries, staff."""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Length, Upper
from django.db.models.lookups import Exact, LessThanOrEqual
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from core.names import FOLD_MAX, SORT_KEY_MAX, fold, sort_key
from core.personal_data import BLANK, PSEUDONYM, holds, not_personal
from core.text import NameField, no_hidden_characters
from engines.rulesets import RULESETS

RULESET_CHOICES = [(ruleset.key, _(ruleset.name)) for ruleset in RULESETS.values()]
"""Read from the one ruleset registry; the names are translated in the catalogs."""

FRIENDS_MAX = 1000
"""The most a registration's friends-or-family list may hold (a few names, one a line)."""

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


class Country(models.Model):
    """A country by its ISO 3166 code. `name` is stored in English (search, backups); pages show `local_name`."""

    code = models.CharField(_("ISO code"), max_length=2, unique=True)
    name = NameField(_("name"), max_length=100)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = _("countries")
        constraints = [
            no_hidden_characters("name", "country_name_visible"),
            models.CheckConstraint(condition=Q(code__regex=r"^[A-Z]{2}$"), name="country_code_two_capitals"),
        ]

    def __str__(self) -> str:
        return self.local_name

    @property
    def local_name(self) -> str:
        """The name in the active language (django-countries' translations), else the stored English one."""
        return str(countries.name(self.code)) or self.name


class PlayerQuerySet(models.QuerySet):
    """Bulk writes keep each player's search name and sort key (`Player.name_keys`) in step with the name."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for player in objs:
            player.name_keys()
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs, fields = list(objs), list(fields)
        if "name" in fields:
            for player in objs:
                player.name_keys()
            fields += [f for f in NAME_KEYS if f not in fields]
        return super().bulk_update(objs, fields, *args, **kwargs)

    def update(self, **kwargs):
        if "name" in kwargs and not set(NAME_KEYS) <= kwargs.keys():  # bulk_update sets all three
            if not isinstance(kwargs["name"], str):
                raise TypeError("A player's name is set to a text, so that its search name and sort key follow.")
            kwargs.update(search_name=fold(kwargs["name"]), sort_key=sort_key(kwargs["name"]))
        return super().update(**kwargs)


NAME_KEYS = ("search_name", "sort_key")
"""Player fields derived from the name (core/names.py)."""


@holds(about="pk", why="the player's record: name in every list, email to write to them, date of birth for age limits",
       erase={"name": PSEUDONYM, "email": BLANK, "date_of_birth": BLANK, "user": BLANK},
       hidden=("search_name", "sort_key"))
class Player(models.Model):
    name = NameField(_("name"), max_length=200)
    search_name = models.CharField(max_length=FOLD_MAX, db_index=True, editable=False, default="")
    """The name as every search compares it (`core.names.fold`), kept by the model and its queryset."""
    sort_key = models.BinaryField(max_length=SORT_KEY_MAX, db_index=True, editable=False, default=b"")
    """The name's collation key (`core.names.sort_key`): every list by name orders by it."""
    email = models.EmailField(_("email"), blank=True)
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    country = models.ForeignKey(Country, models.PROTECT, null=True, blank=True, verbose_name=_("country"))
    media_opt_out = models.BooleanField(
        _("opts out of photos and videos"), default=False,
        help_text=_("The player asked not to appear in photos or videos."),
    )
    listed = models.BooleanField(
        _("listed in the public ratings"), default=True,
        help_text=_("Unticked when the player asked not to appear in the public ratings across events "
                    "(/ratings/); their results still count in each tournament's standings."),
    )
    language = models.CharField(
        _("language for emails"), max_length=7, blank=True,
        help_text=_("The language the player registered in; the site's own when empty."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="player",
        help_text=_("The staff account of this person, if any: staff may not play where they officiate."),
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["sort_key", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["email"], condition=~Q(email=""), name="player_email_unique_when_given",
            ),
            no_hidden_characters("name", "player_name_visible"),
        ]

    def __str__(self) -> str:
        return self.name

    def name_keys(self) -> None:
        """Derive the search name and sort key from the name."""
        self.search_name, self.sort_key = fold(self.name), sort_key(self.name)

    def save_base(self, *args, **kwargs):
        """Every save derives them: `save()` and `create()` come here, and so do the raw saves of a backup's
        restore and of loaddata, whose files may lack them or carry others. Bulk writes: PlayerQuerySet."""
        self.name_keys()
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], *NAME_KEYS}
        return super().save_base(*args, **kwargs)


@holds(rows=lambda player: Relationship.objects.filter(Q(player_a=player.pk) | Q(player_b=player.pk)).order_by("pk"),
       why="a declared friend or family pair, kept apart at the tables")
class Relationship(models.Model):
    """A declared friend or family pair; stored once, with the lower player id first."""

    class Kind(models.TextChoices):
        FRIEND = "friend", _("friend")
        FAMILY = "family", _("family")

    player_a = models.ForeignKey(Player, models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.FRIEND)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(player_a__lt=F("player_b")), name="relationship_ordered_pair"),
            models.UniqueConstraint(fields=["player_a", "player_b"], name="relationship_once_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} – {self.player_b} ({self.get_kind_display()})"


@holds(rows=lambda player: Declaration.objects.filter(
    Q(relationship__player_a=player.pk) | Q(relationship__player_b=player.pk)).order_by("pk"),
    why="who declared a pair")
class Declaration(models.Model):
    """A championship's declaration of a pair (a tournament's, outside any championship): only its organizers remove it.

    Seating keeps a pair apart wherever both players are entered, whoever declared it (docs/rules.md);
    the pair itself goes when its last declaration is removed.
    """

    relationship = models.ForeignKey(Relationship, models.CASCADE, related_name="declarations")
    championship = models.ForeignKey("Championship", models.CASCADE, null=True, blank=True, related_name="+")
    tournament = models.ForeignKey("Tournament", models.CASCADE, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(championship__isnull=False, tournament__isnull=True)
                           | Q(championship__isnull=True, tournament__isnull=False)),
                name="declaration_one_scope",
            ),
            models.UniqueConstraint(fields=["relationship", "championship"], name="declaration_once_per_championship"),
            models.UniqueConstraint(fields=["relationship", "tournament"], name="declaration_once_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.relationship} · {self.championship_id or self.tournament_id}"


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


@holds(about="player", delete=True, why="the private link's digest, to open the player's own page",
       hidden=("digest", "secret"))
class PlayerLink(models.Model):
    """One private link of a player (`/me/<token>/`, championships/links.py). Only a digest of its token is stored,
    so a copy of the database opens nobody's page. The link emails carry is made once per player from `secret` and
    the site's `SECRET_KEY`, so every email sends the same one; the organizer's rotation removes them all."""

    player = models.ForeignKey(Player, models.CASCADE, related_name="links")
    digest = models.CharField(max_length=64, unique=True)
    secret = models.CharField(max_length=64, blank=True, default="")
    """What the token is derived from, with `SECRET_KEY` (`links.issue`): the link emails carry. Empty for a link
    that still opens the page but is never sent again (made before, or under an older `SECRET_KEY`)."""
    created_at = models.DateTimeField(auto_now_add=True)
    shown_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, null=True, blank=True, related_name="+",
        help_text=_("The organizer this link was shown to, to hand over to a player without email: it acts only in "
                    "the tournaments they organize. Empty for a link emailed to the player."),
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint("player", condition=~Q(secret=""), name="player_link_one_sent")]

    def __str__(self) -> str:
        return f"{self.player} · {self.created_at:%Y-%m-%d %H:%M}"


@holds(about="player", delete=True, why="a browser the player asked to be notified on", hidden=("p256dh", "auth"))
class PushSubscription(models.Model):
    """One browser that asked, from the player's private page, to be told when their table is published (Web Push,
    championships/push.py). The endpoint is the push service's address for that browser; the two keys encrypt
    what is sent to it, so only that browser reads it. A push service that answers "gone" removes the row."""

    ENDPOINT_MAX = 1000
    player = models.ForeignKey(Player, models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=ENDPOINT_MAX, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    last_error = models.CharField(max_length=200, blank=True)
    """Why the last sending failed ("" once one went through): a status and a reason, never the message."""

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.player} · {self.created_at:%Y-%m-%d %H:%M}"


@holds(rows=lambda player: Registration.objects.filter(
    Q(player=player.pk) | (Q(player=None, email__iexact=player.email) if player.email else Q(pk__in=[]))
).order_by("pk"), erase={"name": PSEUDONYM, "email": lambda row: f"registration-{row.pk}@erased.invalid",
                         "date_of_birth": BLANK, "city": BLANK, "friends": BLANK,
                         "confirm_digest": lambda row: f"erased-{row.pk}"}, hidden=("confirm_digest",),
    why="the details the player typed to register, as typed")
class Registration(models.Model):
    """A player's own registration for a tournament (championships/signup.py): typed on the tournament's page,
    confirmed by the emailed link, then entered, waiting for a place, awaiting the organizer, refused or cancelled.

    The details are kept as typed; the player record they become is linked on confirmation (an existing one by its
    email, unchanged but for details it lacks)."""

    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("email not confirmed")
        PENDING = "pending", _("awaiting approval")
        WAITING = "waiting", _("on the waiting list")
        ENTERED = "entered", _("entered")
        REFUSED = "refused", _("refused")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, models.PROTECT, null=True, blank=True, related_name="registrations")
    entry = models.OneToOneField(Entry, models.SET_NULL, null=True, blank=True, related_name="registration")
    name = NameField(_("name"), max_length=200)
    email = models.EmailField(_("email"))
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    country = models.ForeignKey(Country, models.PROTECT, null=True, blank=True, verbose_name=_("country"))
    city = NameField(_("city"), max_length=100, blank=True)
    friends = models.TextField(_("friends or family playing"), blank=True)
    media_opt_out = models.BooleanField(_("opts out of photos and videos"), default=False)
    language = models.CharField(_("language"), max_length=7, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.UNCONFIRMED)
    confirm_digest = models.CharField(max_length=64, unique=True)
    """The digest of the emailed confirmation token (the token itself is never stored)."""
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    """Also the waiting list's order."""
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    privacy_notice = models.ForeignKey(
        "PrivacyNotice", models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("privacy notice accepted"),
        help_text=_("The version of the championship's privacy notice the player accepted when registering."))

    class Meta:
        ordering = ["tournament", "confirmed_at", "pk"]
        constraints = [
            # by the one normalisation every match of a typed email uses (core/emails.py)
            models.UniqueConstraint(Upper("email"), "tournament", condition=~Q(status__in=["refused", "cancelled"]),
                                    name="registration_once_per_email_upper"),
            models.CheckConstraint(condition=Q(confirmed_at__isnull=False) | Q(status__in=["unconfirmed", "refused",
                                                                                          "cancelled"]),
                                   name="registration_confirmed_before_decided"),
            models.CheckConstraint(condition=~Q(status__in=["pending", "waiting", "entered"]) | Q(player__isnull=False),
                                   name="registration_confirmed_has_player"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("friends"), FRIENDS_MAX),
                                   name="registration_friends_length"),
            no_hidden_characters("name", "registration_name_visible"),
            no_hidden_characters("city", "registration_city_visible"),
        ]

    def __str__(self) -> str:
        return f"{self.name} · {self.tournament} · {self.get_status_display()}"


class PrivacyNotice(models.Model):
    """One version of a championship's privacy notice (championships/privacy_notice.py): what is kept about its
    players, why and for how long. Never changed: a change is a new version, so each registration says which text
    the player accepted."""

    TEXT_MAX = 20000
    championship = models.ForeignKey(Championship, models.CASCADE, related_name="privacy_notices")
    version = models.PositiveIntegerField(_("version"))
    text = models.TextField(_("text"))
    created_at = models.DateTimeField(_("written at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["championship", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "version"], name="privacy_notice_version_once"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("text"), 20000), name="privacy_notice_length"),
            models.CheckConstraint(condition=~Q(text=""), name="privacy_notice_has_text"),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · v{self.version}"
