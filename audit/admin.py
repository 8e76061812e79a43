"""The audit trail in the admin (read-only), and the mixin that audits every edit made in the admin."""
import json
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from core.changes import announce

from .actions import Action
from .models import AuditEntry
from .services import record_change_in

if TYPE_CHECKING:  # the mixins below go before admin.ModelAdmin in their classes' bases
    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = object


class ReadOnlyAdminMixin(_ModelAdmin):
    """Rows that change only through the audited services: the admin shows them and nothing more."""

    def get_readonly_fields(self, request, obj=None):
        return self.fields or [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _plain(obj: models.Model) -> dict:
    """The row's own field values as JSON data (dates as ISO strings); bytes (a name's collation key, derived from
    the name) are left out."""
    values = {f.attname: f.value_from_object(obj) for f in obj._meta.concrete_fields
              if not isinstance(f, models.BinaryField)}
    return json.loads(json.dumps(values, cls=DjangoJSONEncoder))


def _tournament_id(obj: models.Model) -> int | None:
    """The tournament an admin edit belongs to, when it belongs to one."""
    if obj._meta.model_name == "tournament":
        return obj.pk
    if hasattr(obj, "tournament_id"):
        return obj.tournament_id
    game = getattr(obj, "game", None)
    return game.tournament_id if game is not None else None


class AuditedAdminMixin(_ModelAdmin):
    """Edits made in the Django admin go into the same audit trail as the app's own changes."""

    def audit_tournaments(self, obj: models.Model) -> list[int | None]:
        """The tournaments whose activity log shows an edit of `obj` (a shared row names each one it touches)."""
        return [_tournament_id(obj)]

    def changed_tournaments(self, obj: models.Model) -> list[int | None]:
        """The tournaments whose pages show `obj`, announced after an edit (`core.changes`): those it is logged in."""
        return self.audit_tournaments(obj)

    def save_model(self, request, obj, form, change):
        if change:
            request.audit_before = _plain(type(obj)._default_manager.get(pk=obj.pk))
        super().save_model(request, obj, form, change)

    def log_addition(self, request, obj, message):
        record_change_in(request.user, self.audit_tournaments(obj), Action.ADMIN_ADDED, obj, after=_plain(obj))
        announce(*self.changed_tournaments(obj))
        return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        record_change_in(request.user, self.audit_tournaments(obj), Action.ADMIN_CHANGED, obj,
                         before=getattr(request, "audit_before", None), after=_plain(obj))
        announce(*self.changed_tournaments(obj))
        return super().log_change(request, obj, message)

    def log_deletions(self, request, queryset):
        for obj in queryset:
            record_change_in(request.user, self.audit_tournaments(obj), Action.ADMIN_DELETED, obj, before=_plain(obj))
            announce(*self.changed_tournaments(obj))
        return super().log_deletions(request, queryset)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["at", "user", "tournament", "action", "object_type", "object_id"]
    list_filter = ["action", "object_type", "tournament"]
    search_fields = ["user__username", "reason"]
