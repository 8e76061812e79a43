"""The form that registers a championship's webhook (web/organize/views/webhooks.py)."""
from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.outbound import URL_MAX
from webhooks.models import Event, Format


class WebhookForm(forms.Form):
    url = forms.CharField(label=_("Address that receives the events"), max_length=URL_MAX, strip=True,
                          widget=forms.URLInput(attrs={"dir": "ltr", "placeholder": "https://", "inputmode": "url"}),
                          help_text=_("An https:// address on the internet; the site posts JSON to it."))
    events = forms.MultipleChoiceField(label=pgettext_lazy("webhook", "Events"), choices=Event.choices,
                                       widget=forms.CheckboxSelectMultiple, initial=Event.values)
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.JSON, required=False,
                               help_text=_("For a Discord or Slack channel, paste the channel's incoming webhook "
                                           "address and choose its format: each event arrives as a message."))
