"""What the forms of every audience share."""
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """A service's refusal shown on the form: each message at its field, and above the form those of no field
    (a refusal that names none, such as "changed meanwhile", has no `message_dict`)."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error.messages)
        return
    for field, problems in error.message_dict.items():
        form.add_error(field if field in form.fields else None, problems)


class ChoicesField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # generic in django-stubs only
    """Several of the queryset's objects, by id. An id beyond a 64-bit integer is refused as any unknown choice:
    Django's `in` lookup sends it to SQLite as it is, which overflows (a server error, found by fuzzing)."""

    def clean(self, value: Any) -> Any:
        for item in value or ():
            text = str(item).strip()
            if _WHOLE_NUMBER.fullmatch(text) and (len(text) > 20 or not -2**63 <= int(text) < 2**63):
                raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice",
                                      params={"value": item})
        return super().clean(value)
