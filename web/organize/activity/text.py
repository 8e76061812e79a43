"""The activity log's words: sentences filled in as text and as HTML with each name isolated for right-to-left
pages, and the small phrases they are made of (a game, a clock, a choice's label)."""

from collections.abc import Iterable
from typing import Any

from django.db.models import TextChoices
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _


def game_at(number: object) -> str:
    return _("Game %(n)s") % {"n": number}


def game_and_table(game: object, table: object) -> str:
    return _("Game %(g)s · Table %(t)s") % {"g": game, "t": table}


def joined_names(names: Iterable[object] | None) -> str:
    return ", ".join(str(n) for n in names or [])


class Plain(str):
    """Words of the current language put into a sentence as they are (not isolated like a name)."""


class Said:
    """A sentence with its values filled in, as text and as HTML with each name isolated (<bdi>) for right-to-left.

    A value may be a list (of names), a `Plain` text, or another `Said`.
    """

    def __init__(self, sentence: str, **values: Any) -> None:
        self.text = sentence % {k: as_text(v) for k, v in values.items()}
        self.html = mark_safe(conditional_escape(sentence) % {k: as_html(v) for k, v in values.items()})

    def __str__(self) -> str:
        return self.text


def as_text(value: object) -> str:
    if isinstance(value, list):
        return joined_names(as_text(v) for v in value)
    return value.text if isinstance(value, Said) else str(value)


def as_html(value: object) -> str:
    if isinstance(value, list):
        return mark_safe(", ".join(as_html(v) for v in value))
    if isinstance(value, Said):
        return value.html
    if isinstance(value, Plain):
        return conditional_escape(value)
    return format_html("<bdi>{}</bdi>", value)


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def choice_label(choices: type[TextChoices], value: Any) -> str:
    """The value's label in the current language, "?" for a value the choices do not (or no longer) have."""
    return str(choices(value).label) if value in choices.values else "?"


def qualified(rows: Iterable[object] | None) -> list[object]:
    """[name, rank] pairs as "name (rank)", each name isolated."""
    return [Said("%(name)s (%(rank)s)", name=row[0], rank=Plain(row[1]))
            if isinstance(row, list | tuple) and len(row) == 2 else row for row in rows or []]
