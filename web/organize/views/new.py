"""`/organize/new/`: pick a format preset (each shown with what it creates) or a custom format, adjust it, create it.

Step 1 and step 2 are GET pages that write nothing; only the POST of step 2 creates the championship,
through `championships.setup.create_championship`, which checks permission and the plan again.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championships.formats import ChampionshipPlan, StagePlan, TournamentPlan, plan_from_preset, plan_problems
from championships.permissions import require_championship_creator
from championships.presets import PRESETS
from championships.setup import create_championship
from engines.rulesets import DEFAULT_RULESET
from web.organize.forms import (
    CUSTOM,
    ChampionshipForm,
    StageForm,
    StageFormSet,
    StartForm,
    TournamentForm,
    TournamentFormSet,
    initial_data,
    plan_from_forms,
)
from web.requests import HtmxHttpRequest


def _custom_plan(year: int, tournaments: int) -> ChampionshipPlan:
    """The custom format's starting point: one club tournament, or qualifiers and the finals, of three games each."""
    stages = (StagePlan("preliminary", _("Preliminary round"), 3, "scheduled"),)
    if tournaments == 1:
        plans: tuple[TournamentPlan, ...] = (TournamentPlan(kind="club", name=_("Tournament"), stages=stages),)
    else:
        plans = tuple(TournamentPlan(kind="qualifier", name=_("Qualifier %(n)d") % {"n": n}, advance_count=8,
                                     stages=stages) for n in range(1, tournaments))
        plans += (TournamentPlan(kind="finals", name=_("Finals"), stages=stages),)
    return ChampionshipPlan(name=_("Championship %(year)d") % {"year": year}, year=year,
                            scope="club", ruleset=DEFAULT_RULESET, tournaments=plans)


def _base_plan(key: str, year: int, tournaments: int) -> ChampionshipPlan:
    return _custom_plan(year, tournaments) if key == CUSTOM else plan_from_preset(key, year=year)


def _presets_shown(year: int) -> list[tuple[str, object, ChampionshipPlan]]:
    return [(key, preset, plan_from_preset(key, year=year)) for key, preset in PRESETS.items()]


@login_required
def new_championship(request: HtmxHttpRequest) -> HttpResponse:
    require_championship_creator(request.user)
    source = request.POST if request.method == "POST" else request.GET
    start = StartForm(source if "preset" in source else None,
                      initial={"year": timezone.localdate().year, "preset": next(iter(PRESETS))})
    if not start.is_bound or not start.is_valid():
        year = start.cleaned_data.get("year") if start.is_bound and hasattr(start, "cleaned_data") else None
        return render(request, "organize/new_start.html", {
            "start": start, "presets": _presets_shown(year or timezone.localdate().year)})
    key, year = start.cleaned_data["preset"], start.cleaned_data["year"]
    count = start.cleaned_data["tournaments"] or 1
    base = _base_plan(key, year, count)
    if request.method == "POST":
        return _create(request, key, year, count, base)
    championship, tournaments, stages = initial_data(base)
    if key == CUSTOM:  # spare rows: a semifinal and a final seated by rank, left out unless given games
        stages = [row for i in range(len(tournaments)) for row in
                  [s for s in stages if s["tournament"] == i]
                  + [{"tournament": i, "kind": kind, "seating": "seeded"} for kind in ("semifinal", "final")]]
    return _adjust_page(request, key, year, count, ChampionshipForm(initial=championship, prefix="c"),
                        TournamentFormSet(initial=tournaments, prefix="t"),
                        StageFormSet(initial=stages, prefix="s"))


def _create(request: HtmxHttpRequest, key: str, year: int, count: int, base: ChampionshipPlan) -> HttpResponse:
    championship = ChampionshipForm(request.POST, prefix="c")
    tournaments = TournamentFormSet(request.POST, prefix="t")
    stages = StageFormSet(request.POST, prefix="s")
    if championship.is_valid() and tournaments.is_valid() and stages.is_valid():
        plan, stage_forms = plan_from_forms(base, championship, tournaments, stages)
        problems = plan_problems(plan)
        if not problems:
            try:
                created = create_championship(plan, user=request.user)
            except ValidationError as error:
                problems = getattr(error, "message_dict", {"__all__": error.messages})
            else:
                n = len(plan.tournaments)
                messages.success(request, ngettext(
                    "%(name)s is created with %(n)d tournament. Next: add players and appoint referees.",
                    "%(name)s is created with %(n)d tournaments. Next: add players and appoint referees.", n)
                    % {"name": created.name, "n": n})
                return redirect("organize-championship", championship_slug=created.slug)
        _attach(problems, championship, tournaments, stage_forms)
    return _adjust_page(request, key, year, count, championship, tournaments, stages, status=422)


def _attach(problems: dict[str, list[str]], championship: ChampionshipForm,
            tournaments: "forms.BaseFormSet[TournamentForm]", stage_forms: dict[str, forms.Form]) -> None:
    """Put each problem of the plan on the field it concerns ("t1-s0-games" → stage 0 of tournament 1, games)."""
    for key, messages_ in problems.items():
        parts = key.split("-")
        if len(parts) == 3 and f"{parts[0]}-{parts[1]}" in stage_forms:
            form, field = stage_forms[f"{parts[0]}-{parts[1]}"], parts[2]
        elif len(parts) == 2 and parts[0].startswith("t") and parts[0][1:].isdigit():
            form, field = tournaments.forms[int(parts[0][1:])], parts[1]
        else:
            form, field = championship, key
        form.add_error(field if field in form.fields else None, messages_)


def _adjust_page(request: HtmxHttpRequest, key: str, year: int, count: int, championship: ChampionshipForm,
                 tournaments: "forms.BaseFormSet[TournamentForm]", stages: "forms.BaseFormSet[StageForm]",
                 status: int = 200) -> HttpResponse:
    by_tournament: dict[int, list[forms.Form]] = {}
    for form in stages.forms:
        index = form["tournament"].value()
        by_tournament.setdefault(int(index) if str(index).isascii() and str(index).isdigit() else 0, []).append(form)
    rows = [(i, form, by_tournament.get(i, [])) for i, form in enumerate(tournaments.forms)]
    return render(request, "organize/new_adjust.html", {
        "key": key, "year": year, "count": count, "preset": PRESETS.get(key), "custom": key == CUSTOM,
        "championship": championship, "tournaments": tournaments, "stages": stages, "rows": rows,
    }, status=status)
