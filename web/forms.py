"""What the forms of every audience share."""
from django import forms
from django.core.exceptions import ValidationError


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """A service's refusal shown on the form: each message at its field, and above the form those of no field
    (a refusal that names none, such as "changed meanwhile", has no `message_dict`)."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error.messages)
        return
    for field, problems in error.message_dict.items():
        form.add_error(field if field in form.fields else None, problems)
