"""Forms of the organizer's console: a new championship (preset or custom), staff invitations, status."""
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from championships.countries import country_choices
from championships.formats import (
    MAX_GAMES_PER_STAGE,
    ChampionshipPlan,
    StagePlan,
    TournamentPlan,
)
from championships.models import RULESET_CHOICES, Championship, StaffRole, Stage, Tournament
from championships.presets import PRESETS
from championships.setup import REASON_MAX
from championships.staff import IDENTIFIER_MAX
from core.text import LineField
from scheduling.boards import LIMIT_LABELS

CUSTOM = "custom"
MAX_CUSTOM_TOURNAMENTS = 6
YEARS = (2000, 2100)


class StartForm(forms.Form):
    """Step 1 (GET): which format, which year."""

    preset = forms.ChoiceField(label=_("Format"), widget=forms.RadioSelect,
                               choices=[(key, p.title) for key, p in PRESETS.items()]
                               + [(CUSTOM, _("Custom format: your own stages, games and ruleset"))])
    year = forms.IntegerField(label=_("Year"), min_value=YEARS[0], max_value=YEARS[1])
    tournaments = forms.IntegerField(label=_("Tournaments (custom format only)"), min_value=1,
                                     max_value=MAX_CUSTOM_TOURNAMENTS, initial=1, required=False,
                                     help_text=_("For example 2 qualifiers and the finals: 3."))


class ChampionshipForm(forms.Form):
    name = LineField(label=_("Championship name"), max_length=200)
    year = forms.IntegerField(label=_("Year"), min_value=YEARS[0], max_value=YEARS[1])
    scope = forms.ChoiceField(label=_("Scope"), choices=Championship.Scope.choices)
    country = forms.ChoiceField(label=_("Country (national championships)"), required=False)
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=RULESET_CHOICES)
    age_cutoff = forms.DateField(label=_("Minimum-age cut-off date"), required=False,
                                 widget=forms.DateInput(attrs={"type": "date"}),
                                 help_text=_("Players must have reached the minimum age on this date."))
    minimum_age = forms.IntegerField(label=_("Minimum age"), min_value=0, max_value=99, initial=18)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["country"]).choices = [("", "—")] + country_choices()


class TournamentForm(forms.Form):
    name = LineField(label=_("Tournament name"), max_length=200)
    kind = forms.ChoiceField(label=_("Kind"), choices=Tournament.Kind.choices)
    city = LineField(label=_("City"), max_length=100, required=False)
    date = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    official_start = forms.TimeField(label=_("Official start time"), required=False,
                                     widget=forms.TimeInput(attrs={"type": "time"}))
    advance_count = forms.IntegerField(label=_("Players who advance"), min_value=0, max_value=999, initial=0)
    capacity = forms.IntegerField(label=_("Number of places (empty: open entry)"), min_value=3, max_value=9999,
                                  required=False)


class StageForm(forms.Form):
    """A stage row; a row left without games is ignored (the custom format offers spare rows)."""

    tournament = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    name = LineField(label=_("Stage"), max_length=100, required=False)
    kind = forms.ChoiceField(label=_("Kind"), choices=Stage.Kind.choices)
    seating = forms.ChoiceField(label=_("Seating"), choices=Stage.Seating.choices)
    games = forms.IntegerField(label=_("Games"), min_value=1, max_value=MAX_GAMES_PER_STAGE, required=False)
    players = forms.IntegerField(label=_("Players (seated by rank)"), min_value=3, max_value=999, required=False)
    boards_per_table = forms.BooleanField(label=_("A different board at each table"), required=False)


TournamentFormSet = forms.formset_factory(TournamentForm, extra=0, max_num=12, absolute_max=12, validate_max=True)
StageFormSet = forms.formset_factory(StageForm, extra=0, max_num=48, absolute_max=48, validate_max=True)


def initial_data(plan: ChampionshipPlan) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The three forms' initial values for a plan."""
    championship = {"name": plan.name, "year": plan.year, "scope": plan.scope, "country": plan.country or "",
                    "ruleset": plan.ruleset, "age_cutoff": plan.age_cutoff, "minimum_age": plan.minimum_age}
    tournaments, stages = [], []
    for i, t in enumerate(plan.tournaments):
        tournaments.append({"name": t.name, "kind": t.kind, "city": t.city, "date": t.date,
                            "official_start": t.official_start, "advance_count": t.advance_count,
                            "capacity": t.capacity})
        stages += [{"tournament": i, "name": s.name, "kind": s.kind, "seating": s.seating, "games": s.games,
                    "players": s.players, "boards_per_table": s.boards_per_table} for s in t.stages]
    return championship, tournaments, stages


def plan_from_forms(base: ChampionshipPlan, championship: ChampionshipForm,
                    tournaments: "forms.BaseFormSet[TournamentForm]",
                    stages: "forms.BaseFormSet[StageForm]") -> tuple[ChampionshipPlan, dict[str, forms.Form]]:
    """The plan the valid forms describe, and where each (tournament, stage) error key points: {"t0-s1": form}."""
    data = championship.cleaned_data
    rows = [f.cleaned_data for f in tournaments.forms]
    stage_forms: dict[str, forms.Form] = {}
    per_tournament: list[list[StagePlan]] = [[] for _ in rows]
    for form in stages.forms:
        s = form.cleaned_data
        if not s or s.get("games") is None or not 0 <= s["tournament"] < len(rows):
            continue
        j = len(per_tournament[s["tournament"]])
        stage_forms[f"t{s['tournament']}-s{j}"] = form
        per_tournament[s["tournament"]].append(StagePlan(
            kind=s["kind"], name=s["name"].strip() or str(Stage.Kind(s["kind"]).label).capitalize(),
            games=s["games"], seating=s["seating"], players=s["players"],
            boards_per_table=s.get("boards_per_table", False)))
    plan = ChampionshipPlan(
        name=data["name"], year=data["year"], scope=data["scope"], ruleset=data["ruleset"],
        country=data["country"] or None, age_cutoff=data["age_cutoff"], minimum_age=data["minimum_age"],
        preset=base.preset, short=base.short,
        tournaments=tuple(
            TournamentPlan(kind=r["kind"], name=r["name"], city=r["city"], date=r["date"],
                           official_start=r["official_start"], advance_count=r["advance_count"],
                           capacity=r["capacity"], stages=tuple(per_tournament[i]))
            for i, r in enumerate(rows)),
    )
    return plan, stage_forms


class InviteForm(forms.Form):
    """Referee unless chosen otherwise; organizer rights (everything, results included) only with the box ticked."""

    identifier = forms.CharField(label=_("Username or email address"), max_length=IDENTIFIER_MAX)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE)
    confirm_organizer = forms.BooleanField(
        label=_("Yes, make them an organizer: they may change everything in this tournament, results, players and "
                "staff included."), required=False)

    def __init__(self, *args: Any, organizers_only: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if organizers_only:
            role = cast(forms.ChoiceField, self.fields["role"])
            role.choices = [(StaffRole.Role.ORGANIZER, StaffRole.Role.ORGANIZER.label)]
            self.fields["confirm_organizer"].label = _(
                "Yes, make them an organizer: they may change everything in every tournament of this championship, "
                "results, players and staff included.")

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("role") == StaffRole.Role.ORGANIZER and not cleaned.get("confirm_organizer"):
            self.add_error("confirm_organizer", _("Organizer rights need this confirmation."))
        return cleaned


class StatusForm(forms.Form):
    reason = forms.CharField(label=_("Reason (kept in the activity log)"), max_length=REASON_MAX,
                             widget=forms.Textarea(attrs={"rows": 2}))


class BoardLimitsForm(forms.Form):
    """The fairness limits a championship's random boards keep (none: any legal board)."""

    limits = forms.MultipleChoiceField(
        label=_("Fairness limits for random boards"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=lambda: [(key, label) for key, label in LIMIT_LABELS.items()])


class ApiTokenForm(forms.Form):
    name = LineField(label=_("What the token is for"), max_length=100,
                     help_text=_("For example: the federation's website. Shown in this list and the activity log."))
