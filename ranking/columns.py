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


def standings_columns(ruleset_key: str) -> list[Column]:
    return [Column(k) for k in ruleset_for(ruleset_key).columns]
