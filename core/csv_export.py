"""CSV downloads that spreadsheet programs open safely, with names in any script."""
import csv
from collections.abc import Iterable

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """The cell as text; one that a spreadsheet would run as a formula gets a leading apostrophe."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_response(filename: str, header: list[str], rows: Iterable[Iterable[object]]) -> HttpResponse:
    """A UTF-8 CSV attachment with a byte-order mark (so spreadsheets read Arabic and Hebrew names)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return response
