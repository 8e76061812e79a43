"""One table, two downloads: CSV (`core.csv_export`) or an Excel workbook (.xlsx), with the same fixed English keys
and rows, so every export view answers both from one header and one row iterator.

The workbook is written in openpyxl's write-only mode (rows go to a temporary file as they come, so a 3,000-player
table costs no more memory than a row), right to left when the request's language is (Arabic, Hebrew, Persian:
Django's LANGUAGES_BIDI, as the pages' `dir`), with the header row bold and frozen. A cell that is a number (an
int, a float, or text that reads as a plain decimal such as the CSV's "12.500000") is a number cell; everything
else is text. Text a spreadsheet would run as a formula (starting with = + - @ tab or CR, as `safe_cell`) is
written as a string cell marked "quote prefix", never as a formula: it shows as typed and stays text when edited.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language_bidi

from .csv_export import FORMULA_STARTS, csv_response
from .pdf_cache import cached_pdf, pdf_key
from .pdf_limits import render_slot
from .ratelimit import Busy

if TYPE_CHECKING:
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAX_TEXT = 32767
"""Excel refuses (asks to repair) a workbook with a longer cell; only an audit entry's JSON could reach it."""
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?")
"""Text that is a plain decimal: no leading zero (a code such as "007" stays text), no exponent, at most 15
digits before the point (beyond them a spreadsheet rounds the number)."""
_SHEET_TITLE_BAD = re.compile(r"[\[\]:*?/\\]")


def sheet_title(stem: str) -> str:
    """A title Excel accepts: at most 31 characters, none of []:*?/\\, not starting or ending with an apostrophe."""
    return _SHEET_TITLE_BAD.sub("-", stem).strip("'")[:31] or "Sheet"


def _cell(sheet: WriteOnlyWorksheet, value: object) -> object:
    """The value as a number, or text that is never a formula."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if isinstance(value, bool) or value is None:  # as the CSV writes them: "True", "False", empty
        value = "" if value is None else str(value)
    if isinstance(value, (int, float)):
        return value
    text = ILLEGAL_CHARACTERS_RE.sub("", str(value))[:MAX_TEXT]
    if _NUMBER.fullmatch(text):
        return float(text) if "." in text else int(text)
    if not text.startswith(FORMULA_STARTS):
        return text
    cell = WriteOnlyCell(sheet, value=text)
    cell.data_type = "s"  # openpyxl takes a leading "=" for a formula
    cell.quotePrefix = True
    return cell


def xlsx_bytes(title: str, header: list[str], rows: Iterable[Iterable[object]], *, rtl: bool) -> bytes:
    """The workbook: one sheet, the header row bold and frozen, right to left if `rtl`. openpyxl (about 20 MB) is
    imported here, by the process that writes a workbook, not by every web process that loads the URLs."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font

    book = Workbook(write_only=True)
    sheet = book.create_sheet(sheet_title(title))
    sheet.sheet_view.rightToLeft = rtl
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    head = []
    for key in header:
        cell = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("", key))
        cell.data_type, cell.font = "s", bold
        head.append(cell)
    sheet.append(head)
    for row in rows:
        sheet.append([_cell(sheet, value) for value in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_response(filename: str, data: bytes) -> HttpResponse:
    response = HttpResponse(data, content_type=XLSX_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def table_response(fmt: str, stem: str, header: list[str], rows: Iterable[Iterable[object]]) -> HttpResponse:
    """`stem`.csv or `stem`.xlsx (`fmt`, from the route) of the same header and rows."""
    if fmt == "xlsx":
        return xlsx_response(f"{stem}.xlsx", xlsx_bytes(stem, header, rows, rtl=bool(get_language_bidi())))
    return csv_response(f"{stem}.csv", header, rows)


def public_table_response(request: HttpRequest, fmt: str, stem: str, version: Callable[[], str | None],
                          key: Iterable[object],
                          table: Callable[[], tuple[list[str], Iterable[Iterable[object]]]]) -> HttpResponse:
    """A table anyone may download: the CSV as before; the workbook written once per `version()` (the data's;
    None: no cache), `key` (what else picks the rows) and direction, then read from the cache (`core.pdf_cache`,
    which also makes a second request wait for the first's work). Writing one holds a client slot as a PDF layout does
    (`core.pdf_limits`); `busy_limited` answers 429 past them. `table()` reads the rows only when they are
    written, so a cache hit reads nothing from the database."""
    if fmt != "xlsx":
        return csv_response(f"{stem}.csv", *table())
    rtl = bool(get_language_bidi())

    def written() -> bytes:
        with render_slot(request):
            header, rows = table()
            return xlsx_bytes(stem, header, rows, rtl=rtl)

    current = version()
    if current is None:
        return xlsx_response(f"{stem}.xlsx", written())
    return xlsx_response(f"{stem}.xlsx", cached_pdf(pdf_key("xlsx", [stem, *key, current, rtl]), written))


def busy_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A public table view: past the slots (`public_table_response`), 429 with Retry-After and a short page."""
    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Busy as busy:
            response = render(request, "pdf_busy.html", {"seconds": busy.retry_after, "workbook": True},
                              status=429)
            response["Retry-After"] = str(busy.retry_after)
            response["Cache-Control"] = "no-store"
            return response
    return limited
