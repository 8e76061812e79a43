from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit.admin import AuditedAdminMixin, ReadOnlyAdminMixin

from .eligibility import check_birth_date, check_can_enter, check_can_officiate
from .models import (
    ApiToken,
    Championship,
    Country,
    Declaration,
    Entry,
    EntryInvitation,
    Player,
    PlayerLink,
    PrivacyNotice,
    PushSubscription,
    Registration,
    Relationship,
    StaffRole,
    Stage,
    Tournament,
)
from .services import unique_slug


@admin.register(Country)
class CountryAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["code", "name"]
    search_fields = ["code", "name"]


class RelationshipForm(forms.ModelForm):
    """Accepts the two players in any order and stores the pair once."""

    class Meta:
        model = Relationship
        fields = ["player_a", "player_b", "kind"]

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        one, other = cleaned.get("player_a"), cleaned.get("player_b")
        if one and other:
            if one.pk == other.pk:
                raise ValidationError(_("A player cannot be declared a friend or family member of themselves."))
            if one.pk > other.pk:
                cleaned["player_a"], cleaned["player_b"] = other, one
                self.instance.player_a, self.instance.player_b = other, one
        return cleaned


def _tournaments_of(*player_ids) -> list[int]:
    return list(Entry.objects.filter(player__in=player_ids).values_list("tournament_id", flat=True).distinct())


class DeclarationInline(admin.TabularInline):
    """Which championships declared the pair: only their organizers remove their declaration in the app."""

    model = Declaration
    extra = 0
    autocomplete_fields = ["championship", "tournament"]


@admin.register(Relationship)
class RelationshipAdmin(AuditedAdminMixin, admin.ModelAdmin):
    form = RelationshipForm
    list_display = ["player_a", "player_b", "kind"]
    list_filter = ["kind"]
    search_fields = ["player_a__name", "player_b__name"]
    autocomplete_fields = ["player_a", "player_b"]
    inlines = [DeclarationInline]

    def audit_tournaments(self, obj):
        return _tournaments_of(obj.player_a_id, obj.player_b_id)


@admin.register(Declaration)
class DeclarationAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["relationship", "championship", "tournament"]
    list_filter = ["championship"]
    search_fields = ["relationship__player_a__name", "relationship__player_b__name", "championship__name"]
    autocomplete_fields = ["relationship", "championship", "tournament"]

    def audit_tournaments(self, obj):
        return _tournaments_of(obj.relationship.player_a_id, obj.relationship.player_b_id)


class EntryForm(forms.ModelForm):
    class Meta:
        model = Entry
        fields = ["tournament", "player", "status", "checked_in_at", "checked_in_by_self", "minutes_late",
                  "source_tournament", "source_rank", "replaces"]

    def clean(self):
        """New entries and changed players pass the entry checks; a status change alone does not."""
        super().clean()
        cleaned = self.cleaned_data
        player, tournament = cleaned.get("player"), cleaned.get("tournament")
        if player and tournament and (not self.instance.pk or "player" in self.changed_data):
            try:
                check_can_enter(player, tournament)
            except ValidationError as error:
                raise ValidationError(error.messages) from error
        return cleaned


class EntryInline(admin.TabularInline):
    model = Entry
    form = EntryForm
    fk_name = "tournament"
    extra = 0
    autocomplete_fields = ["player", "source_tournament", "replaces"]
    fields = ["player", "status", "minutes_late", "source_tournament", "source_rank", "replaces"]


@admin.register(Player)
class PlayerAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["name", "email", "country", "date_of_birth", "media_opt_out"]
    list_filter = ["country", "media_opt_out"]
    search_fields = ["name", "email"]
    autocomplete_fields = ["country", "user"]

    def audit_tournaments(self, obj):
        """A player's record shows in every tournament they are entered in: the edit is logged in each."""
        return _tournaments_of(obj.pk)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "date_of_birth":
            kwargs["validators"] = [check_birth_date]  # as in every form that takes one
        return super().formfield_for_dbfield(db_field, request, **kwargs)


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


class StaffRoleForm(forms.ModelForm):
    class Meta:
        model = StaffRole
        fields = ["user", "role", "tournament", "championship"]

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        user, tournament, championship = cleaned.get("user"), cleaned.get("tournament"), cleaned.get("championship")
        if user and (tournament or championship):
            check_can_officiate(user, tournament=tournament, championship=championship)
        return cleaned


class StaffInline(admin.TabularInline):
    model = StaffRole
    form = StaffRoleForm
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["name", "championship", "kind", "city", "date", "ruleset", "status"]
    list_filter = ["kind", "status", "ruleset", "championship"]
    search_fields = ["name", "city", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StageInline, StaffInline, EntryInline]


class TournamentInlineForm(forms.ModelForm):
    """The slug may be left empty: it is then made from the championship's and the tournament's names."""

    class Meta:
        model = Tournament
        fields = ["name", "slug", "kind", "ruleset", "city", "date", "status", "advance_count"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Leave empty to make one from the names.")


class TournamentInlineFormSet(forms.BaseInlineFormSet):
    def clean(self):
        """Derive missing slugs, unique among the new rows too (two rows named alike get -2, -3)."""
        super().clean()
        taken = {form.cleaned_data.get("slug") for form in self.forms if getattr(form, "cleaned_data", None)}
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or data.get("slug") or not data.get("name"):
                continue
            slug = unique_slug(Tournament, f"{self.instance.name} {data['name']}", also_taken=taken)
            taken.add(slug)
            form.cleaned_data["slug"] = form.instance.slug = slug


class TournamentInline(admin.TabularInline):
    model = Tournament
    form = TournamentInlineForm
    formset = TournamentInlineFormSet
    extra = 0
    show_change_link = True


@admin.register(Championship)
class ChampionshipAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["name", "scope", "country", "year", "age_cutoff"]
    list_filter = ["scope", "year"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["preset"]
    inlines = [TournamentInline]

    def changed_tournaments(self, obj):
        """Its name is on its tournaments' pages, its country chooses their PDFs' usual paper."""
        return list(obj.tournaments.values_list("pk", flat=True))


@admin.register(Stage)
class StageAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["tournament", "order", "name", "kind", "games", "seating", "players"]
    list_filter = ["kind", "seating"]
    search_fields = ["tournament__name", "name"]


@admin.register(Entry)
class EntryAdmin(AuditedAdminMixin, admin.ModelAdmin):
    form = EntryForm
    list_display = ["player", "tournament", "status", "minutes_late", "source_tournament", "source_rank"]
    list_filter = ["status", "tournament"]
    search_fields = ["player__name", "player__email", "tournament__name"]
    autocomplete_fields = ["player", "tournament", "source_tournament", "replaces"]


@admin.register(StaffRole)
class StaffRoleAdmin(AuditedAdminMixin, admin.ModelAdmin):
    form = StaffRoleForm
    list_display = ["user", "role", "tournament", "championship"]
    list_filter = ["role", "tournament", "championship"]
    search_fields = ["user__username", "tournament__name", "championship__name"]
    autocomplete_fields = ["user", "tournament", "championship"]


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: players register from their phones and organizers decide in the console, where it is audited.
    The digest of the confirmation token is not shown."""

    fields = ["tournament", "name", "email", "date_of_birth", "country", "city", "friends", "media_opt_out",
              "language", "status", "player", "entry", "created_at", "confirmed_at", "decided_at", "decided_by",
              "reason", "privacy_notice"]
    list_display = ["name", "tournament", "status", "created_at", "confirmed_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["name", "email", "tournament__name"]


@admin.register(PlayerLink)
class PlayerLinkAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only, without the token's digest or secret: links are sent by email and rotated by the organizer
    (audited)."""

    fields = ["player", "created_at", "shown_to"]
    list_display = ["player", "created_at", "shown_to"]
    search_fields = ["player__name"]


@admin.register(EntryInvitation)
class EntryInvitationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: made when an organizer enters another championship's player, confirmed by the player (audited)."""

    fields = ["entry", "invited_by", "email", "date_of_birth", "created_at", "confirmed_at"]
    list_display = ["entry", "invited_by", "created_at", "confirmed_at"]
    search_fields = ["entry__player__name", "entry__tournament__name"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only, without the browser's address and keys: players switch their phone's notifications themselves."""

    fields = ["player", "created_at", "last_error"]
    list_display = ["player", "created_at", "last_error"]
    search_fields = ["player__name"]


@admin.register(PrivacyNotice)
class PrivacyNoticeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: organizers write new versions in the console (audited); a version accepted is never changed."""

    fields = ["championship", "version", "text", "created_at", "created_by"]
    list_display = ["championship", "version", "created_at", "created_by"]
    search_fields = ["championship__name"]


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: organizers make and revoke tokens on the championship's console page (audited); only the digest is
    kept, so nothing here opens the API."""

    fields = ["championship", "name", "hint", "user", "created_at", "revoked_at"]
    list_display = ["name", "hint", "championship", "user", "created_at", "revoked_at"]
    search_fields = ["name", "championship__name"]
