"""Registration lists from strangers cost bounded work (issue 22 item 5): a 101 KB workbook cost 14-25 s of CPU.

The upload is capped while it arrives; a workbook is refused past its unpacked bytes or its XML elements, cells
right of the columns read are skipped unread, a sheet whose `dimension` lies loses no row silently, and a CSV
stops being read past the rows and columns a list can have. Each refusal names the file and the limit.
"""
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from championships.list_file import MAX_COLUMNS, MAX_ROWS, XLSX_LIMITS, read_upload
from core.uploads import MAX_UPLOAD_BYTES, RefusedUpload
from engines.csv_input import InputError
from tests.factories import make_official, make_tournament
from tests.hostile_files import SHEET, cell, declared_size, lying_dimension, one_huge_row, row, workbook


def refusal(filename: str, data: bytes) -> str:
    with pytest.raises(InputError) as error:
        read_upload(filename, data)
    return str(error.value)


def peak_bytes(function) -> int:
    tracemalloc.start()
    try:
        function()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_one_row_of_900000_cells_is_refused_naming_the_file_and_the_limit():
    said = refusal("huge.xlsx", one_huge_row())
    assert said == ("huge.xlsx unpacks to more than 16 MB: a list of players needs far less; save it again with "
                    "the list only, or as CSV UTF-8.")
    assert peak_bytes(lambda: refusal("huge.xlsx", one_huge_row())) < 4 << 20  # openpyxl: 880 MB


def test_a_workbook_under_the_unpacked_limit_is_refused_past_its_elements():
    """380,000 cells unpack to 14 MB, under the limit: the element budget stops the reading (openpyxl: 5.7 s)."""
    data = workbook(row(1, cell("name") + cell("x") * 380_000))
    said = refusal("wide.xlsx", data)
    assert said.startswith(f"wide.xlsx holds more than {XLSX_LIMITS.elements:,} cells and other XML elements")
    assert peak_bytes(lambda: refusal("wide.xlsx", data)) < 16 << 20


def test_the_sizes_the_zip_declares_are_checked_before_unpacking_and_the_real_ones_while_unpacking():
    data = workbook(row(1, cell("name")) + row(2, cell("Ann Lee")))
    assert "unpacks to more than 16 MB" in refusal("claims.xlsx", declared_size(data, SHEET, XLSX_LIMITS.unpacked))
    # Declaring less than it holds: the reading stops at the declared size, and the part does not check out.
    assert "cannot be read as an Excel workbook" in refusal("lies.xlsx", declared_size(data, SHEET, 40))


def test_cells_right_of_the_columns_read_are_skipped():
    wide = b"".join(cell(f"junk{n}") for n in range(MAX_COLUMNS + 1, 400))
    data = workbook(row(1, cell("name") + cell("email", "B1") + wide)
                    + row(2, cell("Ann Lee") + cell("ann@example.org") + wide)
                    + row(3, cell("Bob Ray", "A3") + cell("email", f"{'Z' * 3}3")))
    records, problems = read_upload("wide.xlsx", data)
    assert problems == []
    assert records == [(2, {"name": "Ann Lee", "email": "ann@example.org"}), (3, {"name": "Bob Ray", "email": ""})]


def test_a_sheet_whose_dimension_lies_is_refused_not_truncated():
    """openpyxl's read-only mode takes the sheet's own word for its last row: the player on row 25,000 of a sheet
    claiming A1:A2 was dropped without a word."""
    assert refusal("short.xlsx", lying_dimension(25_000)) == (
        "short.xlsx reaches row 25000; at most 20000 rows are read: delete the rows below the list.")
    records, _problems = read_upload("short.xlsx", lying_dimension(500))
    assert [line for line, _cells in records] == [2, 500]


def test_a_csv_of_a_million_lines_is_refused_without_holding_them():
    data = b"name\n" + b"a\n" * 1_000_000
    assert refusal("long.csv", data) == f"long.csv has more than {MAX_ROWS} players; split it."
    assert peak_bytes(lambda: refusal("long.csv", data)) < 12 << 20  # every row held: about 300 MB


def test_a_csv_reads_only_the_columns_a_list_can_have():
    """A header of many columns was compared with itself column by column (quadratic: 200,000 ran for minutes),
    and a column named twice far right refused the file; now cells right of column 20 are ignored, the header's
    too."""
    header = ["name", "email"] + [f"c{n}" for n in range(3, MAX_COLUMNS + 1)] + ["email"] * 20_000
    data = (",".join(header) + "\nAnn Lee,ann@example.org\n").encode()
    records, problems = read_upload("wide.csv", data)
    assert problems == [] and records[0][1] == {"name": "Ann Lee", "email": "ann@example.org"}


@pytest.mark.django_db
def test_an_upload_over_the_limit_is_not_kept_and_the_form_names_it(client):
    """Django kept the whole body (in a temporary file past 2.5 MB) before the form looked at its size."""
    tournament = make_tournament()
    client.force_login(make_official(tournament, "organizer"))
    data = b"name\n" + b"Ann Lee\n" * (MAX_UPLOAD_BYTES // 8 + 1000)
    response = client.post(reverse("organize-player-import", args=[tournament.slug]),
                           {"file": SimpleUploadedFile("players.csv", data)})
    assert response.status_code == 422
    upload = response.wsgi_request.FILES["file"]
    assert isinstance(upload, RefusedUpload) and upload.size == len(data)
    assert "players.csv is larger than 2 MB." in response.content.decode()


@pytest.mark.django_db
def test_an_upload_at_the_limit_is_read(client):
    tournament = make_tournament()
    client.force_login(make_official(tournament, "organizer"))
    data = b"name,date_of_birth\nAnn Lee,1990-01-31\n"
    data += b"\n" * (MAX_UPLOAD_BYTES - len(data))  # blank lines are no rows
    response = client.post(reverse("organize-player-import", args=[tournament.slug]),
                           {"file": SimpleUploadedFile("players.csv", data)})
    assert response.status_code == 200 and "Ann Lee" in response.content.decode()
