"""The VP deductions a referee may record: only those the tournament's rules have (docs/rules.md §4, Penalties).

Which exist is a ruleset fact (`Ruleset.vp_deductions`): none under `cnc-2022` besides the late arrival's 1 VP
(001 §6, recorded as a late arrival), none under `cwc-2025` (004's penalties are warnings and
disqualification), and under `lord-of-catan` the 2 points for arguing a ruling and the organizers' fine for
cheating (003, Rule clarifications and disputes). Deductions recorded before the rules named them keep counting.
"""
from django.utils.translation import gettext as _

from engines.rulesets import Ruleset, VpDeduction, ruleset_for

MAX_DEDUCTION_VP = 40
"""The largest fine the form accepts: more than any total a tournament reaches."""


def deduction_label(deduction: VpDeduction) -> str:
    """The deduction in words with what it costs: "arguing against a ruling (2 VP)"."""
    if deduction.vp is None:
        return _("%(deduction)s (VP as the organizers decide)") % {"deduction": _(deduction.label)}
    return _("%(deduction)s (%(vp)d VP)") % {"deduction": _(deduction.label), "vp": deduction.vp}


def deduction_name(ruleset: Ruleset | str, key: str) -> str:
    """The ruleset's name of a recorded deduction, translated; "" for one recorded before the rules named them."""
    found = ruleset_for(ruleset).vp_deduction(key) if key else None
    return _(found.label) if found else ""


def deduction_errors(tournament, key: str, vp: int) -> dict[str, list[str]]:
    """Why the tournament's rules refuse this VP deduction (by form field); empty when they have it at that VP.

    A form crafted by hand is refused here too: the service calls this, whatever the form offered.
    """
    rules = ruleset_for(tournament.ruleset)
    if not rules.vp_deductions:
        return {"kind": [_no_deduction(tournament, rules)]}
    deduction = rules.vp_deduction(key)
    if deduction is None:
        return {"deduction": [_("Choose which VP deduction of these rules it is: %(choices)s.") % {
            "choices": "; ".join(deduction_label(d) for d in rules.vp_deductions)}]}
    if deduction.vp is not None and vp != deduction.vp:
        return {"vp": [_("A deduction for %(deduction)s costs exactly %(vp)d VP.")
                       % {"deduction": _(deduction.label), "vp": deduction.vp}]}
    if not 1 <= vp <= MAX_DEDUCTION_VP:
        return {"vp": [_("A VP deduction is from 1 to %(max)d VP.") % {"max": MAX_DEDUCTION_VP}]}
    return {}


def _no_deduction(tournament, rules: Ruleset) -> str:
    if rules.lateness is not None:
        return _("The rules of %(tournament)s deduct VP only for a late arrival: record it as a late arrival.") % {
            "tournament": tournament.name}
    return _("The rules of %(tournament)s have no VP deduction: their penalties are warnings and "
             "disqualification.") % {"tournament": tournament.name}
