"""Admin views of results, read-only: every change to a result goes through the audited services."""
from django.contrib import admin

from audit.admin import ReadOnlyAdminMixin

from .models import (
    Announcement,
    CollusionRuling,
    Objection,
    Penalty,
    RecordSheet,
    Score,
    SheetRevision,
    Signature,
    TabletReport,
    TiebreakDraw,
    TiebreakDrawPlace,
)


class ScoreInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Score
    fields = ["seat", "vp", "winner"]


class SignatureInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Signature
    fields = ["entry", "method", "decision", "signed_at", "recorded_by", "sheet_version"]


class RevisionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = SheetRevision
    fields = ["number", "kind", "data", "reason", "created_by", "created_at"]


@admin.register(RecordSheet)
class RecordSheetAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["table", "status", "version", "signed_off_by", "signed_off_at"]
    list_filter = ["status", "table__game__tournament"]
    search_fields = ["table__game__tournament__name", "scores__seat__entry__player__name"]
    inlines = [ScoreInline, SignatureInline, RevisionInline]


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["entry", "tournament", "kind", "vp", "ground", "game", "recorded_by", "recorded_at"]
    list_filter = ["kind", "ground", "tournament"]
    search_fields = ["entry__player__name", "reason"]


@admin.register(CollusionRuling)
class CollusionRulingAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["warning", "disqualification", "decided_by", "decided_at"]
    list_filter = ["warning__tournament"]
    search_fields = ["warning__entry__player__name", "reason"]


class DrawPlaceInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = TiebreakDrawPlace
    fields = ["place", "entry"]


@admin.register(TiebreakDraw)
class TiebreakDrawAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["tournament", "stage", "method", "recorded_by", "recorded_at"]
    list_filter = ["method", "tournament"]
    inlines = [DrawPlaceInline]


@admin.register(Score)
class ScoreAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["sheet", "seat", "vp", "winner"]
    list_filter = ["winner", "sheet__table__game__tournament"]
    search_fields = ["seat__entry__player__name"]


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["sheet", "entry", "method", "signed_at", "recorded_by"]
    list_filter = ["method", "sheet__table__game__tournament"]
    search_fields = ["entry__player__name", "decision"]


@admin.register(SheetRevision)
class SheetRevisionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["sheet", "number", "kind", "created_by", "created_at"]
    list_filter = ["kind", "sheet__table__game__tournament"]
    search_fields = ["reason", "created_by__username"]


@admin.register(TiebreakDrawPlace)
class TiebreakDrawPlaceAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["draw", "place", "entry"]
    list_filter = ["draw__tournament"]
    search_fields = ["entry__player__name"]


@admin.register(Announcement)
class AnnouncementAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: officials post and remove announcements from the referee desk, where it is audited."""

    list_display = ["tournament", "text", "author", "created"]
    list_filter = ["tournament"]


@admin.register(Objection)
class ObjectionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: a player objects from their phone and the referee decides on the tablet."""

    list_display = ["sheet", "entry", "sheet_version", "created_at"]
    list_filter = ["sheet__table__game__tournament"]
    search_fields = ["entry__player__name", "note"]


@admin.register(TabletReport)
class TabletReportAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: each referee's tablet replaces its own report of the tables waiting on it."""

    list_display = ["tournament", "user", "reported_at"]
    list_filter = ["tournament"]
    search_fields = ["user__username"]
