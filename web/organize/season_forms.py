"""The season form: a name, the championships it spans (the organizer's own), points per place for each kind of
event, and up to three tiebreaks in order (`ratings.seasons`)."""
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from championships.models import Championship, Tournament
from core.text import LineField
from ratings.models import Season
from ratings.seasons import EVENT_KINDS, TIEBREAKS, TIEBREAKS_MAX, parse_points
from web.forms import ChoicesField

POINTS_TEXT_MAX = 400
"""Characters a points field takes: 64 places of up to four digits and their commas."""
POINTS_LABELS = {
    Tournament.Kind.QUALIFIER: _("Points for places in a qualifier"),
    Tournament.Kind.FINALS: _("Points for places in a championship finals"),
    Tournament.Kind.WORLD: _("Points for places in a world championship"),
    Tournament.Kind.CLUB: _("Points for places in a club tournament"),
}
TIEBREAK_LABELS = [_("First tiebreak"), _("Second tiebreak"), _("Third tiebreak")]


class SeasonForm(forms.Form):
    name = LineField(label=_("Season name"), max_length=200)
    championships = ChoicesField(
        label=_("Championships in the season"), queryset=Championship.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only championships you organize can be chosen."))
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, championships: QuerySet[Championship], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(ChoicesField, self.fields["championships"]).queryset = championships
        for kind in EVENT_KINDS:
            self.fields[f"points_{kind}"] = forms.CharField(
                label=POINTS_LABELS[kind], max_length=POINTS_TEXT_MAX, required=False,
                help_text=_("Points for 1st, 2nd, 3rd… place, separated by commas; other places score 0."))
        choices = [("", _("none"))] + [(key, t.label) for key, t in TIEBREAKS.items()]
        for n in range(TIEBREAKS_MAX):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(label=TIEBREAK_LABELS[n], choices=choices,
                                                             required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        points = {}
        for kind in EVENT_KINDS:
            try:
                if values := parse_points(data.get(f"points_{kind}", "")):
                    points[kind] = values
            except ValidationError as error:
                self.add_error(f"points_{kind}", error)
        if not points and not self.errors:
            raise ValidationError(_("Give the points for at least one kind of event."))
        tiebreaks = [data[f"tiebreak_{n}"] for n in range(TIEBREAKS_MAX) if data.get(f"tiebreak_{n}")]
        if len(set(tiebreaks)) != len(tiebreaks):
            self.add_error("tiebreak_1", _("Each tiebreak can be chosen once."))
        data["points"], data["tiebreaks"] = points, tiebreaks
        return data

    @staticmethod
    def initial_for(season: Season) -> dict[str, Any]:
        initial = {"name": season.name, "championships": list(season.championships.all()),
                   "version": season.version}
        for kind in EVENT_KINDS:
            initial[f"points_{kind}"] = ", ".join(str(p) for p in season.points.get(kind, []))
        for n, key in enumerate(season.tiebreaks):
            initial[f"tiebreak_{n}"] = key
        return initial
