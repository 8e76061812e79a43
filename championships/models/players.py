"""Who plays: players, their countries, and the friend or family pairs kept apart at the tables."""
from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from core.names import FOLD_MAX, SORT_KEY_MAX, fold, sort_key
from core.personal_data import BLANK, PSEUDONYM, holds
from core.text import NameField, no_hidden_characters


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
