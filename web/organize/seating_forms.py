import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class GenerateForm(forms.Form):
    seed = forms.IntegerField(label=pgettext_lazy("random seed", "Seed"), initial=1, min_value=0, max_value=2**31 - 1,
                              help_text=_("The same seed gives the same seating; another seed, another one."))


SEAT_REF = re.compile(r"^\s*(\d{1,4})\s*[.\-/:,·\s]\s*(\d)\s*$")
"""A seat as the page shows it: table number and position, "12.3" (also 12-3, 12/3, 12 3; any digits)."""


def parse_seat(text: str) -> tuple[int, int]:
    match = SEAT_REF.match(text)
    if not match:
        raise ValidationError(_("“%(text)s” is not a seat: write the table number and the position, such as 12.3.")
                              % {"text": text[:12]})
    return int(match[1]), int(match[2])


class SeatsField(forms.Field):
    """The seats ticked on the page (checkboxes named `seat`, drawn by the template, not by the form)."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        return [str(text)[:12] for text in (value or [])[:3]]  # three are enough to say "too many"


class SwapForm(forms.Form):
    """Two seats of one game exchange their players: ticked on the page (`seat`) or typed (`first`, `second`),
    two in all, so seats on different pages of a large game can be swapped too."""

    seat = SeatsField(required=False)
    first = forms.CharField(label=_("First seat"), max_length=12, required=False,
                            widget=forms.TextInput(attrs={"placeholder": "12.3", "inputmode": "decimal",
                                                          "size": 6, "autocomplete": "off"}))
    second = forms.CharField(label=_("Second seat"), max_length=12, required=False,
                             widget=forms.TextInput(attrs={"placeholder": "40.1", "inputmode": "decimal",
                                                           "size": 6, "autocomplete": "off"}))
    layout = forms.CharField(widget=forms.HiddenInput, max_length=16)

    def __init__(self, data: QueryDict | None = None, *, layout: str = "", **kwargs: Any) -> None:
        super().__init__(data, initial={"layout": layout}, **kwargs)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        texts = [*cleaned.get("seat", []), *(cleaned.get(k, "").strip() for k in ("first", "second"))]
        texts = [t for t in texts if t]
        if len(texts) != 2:
            raise ValidationError(_("Pick exactly two seats to swap (you picked %(n)d).") % {"n": len(texts)})
        seats = [parse_seat(t) for t in texts]
        if seats[0] == seats[1]:
            raise ValidationError(_("Pick two different seats."))
        cleaned["seats"] = seats
        return cleaned
