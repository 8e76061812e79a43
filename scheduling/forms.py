from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from championships.models import Entry

from .models import Game


class GenerateForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), initial=1, min_value=0,
                              help_text=_("The same seed gives the same seating; another seed, another one."))


class SwapForm(forms.Form):
    """Two players of one game exchange their seats (table and play-order position)."""

    first = forms.ModelChoiceField(label=_("Player"), queryset=Entry.objects.none())
    second = forms.ModelChoiceField(label=_("swaps seats with"), queryset=Entry.objects.none())
    layout = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, game: Game, layout: str = "", **kwargs):
        super().__init__(*args, prefix=f"game{game.pk}", initial={"layout": layout}, **kwargs)
        seated = Entry.objects.filter(seats__game=game).select_related("player").order_by("player__name")
        for name in ("first", "second"):
            self.fields[name].queryset = seated
            self.fields[name].label_from_instance = lambda entry: entry.player.name

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("first") and cleaned.get("first") == cleaned.get("second"):
            raise ValidationError(_("Choose two different players."))
        return cleaned
