"""Google Forms and Microsoft Forms exports read as registration lists: headers, bookkeeping columns, dates."""
import io
from datetime import date, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import Workbook

from championships.list_dates import DAY_FIRST, ISO, MONTH_FIRST, default_format, guess_format, parse_date
from championships.list_file import check_records, header_key, map_columns, parse_list, read_list, read_upload
from engines.csv_input import InputError

FORMS = Path(__file__).resolve().parents[1] / "data" / "forms"
GOOGLE = FORMS / "google-forms-registrations.csv"
MICROSOFT = FORMS / "microsoft-forms-registrations.xlsx"


def test_headers_are_compared_folded_without_a_trailing_hint():
    assert header_key("  What is your FULL name? ") == "what is your full name"
    assert header_key("Date of birth (DD/MM/YYYY) *") == "date of birth"
    assert header_key("date_of_birth") == "date of birth"
    assert header_key("Ｅｍａｉｌ　Address:") == "email address"  # full-width letters and spaces, as NFKC reads them


def test_google_forms_headers_map_and_its_timestamp_is_the_forms_own():
    columns = map_columns(["Timestamp", "Email address", "What is your full name?", "Date of birth (MM/DD/YYYY)",
                           "Country", "Score", "Phone number"])
    assert columns.form == "google"
    assert columns.used == {"name": "What is your full name?", "email": "Email address",
                            "date_of_birth": "Date of birth (MM/DD/YYYY)", "country": "Country"}
    assert columns.form_columns == ("Timestamp", "Score")
    assert columns.unused == ("Phone number",)


def test_microsoft_forms_account_columns_give_way_to_questions():
    headers = ["ID", "Start time", "Completion time", "Email", "Name", "Last modified time", "Full name",
               "Points - Full name", "Date of birth"]
    columns = map_columns(headers)
    assert columns.form == "microsoft"
    assert columns.used == {"name": "Full name", "email": "Email", "date_of_birth": "Date of birth"}
    assert columns.form_columns == ("ID", "Start time", "Completion time", "Last modified time",
                                    "Points - Full name", "Name")
    plain = map_columns(["ID", "Start time", "Completion time", "Email", "Name"])
    assert plain.used == {"name": "Name", "email": "Email"} and plain.form_columns == ("ID", "Start time",
                                                                                         "Completion time")


def test_the_roster_s_own_headers_still_map_first_come_first_served():
    columns = map_columns(["name", "email", "date_of_birth", "country", "friends_or_family", "e-mail"])
    assert list(columns.used) == ["name", "email", "date_of_birth", "country", "friends_or_family"]
    assert columns.used["email"] == "email" and columns.unused == ("e-mail",) and columns.form == ""


def test_an_anonymous_microsoft_forms_response_reads_blank():
    book = Workbook()
    sheet = book.active
    sheet.append(["ID", "Start time", "Completion time", "Email", "Name", "Full name", "Your email address"])
    start, end = datetime(2026, 10, 1, 9), datetime(2026, 10, 1, 9, 5)  # noqa: DTZ001 - Excel cells hold no time zone
    sheet.append([1, start, end, "anonymous", "", "Ann Lee", ""])
    sheet.append([2, start, end, "anonymous", "", "Bo Chen", "bo@example.org"])
    out = io.BytesIO()
    book.save(out)
    upload = read_list("anonymous.xlsx", out.getvalue())
    assert upload.columns.used == {"name": "Full name", "email": "Your email address"}
    assert upload.records == [(2, {"name": "Ann Lee", "email": ""}),
                              (3, {"name": "Bo Chen", "email": "bo@example.org"})]
    only_account = map_columns(["ID", "Start time", "Completion time", "Email", "Full name"])
    assert only_account.used["email"] == "Email"


def test_a_microsoft_forms_question_titled_like_its_account_column_wins():
    book = Workbook()
    book.active.append(["ID", "Start time", "Completion time", "Email", "Name", "Name", "Email"])
    book.active.append([1, "", "", "anonymous", "", "Ann Lee", "ann@example.org"])
    out = io.BytesIO()
    book.save(out)
    upload = read_list("same-titles.xlsx", out.getvalue())
    assert upload.records == [(2, {"name": "Ann Lee", "email": "ann@example.org"})]
    assert upload.columns.form_columns == ("ID", "Start time", "Completion time", "Email", "Name")


def test_a_list_without_any_name_column_is_refused_on_its_first_line():
    for name, data in (("a.csv", b"Timestamp,Email address\n1,a@example.org\n"), ("a.csv", b""),
                       ("a.csv", b"\n\nname\n")):
        with pytest.raises(InputError) as error:
            read_upload(name, data)
        assert [(p.line, p.column) for p in error.value.problems] == [(1, "name")]


@pytest.mark.parametrize(("value", "date_format", "expected"), [
    ("5/31/1990", MONTH_FIRST, date(1990, 5, 31)),
    ("31/05/1990", DAY_FIRST, date(1990, 5, 31)),
    ("31.05.1990", DAY_FIRST, date(1990, 5, 31)),
    ("5/6/1990", DAY_FIRST, date(1990, 6, 5)),
    ("5/6/1990", MONTH_FIRST, date(1990, 5, 6)),
    ("1990-05-31", DAY_FIRST, date(1990, 5, 31)),  # a workbook's date cell, whatever the format chosen
    ("1990-05-31", MONTH_FIRST, date(1990, 5, 31)),
    ("1990-05-31", ISO, date(1990, 5, 31)),
])
def test_a_date_reads_in_the_format_chosen(value, date_format, expected):
    assert parse_date(value, date_format) == expected


@pytest.mark.parametrize(("value", "date_format", "message"), [
    ("5/31/1990", DAY_FIRST, "'5/31/1990' is not a date written day first, like 31/05/1990"),
    ("31/05/1990", MONTH_FIRST, "'31/05/1990' is not a date written month first, like 5/31/1990"),
    ("5/31/1990", ISO, "'5/31/1990' is not a date like 1990-05-31"),
    ("5/31/90", MONTH_FIRST, "'5/31/90' is not a date written month first, like 5/31/1990"),  # which century?
    ("31 May 1990", DAY_FIRST, "'31 May 1990' is not a date written day first, like 31/05/1990"),
])
def test_a_date_that_does_not_read_in_the_chosen_format_says_which_it_expected(value, date_format, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        parse_date(value, date_format)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31)), st.sampled_from("/.-"))
def test_any_date_written_either_way_reads_back_and_a_day_above_12_proves_the_format(day, separator):
    day_first = separator.join([str(day.day), f"{day.month:02}", str(day.year)])
    month_first = separator.join([str(day.month), str(day.day), str(day.year)])
    assert parse_date(day_first, DAY_FIRST) == parse_date(month_first, MONTH_FIRST) == day
    if day.day > 12:
        assert guess_format([(2, day_first)], MONTH_FIRST).format == DAY_FIRST
        assert guess_format([(2, month_first)], DAY_FIRST).format == MONTH_FIRST
    else:
        assert not guess_format([(2, day_first)], DAY_FIRST).certain


def test_a_first_part_above_12_proves_day_first():
    guess = guess_format([(2, "5/6/1990"), (3, "31/05/1990"), (4, "1/2/1980")], MONTH_FIRST)
    assert (guess.format, guess.kind, guess.line, guess.value, guess.certain) == (DAY_FIRST, "proof", 3,
                                                                                 "31/05/1990", True)


def test_a_second_part_above_12_proves_month_first():
    guess = guess_format([(2, ""), (3, "1/2/1980"), (4, "5/31/1990")], DAY_FIRST)
    assert (guess.format, guess.kind, guess.line, guess.value) == (MONTH_FIRST, "proof", 4, "5/31/1990")


def test_dates_that_read_both_ways_are_a_guess_of_the_default():
    values = [(2, "5/6/1990"), (3, "01/02/1985")]
    assert (guess_format(values, DAY_FIRST).format, guess_format(values, DAY_FIRST).kind) == (DAY_FIRST, "ambiguous")
    assert guess_format(values, MONTH_FIRST).format == MONTH_FIRST and not guess_format(values, MONTH_FIRST).certain
    assert default_format("US") == MONTH_FIRST and default_format("AE") == DAY_FIRST and default_format("") == DAY_FIRST


def test_iso_dates_and_no_dates_need_no_guess():
    assert guess_format([(2, "1990-05-31"), (3, "1990-01-02")], DAY_FIRST).kind == "iso"
    assert guess_format([(2, "1990-05-31"), (3, "1990-01-02")], DAY_FIRST).format == ISO
    assert guess_format([(2, ""), (3, " ")], MONTH_FIRST).kind == "none"


def test_a_file_mixing_both_takes_the_format_most_values_prove_and_names_a_dissenter():
    guess = guess_format([(2, "31/05/1990"), (3, "5/31/1990"), (4, "25/12/1980")], MONTH_FIRST)
    assert (guess.format, guess.kind, guess.line, guess.other_line, guess.other_value) == (
        DAY_FIRST, "mixed", 2, 3, "5/31/1990")
    assert not guess.certain


def test_the_google_forms_sample_reads_month_first():
    upload = read_list(GOOGLE.name, GOOGLE.read_bytes())
    assert upload.columns.form == "google" and upload.columns.form_columns == ("Timestamp",)
    assert upload.columns.unused == ("Phone number", "Which events will you play?")
    values = [(line, cells["date_of_birth"]) for line, cells in upload.records]
    assert guess_format(values, DAY_FIRST).format == MONTH_FIRST
    lines = check_records(upload.records, upload.problems, date_format=MONTH_FIRST)
    assert [p for item in lines for p in item.problems] == []
    first = lines[0].row
    assert first is not None and (first.name, first.email, first.date_of_birth, first.country) == (
        "ليلى حداد", "layla.haddad@example.org", date(1990, 5, 31), "AE")
    assert [item.row.country for item in lines if item.row][-2:] == ["US", "ES"]  # "United States" as typed
    refused = check_records(upload.records, upload.problems, date_format=DAY_FIRST)
    assert [(p.line, p.column) for item in refused for p in item.problems] == [(2, "date_of_birth"),
                                                                               (4, "date_of_birth"),
                                                                               (6, "date_of_birth")]


def test_the_microsoft_forms_sample_reads_day_first_with_a_date_cell():
    upload = read_list(MICROSOFT.name, MICROSOFT.read_bytes())
    assert upload.columns.form == "microsoft"
    assert upload.columns.form_columns == ("ID", "Start time", "Completion time", "Last modified time")
    assert upload.columns.used["name"] == "Name" and upload.columns.used["email"] == "Email"
    values = [(line, cells["date_of_birth"]) for line, cells in upload.records]
    assert guess_format(values, MONTH_FIRST).format == DAY_FIRST
    rows = [item.row for item in check_records(upload.records, upload.problems, date_format=DAY_FIRST)]
    assert [(r.name, r.date_of_birth, r.country) for r in rows if r] == [
        ("Nadia Ferreira", date(1990, 5, 31), "PT"), ("Hadi Khoury", date(1988, 11, 4), "LB"),
        ("Farah Saad", date(1996, 8, 17), "LB"), ("Yael Levi", date(1983, 3, 9), "IL"),
        ("كريم منصور", date(2000, 2, 29), "EG")]


def test_the_documented_csv_still_reads_iso_only():
    with pytest.raises(InputError) as error:
        parse_list("name,date_of_birth\nAnn,5/31/1990\n")
    assert [str(p) for p in error.value.problems] == ["line 2, date_of_birth: '5/31/1990' is not a date like "
                                                      "1990-05-31"]
    assert parse_list("Full name,Email address\nAnn,ann@example.org\n")[0].email == "ann@example.org"


ARABIC = FORMS / "google-forms-arabic-first-and-last-names.csv"


@pytest.mark.parametrize(("headers", "used", "surname"), [
    (["Timestamp", "First name", "Last name", "Email address"], {"name": "First name", "email": "Email address"},
     "Last name"),
    (["חותמת זמן", "שם פרטי", "שם משפחה", 'דוא"ל', "תאריך לידה", "מדינה", "חברים"],
     {"name": "שם פרטי", "email": 'דוא"ל', "date_of_birth": "תאריך לידה", "country": "מדינה",
      "friends_or_family": "חברים"}, "שם משפחה"),
    (["نام", "نام خانوادگی", "ایمیل", "تاریخ تولد", "کشور"],
     {"name": "نام", "email": "ایمیل", "date_of_birth": "تاریخ تولد", "country": "کشور"}, "نام خانوادگی"),
])
def test_forms_asked_in_hebrew_persian_or_in_two_name_questions_map(headers, used, surname):
    columns = map_columns(headers)
    assert (columns.used, columns.surname) == (used, surname)


def test_a_last_name_is_not_joined_to_a_full_name_nor_read_without_a_name():
    full = map_columns(["Full name", "Last name", "Email"])
    assert full.used == {"name": "Full name", "email": "Email"} and full.surname == ""
    assert full.unused == ("Last name",)
    assert "name" not in map_columns(["Last name", "Email"]).used


def test_an_arabic_google_forms_export_joins_first_and_last_names():
    upload = read_list(ARABIC.name, ARABIC.read_bytes())
    assert upload.columns.form == "google" and upload.columns.form_columns == ("الطابع الزمني",)
    assert upload.columns.unused == ("رقم الهاتف",) and upload.columns.surname == "اسم العائلة"
    lines = check_records(upload.records, upload.problems, date_format=ISO)
    assert [p for item in lines for p in item.problems] == []
    assert [(item.row.name, item.row.email, item.row.country, item.row.friends_or_family)
            for item in lines if item.row] == [
        ("ليلى حداد", "layla.haddad@example.org", "AE", ("عمر حداد",)),
        ("عمر حداد", "omar.haddad@example.org", "AE", ("ليلى حداد",)),
        ("Sara", "sara@example.org", "IR", ())]  # no last name given: the first name alone
