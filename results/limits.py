"""The longest text a reason, decision, note or drawn signature may be: forms, services and database agree."""
from django.utils.translation import gettext as _

TEXT_MAX = 2000
"""The longest reason, decision or note (a paragraph)."""

SIGNATURE_IMAGE_MAX = 60_000
"""The longest drawn signature (an SVG path)."""

OBJECTION_MAX = 500
"""The longest note a player sends from their phone with an objection to their table's result."""


def length_errors(limit: int = TEXT_MAX, **values: str) -> dict[str, list[str]]:
    """Per field, the message for each value longer than `limit` characters (none when all fit)."""
    return {
        field: [_("This text has %(n)d characters; at most %(max)d are kept. Shorten it.")
                % {"n": len(value), "max": limit}]
        for field, value in values.items() if value is not None and len(value) > limit
    }
