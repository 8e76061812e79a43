"""The standings columns of a ruleset, and how each value reads on a page and in a CSV."""
from dataclasses import dataclass

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _

from engines.metrics import METRICS, Metric, Unit
from engines.rulesets import ruleset_for


@dataclass(frozen=True)
class Column:
    key: str

    @property
    def metric(self) -> Metric:
        return METRICS[self.key]

    @property
    def label(self) -> str:
        return _(self.metric.label)

    @property
    def has_decimals(self) -> bool:
        return self.metric.unit in (Unit.SHARE, Unit.PERCENT, Unit.DECIMAL)

    def show(self, value, places: int = 2) -> str:
        """Rounded to `places` decimals (two unless neighbours need more) in the page's number format, a
        no-break space before "%" so it never wraps alone; the ranking itself compared exact values."""
        if value is None:
            return "–"
        unit = self.metric.unit
        if unit == Unit.SHARE:
            return f"{floatformat(value * 100, places)}\u00a0%"
        if unit == Unit.PERCENT:
            return f"{floatformat(value, places)}\u00a0%"
        if unit == Unit.DECIMAL:
            return floatformat(value, places)
        return str(value)

    def plain(self, value, places: int = 2) -> str:
        """For the CSV: the API's unit (a share of 1, percent points, a decimal) to the precision the page shows
        (`places` decimals of the page's number, so a share gets two more); the JSON API keeps the exact value."""
        if value is None:
            return ""
        unit = self.metric.unit
        if unit == Unit.SHARE:
            return f"{float(value):.{places + 2}f}"
        if unit in (Unit.PERCENT, Unit.DECIMAL):
            return f"{float(value):.{places}f}"
        return str(value)


DEDUCTED = "vp_deducted"
"""The standing row's VP taken off its total VP by penalties (a late arrival, a VP deduction)."""


@dataclass(frozen=True)
class DeductionColumn(Column):
    """The VP deducted from a player's total, beside the total (issue 32 item 6): not a metric, a fact of the
    penalties; "–" for a player without one."""

    key: str = DEDUCTED

    @property
    def label(self) -> str:
        return _("VP deducted")

    @property
    def has_decimals(self) -> bool:
        return False

    def show(self, value, places: int = 2) -> str:
        return str(value) if value else "–"

    def plain(self, value, places: int = 2) -> str:
        return str(value or 0)


def standings_columns(ruleset_key: str, rows: list[dict] | None = None) -> list[Column]:
    """The ruleset's columns; with the VP deducted after total VP when one of `rows` has a deduction."""
    columns = [Column(k) for k in ruleset_for(ruleset_key).columns]
    if rows and any(row.get(DEDUCTED) for row in rows):
        after = next(i for i, c in enumerate(columns) if c.key == "total_vp") + 1
        columns.insert(after, DeductionColumn())
    return columns
