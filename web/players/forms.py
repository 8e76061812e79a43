"""The players' forms: every text has a maximum, in the browser (maxlength) and here."""
import base64
from typing import Any, cast

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from championships.countries import country_choices
from championships.models import FRIENDS_MAX, PushSubscription
from championships.signup import Details
from core.text import LineField
from results.limits import OBJECTION_MAX


def _countries() -> list[tuple[str, object]]:
    return [("", _("Choose your country")), *country_choices()]


class RegistrationForm(forms.Form):
    name = LineField(label=_("Your name"), max_length=200,
                     help_text=_("As it should appear on the standings."))
    email = forms.EmailField(label=_("Email"), max_length=254,
                             help_text=_("We send the confirmation link and your private link there."))
    date_of_birth = forms.DateField(label=_("Date of birth"), required=False,
                                    widget=forms.DateInput(attrs={"type": "date"}))
    country = forms.ChoiceField(label=_("Country"), required=False)
    city = LineField(label=_("City"), max_length=100, required=False)
    friends = forms.CharField(
        label=_("Friends or family playing in this tournament"), max_length=FRIENDS_MAX, required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One name a line: the organizers keep you apart from them at the tables."))
    media_opt_out = forms.BooleanField(label=_("Do not photograph or film me"), required=False)
    consent = forms.BooleanField(label=_("I have read the privacy notice and agree to it"), required=False)

    def __init__(self, *args: Any, needs_birth_date: bool = False, needs_consent: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["consent"].required = needs_consent  # a championship's tournament: its notice is shown
        self.fields["country"].choices = _countries()  # type: ignore[attr-defined]  # a ChoiceField
        self.fields["date_of_birth"].required = needs_birth_date
        if needs_birth_date:
            self.fields["date_of_birth"].help_text = _("Needed to check the minimum age.")

    def clean_email(self) -> str:
        return cast(str, self.cleaned_data["email"]).strip()

    def clean_friends(self) -> str:
        lines = [line.strip() for line in self.cleaned_data["friends"].splitlines()]
        return "\n".join(line for line in lines if line)

    def details(self, language: str) -> Details:
        data = self.cleaned_data
        return Details(name=data["name"], email=data["email"], date_of_birth=data["date_of_birth"],
                       country=data["country"], city=data["city"], friends=data["friends"],
                       media_opt_out=data["media_opt_out"], language=language)


class EmailForm(forms.Form):
    email = forms.EmailField(label=_("Your email"), max_length=254)


class ObjectionForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    note = forms.CharField(label=_("What is wrong?"), max_length=OBJECTION_MAX, required=False,
                           widget=forms.Textarea(attrs={"rows": 2}))


_BASE64URL = RegexValidator(r"\A[A-Za-z0-9_-]+={0,2}\Z", _("Not a browser's key."))


class PushSubscriptionForm(forms.Form):
    """What a browser's `PushSubscription` gives (its endpoint and keys), posted by static/players/push.js."""

    endpoint = forms.URLField(max_length=PushSubscription.ENDPOINT_MAX, assume_scheme="https")
    p256dh = forms.CharField(max_length=200, required=False, validators=[_BASE64URL])
    auth = forms.CharField(max_length=100, required=False, validators=[_BASE64URL])

    def __init__(self, *args: Any, subscribing: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["p256dh"].required = self.fields["auth"].required = subscribing

    def clean_p256dh(self) -> str:
        """The browser's P-256 public key: an uncompressed point, 65 bytes starting with 4."""
        return self._key("p256dh", lambda raw: len(raw) == 65 and raw[0] == 4)

    def clean_auth(self) -> str:
        """The browser's authentication secret: 16 bytes."""
        return self._key("auth", lambda raw: len(raw) == 16)

    def _key(self, name: str, shaped: Any) -> str:
        value: str = self.cleaned_data[name].rstrip("=")
        try:
            fits = not value or shaped(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
        except ValueError:  # binascii.Error: a length no base64 text has
            fits = False
        if not fits:
            raise forms.ValidationError(_("Not a browser's key."))
        return value
