"""Dates of birth as registration lists write them, and a guess of which way a file writes them.

Forms exports write dates as the form owner's locale does: `5/31/1990` (month first, the United States),
`31/05/1990` or `31.05.1990` (day first, most of the world), or `1990-05-31` (ISO 8601). `5/6/1990` means
either of two days, so the organizer chooses the format in the import preview; the file's own values guess it
first: a first part above 12 can only be a day (day first), a second part above 12 likewise (month first).
"""
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

ISO, DAY_FIRST, MONTH_FIRST = "iso", "day_first", "month_first"
FORMATS = (ISO, DAY_FIRST, MONTH_FIRST)
FORMAT_LABELS = {
    DAY_FIRST: gettext_lazy("Day first (31/12/1990)"),
    MONTH_FIRST: gettext_lazy("Month first (12/31/1990)"),
    ISO: gettext_lazy("ISO (1990-12-31)"),
}
MONTH_FIRST_COUNTRIES = frozenset({"US", "AS", "GU", "MP", "PR", "UM", "VI", "FM", "MH", "PW", "PH"})
"""Where dates are written month first (the United States, its territories, and a few states that follow it)."""

_PARTS = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})")


def default_format(country_code: str) -> str:
    """The format taken when nothing in a file tells: month first in the countries that write it so, day first
    everywhere else (most of the world, and every country whose language this site speaks besides English)."""
    return MONTH_FIRST if country_code in MONTH_FIRST_COUNTRIES else DAY_FIRST


def parse_date(value: str, date_format: str) -> date:
    """The date `value` means in `date_format`. A value starting with a four-digit year is read as ISO whatever
    the format (nothing else writes the year first, and a workbook's date cells arrive that way).

    Raises ValueError with a message for the organizer naming the format expected.
    """
    value = value.strip()
    parts = _PARTS.fullmatch(value)
    if date_format == ISO or parts is None:
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise ValueError(_expected(value, date_format)) from None
    first, second, year = (int(p) for p in parts.groups())
    day, month = (first, second) if date_format == DAY_FIRST else (second, first)
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(_expected(value, date_format)) from None


def _expected(value: str, date_format: str) -> str:
    if date_format == DAY_FIRST:
        return _("'%(value)s' is not a date written day first, like 31/05/1990") % {"value": value}
    if date_format == MONTH_FIRST:
        return _("'%(value)s' is not a date written month first, like 5/31/1990") % {"value": value}
    return _("'%(value)s' is not a date like 1990-05-31") % {"value": value}


@dataclass(frozen=True)
class Guess:
    """The format a file's dates seem to be in, and why."""

    format: str
    kind: str
    """"none": no dates; "iso": none written day/month/year; "proof": a value proves the format; "mixed": values
    prove both (the format most of them prove is taken); "ambiguous": every value reads both ways (the default)."""
    line: int = 0
    value: str = ""
    """The first value proving the format (and, when mixed, the first proving the other)."""
    other_line: int = 0
    other_value: str = ""

    @property
    def certain(self) -> bool:
        return self.kind in ("none", "iso", "proof")


def guess_format(values: Iterable[tuple[int, str]], default: str) -> Guess:
    """The format of (line, value) dates: a first part above 12 proves day first, a second part above 12
    proves month first; without proof, `default` (`default_format`), flagged as a guess."""
    day_proofs: list[tuple[int, str]] = []
    month_proofs: list[tuple[int, str]] = []
    written = found = False
    for line, value in values:
        value = value.strip()
        if not value:
            continue
        found = True
        parts = _PARTS.fullmatch(value)
        if parts is None:
            continue
        written = True
        first, second = int(parts[1]), int(parts[2])
        if first > 12 >= second:
            day_proofs.append((line, value))
        elif second > 12 >= first:
            month_proofs.append((line, value))
    if not written:
        return Guess(ISO, "iso" if found else "none")
    if day_proofs and month_proofs:
        day_ahead = (len(day_proofs) > len(month_proofs)
                     or (len(day_proofs) == len(month_proofs) and default == DAY_FIRST))
        ahead, behind = (day_proofs, month_proofs) if day_ahead else (month_proofs, day_proofs)
        return Guess(DAY_FIRST if day_ahead else MONTH_FIRST, "mixed", *ahead[0], *behind[0])
    if day_proofs or month_proofs:
        return Guess(DAY_FIRST if day_proofs else MONTH_FIRST, "proof", *(day_proofs or month_proofs)[0])
    return Guess(default, "ambiguous")
