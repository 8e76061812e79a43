"""The players' forms: every text has a maximum, in the browser (maxlength) and here."""
from django import forms
from django.utils.translation import gettext_lazy as _

from championships.countries import country_choices
from championships.models import FRIENDS_MAX
from championships.signup import Details
from core.text import LineField
from results.limits import OBJECTION_MAX


def _countries():
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

    def __init__(self, *args, needs_birth_date: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = _countries()  # type: ignore[attr-defined]  # a ChoiceField
        self.fields["date_of_birth"].required = needs_birth_date
        if needs_birth_date:
            self.fields["date_of_birth"].help_text = _("Needed to check the minimum age.")

    def clean_email(self):
        return self.cleaned_data["email"].strip()

    def clean_friends(self):
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
