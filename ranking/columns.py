"""Which standings columns a ruleset shows, and how each value reads on a page and in a CSV."""
from dataclasses import dataclass

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext_lazy as _

from .engine import ruleset_for

LABELS = {
    "games": _("Games"), "wins": _("Wins"), "total_vp": _("Total VP"), "vp_share": _("VP share"),
    # xgettext:no-python-format
    "vp_percent_sum": _("VP % sum"),
    "seconds": _("2nd places"), "thirds": _("3rd places"), "tempo": _("Tempo"),
}
PERCENT_OF_ONE = {"vp_share"}
PERCENT = {"vp_percent_sum"}
DECIMAL = {"tempo"}


@dataclass(frozen=True)
class Column:
    key: str

    @property
    def label(self) -> str:
        return LABELS[self.key]

    def show(self, value) -> str:
        """Two decimals, rounded, for people; the ranking itself compared exact values."""
        if value is None:
            return "–"
        if self.key in PERCENT_OF_ONE:
            return f"{floatformat(value * 100, 2)} %"
        if self.key in PERCENT:
            return f"{floatformat(value, 2)} %"
        if self.key in DECIMAL:
            return floatformat(value, 2)
        return str(value)

    def plain(self, value) -> str:
        """Full precision for spreadsheets."""
        return "" if value is None else repr(value)


def standings_columns(ruleset_key: str) -> list[Column]:
    """Games, wins and total VP, then the ruleset's own tiebreakers in precedence order."""
    keys = ["games", "wins", "total_vp"]
    keys += [k for k in ruleset_for(ruleset_key).computed if k not in keys]
    return [Column(k) for k in keys]
