from django.contrib import admin

from audit.admin import AuditedAdminMixin, ReadOnlyAdminMixin

from .models import Game, PlanningJob, Seat, Table


def _sheet_locked(table: Table | None) -> bool:
    """Seats of a table whose result is signed off stay as they were signed."""
    return table is not None and hasattr(table, "sheet") and table.sheet.is_locked


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["entry"]
    fields = ["position", "entry", "game"]

    def has_change_permission(self, request, obj=None):
        return not _sheet_locked(obj) and super().has_change_permission(request, obj)

    def has_add_permission(self, request, obj=None):
        return not _sheet_locked(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _sheet_locked(obj) and super().has_delete_permission(request, obj)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Game)
class GameAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["tournament", "number", "stage", "status", "board_code"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["game", "number"]
    list_filter = ["game__tournament"]
    search_fields = ["game__tournament__name"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["table", "position", "entry"]
    list_filter = ["game__tournament"]
    search_fields = ["entry__player__name"]
    autocomplete_fields = ["entry", "table", "game"]

    def has_change_permission(self, request, obj=None):
        return not _sheet_locked(obj and obj.table) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _sheet_locked(obj and obj.table) and super().has_delete_permission(request, obj)


@admin.register(PlanningJob)
class PlanningJobAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: jobs are started from the stage page and write only their own progress."""

    list_display = ["stage", "status", "players", "seed", "requested_by", "created_at", "finished_at"]
    list_filter = ["status"]
