from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


class GenerateForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), initial=1, min_value=0, max_value=2**31 - 1,
                              help_text=_("The same seed gives the same seating; another seed, another one."))


class SwapForm(forms.Form):
    """Two players of one game exchange their seats (table and play-order position)."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("swaps seats with"), coerce=int)
    layout = forms.CharField(widget=forms.HiddenInput, max_length=16)

    def __init__(self, *args, game_id: int, players: list[tuple[int, str]], layout: str = "", **kwargs):
        super().__init__(*args, prefix=f"game{game_id}", initial={"layout": layout}, **kwargs)
        for name in ("first", "second"):
            self.fields[name].choices = [("", "---------"), *players]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("first") and cleaned.get("first") == cleaned.get("second"):
            raise ValidationError(_("Choose two different players."))
        return cleaned
