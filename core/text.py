"""One line of text typed by people (names of players, tournaments, championships, stages, places): cleaned
and checked one way, here, for every form, import and model that stores one.

- Control characters and line breaks are refused: a name is one line. A line break in a tournament's name
  made every start-time email's subject invalid, so the notices failed every quarter of an hour.
- Invisible characters are removed (Unicode's default-ignorable code points: zero-width spaces, bidirectional
  overrides, embeddings, isolates and marks, soft hyphens, variation selectors, tag characters, fillers), so
  two names that look the same are the same text and no name reverses the text around it on a page. A
  zero-width (non-)joiner stays between two letters of a script whose letters join (Arabic, Persian,
  Syriac, the Indic scripts), where it changes how the word is written.
- Any run of spaces (no-break, ideographic, …) becomes one space, the ends are trimmed, and the text is
  put in Unicode's composed form (NFC), so "é" typed two ways is one name.
"""
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

_JOINERS = "\u200c\u200d"
_IGNORABLE_BUT_JOINERS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
"""Default_Ignorable_Code_Point (Unicode 15, DerivedCoreProperties.txt) but the two joiners, as a regex class body."""
_CONTROLS_BUT_NUL = "\x01-\x1f\x7f-\x9f\u2028\u2029"
"""C0 and C1 controls, DEL, the line and paragraph separators; NUL is one too (PostgreSQL cannot store it)."""
_JOINING_SCRIPTS = "\u0600-\u08ff\ufb50-\ufdff\ufe70-\ufefe\u0900-\u0dff"
"""Arabic (with its supplements and presentation forms), Syriac, Thaana, N'Ko and the Indic scripts."""

_IGNORABLE_RE = re.compile(f"[{_IGNORABLE_BUT_JOINERS}{_JOINERS}]")
_KEPT_JOINER_RE = re.compile(f"(?<=[{_JOINING_SCRIPTS}])[{_JOINERS}](?=[{_JOINING_SCRIPTS}])")
_CONTROL_RE = re.compile(f"[\x00{_CONTROLS_BUT_NUL}]")
FORBIDDEN_PATTERN = f"[{_CONTROLS_BUT_NUL}{_IGNORABLE_BUT_JOINERS}]"
"""What a stored name never holds, for the database's check constraints: controls and invisible characters,
the joiners excepted (where they may stand depends on their neighbours, which `clean_line` decides)."""

CONTROL_MESSAGE = _("Use one line without control characters (line breaks, tabs).")


def _remove_invisible(text: str) -> str:
    kept = {match.start() for match in _KEPT_JOINER_RE.finditer(text)}
    return "".join(ch for i, ch in enumerate(text) if i in kept or not _IGNORABLE_RE.match(ch))


def clean_line(value: str) -> str:
    """The text as stored: one line, nothing invisible, spaces collapsed, NFC. Raises ValidationError on a
    control character or line break."""
    if has_control(value):
        raise ValidationError(CONTROL_MESSAGE, code="control")
    return " ".join(unicodedata.normalize("NFC", _remove_invisible(value)).split())


def has_control(value: str) -> bool:
    """Whether `clean_line` would refuse the text (a control character or line break)."""
    return bool(_CONTROL_RE.search(value))


def one_line(value: str) -> str:
    """For text the site composes (an email's subject): the same, with line breaks and controls as spaces."""
    return clean_line(_CONTROL_RE.sub(" ", value))


_NOT_A_NAME_RE = re.compile(r"://|www\.|@|[^\W_]\.[^\W\d_]{2}|[!?:;¡¿؟؛%$€£<>=/\\]|\d{3}", re.IGNORECASE)
"""A URL or an address (a scheme, "www.", "@", a dot between a letter and two more: "bit.ly", "evil.com"), a
sentence's or a message's marks, or a number such as a phone's."""
NAME_WORDS_MAX = 6
NAME_CHARACTERS_MAX = 60


def plain_name(value: str) -> bool:
    """Whether a typed name reads as a person's name, to be echoed in an email to an address nobody confirmed: at
    most 6 words and 60 characters, no URL or address, no sentence's punctuation, no long number. Anything else
    ("Your account is locked: verify at evil.example") is not carried to a stranger's inbox."""
    return (len(value) <= NAME_CHARACTERS_MAX and len(value.split()) <= NAME_WORDS_MAX
            and not _NOT_A_NAME_RE.search(value))


class LineField(forms.CharField):
    """A form field for a name: the typed text cleaned by `clean_line`."""

    def to_python(self, value: Any | None) -> str | None:
        value = super().to_python(value)
        return clean_line(value) if value else value


if TYPE_CHECKING:  # the stubs' model fields are generic (value set, value read); Django's classes are not
    _CharField = models.CharField[str, str]
else:
    _CharField = models.CharField


class NameField(_CharField):
    """A model field for a name: cleaned by `clean_line` in every form (the admin's too) and by `full_clean`
    (imports), and never stored with a control or invisible character (`no_hidden_characters`)."""

    def clean(self, value: Any, model_instance: models.Model | None) -> Any:
        value = self.to_python(value)
        if value:
            value = clean_line(value)
        self.validate(value, model_instance)
        self.run_validators(value)
        return value

    def formfield(self, form_class: type[forms.Field] | None = None,
                  choices_form_class: type[forms.ChoiceField] | None = None, **kwargs: Any) -> forms.Field | None:
        return super().formfield(form_class=form_class or LineField, choices_form_class=choices_form_class, **kwargs)


def no_hidden_characters(field: str, name: str) -> models.CheckConstraint:
    """The database's own guard for a `NameField`, whatever path a row takes in."""
    return models.CheckConstraint(condition=~Q(**{f"{field}__regex": FORBIDDEN_PATTERN}), name=name)
