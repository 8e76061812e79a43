"""Forms of the referee's screens; they parse input, the services (sheets, penalties, draws) decide."""
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from championships.models import Entry
from scheduling.models import Game

from .models import Penalty, Signature, TiebreakDraw
from .sheets import SheetInput

TEXT_MAX = 2000
"""The longest reason, decision or note a form takes (a paragraph; the database keeps any length)."""


class SheetForm(forms.Form):
    """One VP field per player (in play order, named by entry id), the winner, start and end time."""

    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, required=False, empty_value=None,
                                    widget=forms.RadioSelect)
    start_time = forms.TimeField(label=_("Start time"), required=False,
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    end_time = forms.TimeField(label=_("End time"), required=False,
                               widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    base_version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, scores, **kwargs):
        super().__init__(*args, **kwargs)
        self.scores = scores
        for score in scores:
            self.fields[f"vp_{score.seat.entry_id}"] = forms.IntegerField(
                label=_("VP of %(player)s") % {"player": score.seat.entry.player.name},
                required=False, min_value=0, max_value=12,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 12, "class": "vp-input"}),
            )
        self.fields["winner"].choices = [(s.seat.entry_id, s.seat.entry.player.name) for s in scores]

    @property
    def rows(self):
        """(score, its bound VP field) in play order: the template's rows."""
        return [(score, self[f"vp_{score.seat.entry_id}"]) for score in self.scores]

    def sheet_input(self) -> SheetInput:
        data = self.cleaned_data
        return SheetInput(
            vps={s.seat.entry_id: data.get(f"vp_{s.seat.entry_id}") for s in self.scores},
            winner=data.get("winner"), start_time=data.get("start_time"), end_time=data.get("end_time"),
        )

    def add_service_errors(self, error: ValidationError) -> None:
        """Attach a service's errors to their fields; errors of no field go above the form."""
        if not hasattr(error, "error_dict"):
            self.add_error(None, error.messages)
            return
        for field, messages in error.message_dict.items():
            self.add_error(None if field not in self.fields else field, messages)


class CorrectionForm(SheetForm):
    reason = forms.CharField(label=_("Reason for the correction"), max_length=TEXT_MAX,
                             widget=forms.Textarea(attrs={"rows": 2}),
                             help_text=_("For example: the paper sheet says 8 VP for seat 2."))


class SignatureForm(forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)
    method = forms.ChoiceField(choices=Signature.Method.choices, widget=forms.HiddenInput)
    image = forms.CharField(required=False, widget=forms.HiddenInput, max_length=60_000)
    decision = forms.CharField(label=_("Referee's decision"), required=False, max_length=TEXT_MAX,
                               widget=forms.Textarea(attrs={"rows": 2}))


class PlayOrderForm(forms.Form):
    """The play order the players of a seeded table chose: one player per position."""

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        players = [(seat.entry_id, seat.entry.player.name) for seat in seats]
        for seat in seats:
            self.fields[f"position_{seat.position}"] = forms.TypedChoiceField(
                label=_("Position %(n)d") % {"n": seat.position}, coerce=int, choices=players,
                initial=seat.entry_id,
            )

    def clean(self):
        cleaned = super().clean()
        order = [cleaned.get(name) for name in self.fields]
        if None not in order and len(set(order)) != len(order):
            raise ValidationError(_("Each player takes exactly one position."))
        cleaned["order"] = order
        return cleaned


class SignOffForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)


class PenaltyForm(forms.Form):
    entry = forms.ModelChoiceField(label=_("Player"), queryset=Entry.objects.none())
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices)
    vp = forms.IntegerField(label=_("VP deducted"), min_value=0, max_value=40, initial=0,
                            help_text=_("Lateness: 1 VP (up to 15 minutes). Warnings and disqualifications: 0."))
    game = forms.ModelChoiceField(label=_("Game"), queryset=Game.objects.none(), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=TEXT_MAX, widget=forms.Textarea(attrs={"rows": 2}))
    request_key = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, initial={"request_key": uuid.uuid4()}, **kwargs)
        self.fields["entry"].queryset = tournament.entries.select_related("player").order_by("player__name")
        self.fields["entry"].label_from_instance = lambda entry: entry.player.name
        self.fields["game"].queryset = tournament.games.order_by("number")
        self.fields["game"].label_from_instance = lambda game: _("Game %(n)d") % {"n": game.number}


class DrawForm(forms.Form):
    """The order a draw gave among one group of tied players: one choice per place."""

    method = forms.ChoiceField(label=_("How the tie was drawn"), choices=TiebreakDraw.Method.choices)
    note = forms.CharField(label=_("Note"), required=False, max_length=TEXT_MAX,
                           widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.places = []
        for place in range(1, len(players) + 1):
            name = f"place_{place}"
            self.fields[name] = forms.TypedChoiceField(
                label=_("Place %(n)d in the draw") % {"n": place}, coerce=int,
                choices=[("", "—"), *players],
            )
            self.places.append(name)

    def clean(self):
        cleaned = super().clean()
        order = [cleaned.get(name) for name in self.places]
        if None not in order and len(set(order)) != len(order):
            raise ValidationError(_("Each player takes exactly one place in the draw."))
        cleaned["order"] = order
        return cleaned
