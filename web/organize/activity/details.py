"""An audit entry's before and after as the activity log lists them: label and value, and for a change only what
changed, with what it was."""
from dataclasses import dataclass
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from audit.actions import Action, Kind
from audit.models import AuditEntry

from .context import Context
from .labels import DETAIL_LABELS, HIDDEN_DETAILS
from .text import Plain, Said, as_html, qualified


@dataclass(frozen=True)
class Detail:
    label: str
    value: str
    """Safe HTML: names and data isolated for right-to-left pages."""
    was: str | None = None
    """The value before the change, when it was different (safe HTML too)."""


def entry_details(entry: AuditEntry, context: Context) -> list[Detail]:
    """The before/after of an entry as label: value lines; for a change, only what changed, with what it was."""
    before, after = entry.before, entry.after
    admin = entry.kind == Kind.ADMIN
    if entry.action == Action.SEATING_SWAPPED:
        return [Detail(str(name), _seat(place), _seat(before.get(name)) if isinstance(before, dict) else None)
                for name, place in (after or {}).items()]
    if not isinstance(before, dict) or not isinstance(after, dict):
        data = after if isinstance(after, dict) else before
        if not isinstance(data, dict):
            return []
        return [Detail(_label(key, admin), _value(key, value, entry, context))
                for key, value in data.items()
                if admin or (key not in HIDDEN_DETAILS and value not in (None, "", [], {}))]
    details = []
    for key in list(after) + [k for k in before if k not in after]:
        if not admin and key in HIDDEN_DETAILS:
            continue
        new, old = after.get(key), before.get(key)
        if key in before and key in after and new == old:
            if admin or entry.action == Action.SHEET_CORRECTED:
                continue
            details.append(Detail(_label(key, admin), _value(key, new, entry, context)))
        else:
            details.append(Detail(_label(key, admin), _value(key, new, entry, context),
                                  _value(key, old, entry, context) if key in before else None))
    return details


def _label(key: str, admin: bool) -> str:
    if admin:
        return key
    return str(DETAIL_LABELS.get(key, key.replace("_", " ")))


def _seat(place: object) -> str:
    if isinstance(place, list | tuple) and len(place) == 2:
        return Said(_("table %(table)s, position %(position)s"), table=Plain(place[0]),
                     position=Plain(place[1])).html
    return _value("", place, None, None)


def _value(key: str, value: Any, entry: AuditEntry | None, context: Context | None) -> str:
    """A before or after value as safe HTML: words of the current language as they are, names and data isolated."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "scores" and isinstance(value, list):
        return mark_safe("; ".join(
            Said(_("%(player)s: %(vp)s VP (winner)") if s.get("winner") else _("%(player)s: %(vp)s VP"),
                  player=s.get("player", "?"), vp=Plain("—" if s.get("vp") is None else s["vp"])).html
            for s in value if isinstance(s, dict)))
    if key == "order" and entry is not None and context is not None and entry.action == Action.SEATING_PLAY_ORDER:
        return as_html([context.entry_name(pk) for pk in value])
    if key == "qualified" and isinstance(value, list):
        return as_html(qualified(value))
    if key == "tables" and isinstance(value, list):
        return mark_safe("; ".join(
            Said(_("Table %(n)s"), n=Plain(n)).html + ": " + as_html(list(names)) for n, names in enumerate(value, 1)))
    if isinstance(value, dict):
        return mark_safe(", ".join(format_html("{}: {}", k, _value(k, v, entry, context)) for k, v in value.items()))
    if isinstance(value, list):
        return mark_safe(", ".join(_value("", v, entry, context) for v in value))
    return as_html(value)
