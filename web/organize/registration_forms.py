"""Forms of the registration page and the self check-in window: labels, limits, choices."""
from django import forms
from django.utils.translation import gettext_lazy as _

from attendance.self_checkin import DEFAULT_WINDOW_MINUTES, WINDOW_MINUTES

REASON_MAX = 500


class RegistrationSettingsForm(forms.Form):
    self_registration = forms.BooleanField(label=_("Players register themselves on the tournament's page"),
                                           required=False)
    capacity = forms.IntegerField(
        label=_("Number of places"), min_value=3, max_value=100_000, required=False,
        help_text=_("Empty for open entry. Confirmed players beyond it go on the waiting list, which takes each "
                    "freed place in turn."))
    registration_closes = forms.DateTimeField(
        label=_("Registration closes at"), required=False, input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: open until the first game is published."))
    registration_approval = forms.BooleanField(label=_("I approve each registration before it takes a place"),
                                               required=False)


class RefuseForm(forms.Form):
    reason = forms.CharField(label=_("Reason (sent to the player)"), max_length=REASON_MAX, required=False)


class PrivateLinkForm(forms.Form):
    player = forms.IntegerField(label=_("Player"), min_value=1)


class WindowForm(forms.Form):
    minutes = forms.TypedChoiceField(label=_("Open for"), coerce=int, initial=DEFAULT_WINDOW_MINUTES,
                                     choices=[(m, _("%(n)d minutes") % {"n": m}) for m in WINDOW_MINUTES])
