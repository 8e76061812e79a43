"""Registration lists (CSV or XLSX) read into plain rows, with every problem named by line and column.

Columns: name (required), email, date_of_birth (YYYY-MM-DD, or a date cell in a workbook; day-first and
month-first dates in the format the organizer chooses, see `list_dates`), country (an ISO 3166 code or a
country's name in English, Arabic, Hebrew or Persian) and friends_or_family (names of other players, separated
by ';'). Headers are matched loosely ("Date of birth", "Friends", "What is your full name?", "الاسم", "שם מלא",
"نام"), including those of Google Forms and Microsoft Forms exports, whose own bookkeeping columns (Timestamp,
ID, Start time…) are ignored and named as such in the preview; a "Last name" question is joined to the name.

The file's shape is checked here, without the database; `championships.list_import` then checks
each row against the players already registered and the tournament they are entered in.
"""
import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from core.names import fold
from core.text import clean_line, has_control
from core.uploads import MAX_UPLOAD_BYTES
from core.xlsx import Limits, first_sheet
from engines.csv_input import InputError, InputProblem, Record, read_text

from .countries import country_code_for
from .eligibility import check_birth_date
from .list_dates import ISO, parse_date

MAX_BYTES = MAX_UPLOAD_BYTES
"""The largest upload read (a few thousand players fit in far less); bigger ones are refused while they arrive."""
MAX_ROWS = 2000
MAX_LINES = 20_000
"""The last line of a workbook read (blank rows count): a sheet reaching further is refused, not truncated."""
MAX_COLUMNS = 20
"""Cells right of this column are ignored unread: the five columns a list knows, and room for others."""
XLSX_LIMITS = Limits(unpacked=16 * 1024 * 1024, rows=MAX_LINES, columns=MAX_COLUMNS, elements=250_000)
"""A workbook is a zip of XML: what it may unpack to, and how many XML elements (a cell is one to three) are read
before it is refused. A list of 2,000 players × 20 columns is far below both. A 101 KB file of one row of 900,000
cells (34 MB of XML; openpyxl: 13.5 s of CPU, 880 MB) is refused at once; 380,000 cells in 14 MB after 0.2 s."""
MAX_LENGTHS = {"name": 200, "email": 254, "date_of_birth": 40, "country": 100, "friends_or_family": 1000}
"""The longest cell read per column; the first two are the Player fields' own maximums."""
COLUMNS = tuple(MAX_LENGTHS)
ALIASES = {
    "full name": "name", "player": "name", "e-mail": "email", "mail": "email",
    "date of birth": "date_of_birth", "date-of-birth": "date_of_birth", "dob": "date_of_birth",
    "birth date": "date_of_birth", "birthdate": "date_of_birth", "born": "date_of_birth",
    "nationality": "country", "friends": "friends_or_family", "family": "friends_or_family",
    "friends or family": "friends_or_family", "friends/family": "friends_or_family",
    "friends family": "friends_or_family",
    # question titles as forms ask them (a trailing "?", ":", "*" or "(…)" hint is ignored, see `header_key`)
    "your name": "name", "your full name": "name", "what is your name": "name", "what is your full name": "name",
    "name and surname": "name", "first and last name": "name", "player name": "name", "participant name": "name",
    "email address": "email", "e-mail address": "email", "your email": "email", "your email address": "email",
    "your date of birth": "date_of_birth", "birthday": "date_of_birth", "when were you born": "date_of_birth",
    "your country": "country", "country of residence": "country", "which country do you represent": "country",
    "friends and family": "friends_or_family",
    "first name": "name", "given name": "name", "forename": "name",
    # forms asked in Arabic, Hebrew and Persian (`header_key` folds hamza, alef and yeh forms and the Arabic "?")
    "الاسم": "name", "الاسم الكامل": "name", "الاسم الثلاثي": "name", "اسم اللاعب": "name", "اسمك": "name",
    "ما اسمك": "name", "الاسم الأول": "name", "البريد الإلكتروني": "email", "الإيميل": "email",
    "عنوان البريد الإلكتروني": "email", "بريدك الإلكتروني": "email", "تاريخ الميلاد": "date_of_birth",
    "تاريخ ميلادك": "date_of_birth", "الدولة": "country", "البلد": "country", "الجنسية": "country",
    "بلد الإقامة": "country", "الأصدقاء": "friends_or_family", "العائلة": "friends_or_family",
    "الأصدقاء والعائلة": "friends_or_family", "الأصدقاء أو العائلة": "friends_or_family",
    "שם": "name", "שם מלא": "name", "שם השחקן": "name", "מה שמך": "name", "שם פרטי": "name", "אימייל": "email",
    "דוא\"ל": "email", "דואר אלקטרוני": "email", "כתובת אימייל": "email", "כתובת דוא\"ל": "email",
    "תאריך לידה": "date_of_birth", "מדינה": "country", "ארץ": "country", "לאום": "country",
    "חברים": "friends_or_family", "משפחה": "friends_or_family", "חברים ומשפחה": "friends_or_family",
    "חברים או משפחה": "friends_or_family",
    "نام": "name", "نام کامل": "name", "نام و نام خانوادگی": "name", "نام بازیکن": "name", "نام کوچک": "name",
    "ایمیل": "email", "پست الکترونیک": "email", "آدرس ایمیل": "email", "تاریخ تولد": "date_of_birth",
    "کشور": "country", "ملیت": "country", "دوستان": "friends_or_family", "خانواده": "friends_or_family",
    "دوستان و خانواده": "friends_or_family", "دوستان یا خانواده": "friends_or_family",
}
"""Header → column, keyed as `header_key` reads a header. Google Forms' collected "Email address" is one."""
SURNAMES = ("last name", "surname", "family name", "اسم العائلة", "الكنية", "שם משפחה", "نام خانوادگی")
"""A question asking for the last name alone: joined after the name column ("First name", "Name"), unless that
one asks for the full name (`FULL_NAMES`)."""
FULL_NAMES = ("full name", "your full name", "what is your full name", "name and surname", "first and last name",
              "الاسم الكامل", "الاسم الثلاثي", "שם מלא", "نام کامل", "نام و نام خانوادگی")
GOOGLE_TIMESTAMPS = ("timestamp", "الطابع الزمني", "חותמת זמן", "مهر زمانی", "برچسب زمان")
"""The first column of a Google Forms export, in English, Arabic, Hebrew and Persian."""
FORM_COLUMNS = frozenset({
    *GOOGLE_TIMESTAMPS, "score",  # Google Forms
    "id", "start time", "completion time", "last modified time", "total points", "quiz feedback",
    "grade posted time",  # Microsoft Forms
})
"""The columns a forms service adds of its own (when and how each answer came in): ignored, and said so."""
FORM_COLUMN_PREFIXES = ("points - ", "feedback - ")
"""Microsoft Forms quizzes add a points and a feedback column per question."""
MICROSOFT_FORMS = frozenset({"id", "start time", "completion time"})
MICROSOFT_ACCOUNT = {"name": "name", "email": "email"}
"""Microsoft Forms' own Name and Email: the respondent's account ("anonymous" when the form is open to anyone),
used only when no question asks for the same."""
ANONYMOUS = "anonymous"


def header_key(header: str) -> str:
    """A header as compared: folded as names are (`core.names.fold`: NFKD, case, accents, spacing), "_" as a space,
    and a trailing hint such as "(DD/MM/YYYY)" or a "?", ":" or "*" dropped."""
    key = " ".join(fold(header).replace("_", " ").split())
    marks = " ?:*.\u061f"  # ؟ the Arabic question mark
    return re.sub(r"\s*\([^()]*\)$", "", key.strip(marks)).strip(marks)


_HEADERS = {header_key(k): v for k, v in {**{c: c for c in MAX_LENGTHS}, **ALIASES}.items()}
_SURNAMES = frozenset(map(header_key, SURNAMES))
_FULL_NAMES = frozenset(map(header_key, FULL_NAMES))
_FORM_COLUMNS = frozenset(map(header_key, FORM_COLUMNS))
_GOOGLE = frozenset(map(header_key, GOOGLE_TIMESTAMPS))


@dataclass(frozen=True)
class Columns:
    """How a file's header was read: the header each column comes from, and the headers left out."""

    used: dict[str, str]
    """Column → the header as written."""
    form: str = ""
    """"google" or "microsoft" when the header is a forms export's."""
    form_columns: tuple[str, ...] = ()
    """The forms service's own columns, ignored."""
    unused: tuple[str, ...] = ()
    """Other headers, ignored."""
    surname: str = ""
    """The header of a last-name question, joined after the name ("Ann" "Lee": "Ann Lee")."""

    def as_dict(self) -> dict:
        return {"used": self.used, "form": self.form, "form_columns": list(self.form_columns),
                "unused": list(self.unused), "surname": self.surname}

    @classmethod
    def from_dict(cls, data: dict) -> "Columns":
        return cls({str(k): str(v) for k, v in data.get("used", {}).items()}, str(data.get("form", "")),
                   tuple(map(str, data.get("form_columns", ()))), tuple(map(str, data.get("unused", ()))),
                   str(data.get("surname", "")))


def map_columns(headers: Sequence[str]) -> Columns:
    """Which header each column comes from: the first header naming it, a forms export's account columns last, and
    a last-name question joined to a name column that does not already ask for the full name."""
    keys = [header_key(h) for h in headers]
    microsoft = set(keys) >= MICROSOFT_FORMS
    form = "microsoft" if microsoft else "google" if keys and keys[0] in _GOOGLE else ""
    used: dict[str, str] = {}
    account: dict[str, str] = {}
    form_columns, unused = [], []
    surname = ""
    for header, key in zip(headers, keys):
        if not header.strip():
            continue
        if key in _SURNAMES and not surname:
            surname = header
        elif key in _FORM_COLUMNS or key.startswith(FORM_COLUMN_PREFIXES):
            form_columns.append(header)
        elif microsoft and key in MICROSOFT_ACCOUNT and MICROSOFT_ACCOUNT[key] not in account:
            account[MICROSOFT_ACCOUNT[key]] = header
        elif key in _HEADERS and _HEADERS[key] not in used:
            used[_HEADERS[key]] = header
        else:
            unused.append(header)
    for column, header in account.items():
        if column in used:
            form_columns.append(header)
        else:
            used[column] = header
    if surname and ("name" not in used or header_key(used["name"]) in _FULL_NAMES):
        unused.append(surname)
        surname = ""
    ordered = {c: used[c] for c in MAX_LENGTHS if c in used}
    return Columns(ordered, form, tuple(form_columns), tuple(unused), surname)


@dataclass(frozen=True)
class ListRow:
    line: int
    name: str
    email: str
    date_of_birth: date | None
    country: str
    friends_or_family: tuple[str, ...]


@dataclass
class ListLine:
    """One row of the file as typed, what it means (None if unreadable) and what is wrong with it."""

    line: int
    cells: dict[str, str]
    row: ListRow | None = None
    problems: list[InputProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Worth knowing but not wrong (an existing player reused), shown in the preview."""

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Upload:
    """An uploaded list's rows by line, keyed by the list's columns; rows the reader could not read; its header."""

    records: list[Record]
    problems: list[InputProblem]
    columns: Columns


def read_upload(filename: str, data: bytes) -> tuple[list[Record], list[InputProblem]]:
    """The rows of an uploaded CSV or XLSX file, by line, with the column names the list uses, and the rows the
    reader could not read (`read_list`, without how the header was read)."""
    upload = read_list(filename, data)
    return upload.records, upload.problems


def read_list(filename: str, data: bytes) -> Upload:
    """An uploaded CSV or XLSX file: its rows by line, keyed by the list's columns, and how its header was read.

    Raises InputError when the file as a whole is unusable (too big, not CSV or XLSX, no name column); a message
    about a limit names the file and the limit.
    """
    if len(data) > MAX_BYTES:
        raise InputError(None, [InputProblem(None, _("%(file)s is larger than %(mb)d MB.")
                                             % {"file": filename, "mb": MAX_BYTES >> 20})])
    if data.startswith(b"\xd0\xcf\x11\xe0"):  # the old binary Excel format (.xls)
        raise InputError(None, [InputProblem(None, _("Old Excel files (.xls) cannot be read: save the list as .xlsx "
                                                     "or as CSV UTF-8."))])
    if data.startswith(b"PK\x03\x04") or filename.lower().endswith((".xlsx", ".xlsm")):
        headers, records, problems = _xlsx_records(data, filename)
    else:
        headers, records, problems = _csv_records(data)
    columns = map_columns(headers)
    if "name" not in columns.used:
        raise InputError(None, [InputProblem(1, _("The first row must name the columns, including “name”."),
                                             "name")])
    if len(records) > MAX_ROWS:
        raise InputError(None, [InputProblem(None, _("%(file)s has more than %(max)d players; split it.")
                                             % {"file": filename, "max": MAX_ROWS})])
    return Upload([(line, _renamed(cells, columns)) for line, cells in records], problems, columns)


def _renamed(cells: dict[str, str], columns: Columns) -> dict[str, str]:
    """Cells keyed by the list's own column names (`cells` are keyed by lower-case header); the rest dropped.
    Microsoft Forms' account columns say "anonymous" for a respondent not signed in: read as blank."""
    out = {}
    for column, header in columns.used.items():
        value = cells.get(header.strip().lower(), "")
        if columns.form == "microsoft" and header_key(header) in MICROSOFT_ACCOUNT and fold(value) == ANONYMOUS:
            value = ""
        out[column] = value
    if columns.surname and "name" in out:
        last = cells.get(columns.surname.strip().lower(), "").strip()
        out["name"] = " ".join(part for part in (out["name"].strip(), last) if part)
    return out


def _decoded(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(None, [InputProblem(line, _("This is not UTF-8 text: save the file as “CSV UTF-8” "
                                                     "or as an Excel workbook (.xlsx)."))]) from None


def _csv_records(data: bytes) -> tuple[list[str], list[Record], list[InputProblem]]:
    text = _decoded(data).removeprefix("\ufeff")
    header = text.split("\n", 1)[0]
    delimiter = ";" if header.count(";") > header.count(",") else ","
    headers = next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), [])[:MAX_COLUMNS]
    if not any(h.strip() for h in headers):
        return [], [], []  # refused for want of a name column
    records, problems = read_text(text, (), ragged=True, delimiter=delimiter, max_rows=MAX_ROWS + 1,
                                  max_columns=MAX_COLUMNS)
    return [h.strip() for h in headers], records, problems


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _xlsx_records(data: bytes, filename: str) -> tuple[list[str], list[Record], list[InputProblem]]:
    """The first sheet of a workbook, within `XLSX_LIMITS` (core/xlsx.py), rows numbered as in Excel."""
    rows = first_sheet(data, filename, XLSX_LIMITS)
    header = [_cell_text(c) for c in (rows[0][1] if rows and rows[0][0] == 1 else [])]
    columns = [c.lower() for c in header]
    records: list[Record] = []
    for line, values in rows[1:]:
        cells = [_cell_text(v) for v in values] + [""] * (len(columns) - len(values))
        if any(cells):
            records.append((line, {c: v for c, v in zip(columns, cells) if c}))
        if len(records) > MAX_ROWS:
            break
    return header, records, []


def check_records(records: list[Record], problems: Sequence[InputProblem] = (), *,
                  date_format: str = ISO) -> list[ListLine]:
    """Each row read and checked on its own and against the others (the database is not consulted).

    `problems` are the reader's (rows it could not read); they are attached to their lines. Dates of birth are
    read in `date_format` (`list_dates.FORMATS`; ISO unless the organizer chose otherwise). Two rows may
    share a name when their emails or dates of birth tell them apart (namesakes), but then neither can
    be named as a friend by name.
    """
    lines = [ListLine(line, {c: cells.get(c, "") for c in COLUMNS}) for line, cells in records]
    for problem in problems:
        lines.append(ListLine(problem.line or 0, {c: "" for c in COLUMNS}, problems=[problem]))
    lines.sort(key=lambda item: item.line)
    names: dict[str, list[ListRow]] = {}
    emails: dict[str, int] = {}
    for item in lines:
        if item.problems:
            continue
        _check_line(item, names, emails, date_format)
    for item in lines:
        if item.row is None:
            continue
        for friend in item.row.friends_or_family:
            if fold(friend) == fold(item.row.name):
                item.problems.append(InputProblem(item.line, _("a player cannot name themselves"),
                                                  "friends_or_family"))
            elif len(names.get(fold(friend), ())) > 1:
                item.problems.append(InputProblem(
                    item.line, _("%(n)d players in the list are named %(name)s: declare this relationship from "
                                 "the relationships page") % {"n": len(names[fold(friend)]), "name": friend},
                    "friends_or_family"))
    return lines


def told_apart(one: ListRow, other: ListRow) -> bool:
    """Namesakes are two people when their emails, or their dates of birth, differ."""
    return bool((one.email and other.email and one.email != other.email)
                or (one.date_of_birth and other.date_of_birth and one.date_of_birth != other.date_of_birth))


def _check_line(item: ListLine, names: dict[str, list[ListRow]], emails: dict[str, int],
                date_format: str) -> None:
    cells, line, found = item.cells, item.line, item.problems
    for column, value in cells.items():
        if len(value) > MAX_LENGTHS[column]:
            found.append(InputProblem(line, _("longer than %(max)d characters") % {"max": MAX_LENGTHS[column]},
                                      column))
        elif has_control(value):
            found.append(InputProblem(line, _("contains control characters"), column))
    if found:
        return
    name = clean_line(cells["name"])  # as every name is stored: one line, nothing invisible (core/text.py)
    if not name:
        found.append(InputProblem(line, _("the name is empty"), "name"))
    email = cells["email"].strip().lower()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            found.append(InputProblem(line, _("'%(email)s' is not an email address") % {"email": email}, "email"))
        else:
            if email in emails:
                found.append(InputProblem(line, _("the email %(email)s is already on line %(line)d")
                                          % {"email": email, "line": emails[email]}, "email"))
            emails.setdefault(email, line)
    born = None
    if cells["date_of_birth"]:
        try:
            born = parse_date(cells["date_of_birth"], date_format)
        except ValueError as error:
            found.append(InputProblem(line, str(error), "date_of_birth"))
        else:
            try:
                check_birth_date(born)
            except ValidationError as error:
                found.append(InputProblem(line, " ".join(error.messages), "date_of_birth"))
    country = ""
    if cells["country"]:
        country = country_code_for(cells["country"]) or ""
        if not country:
            found.append(InputProblem(line, _("'%(value)s' is not a country name or ISO code")
                                      % {"value": cells["country"]}, "country"))
    friends = tuple(dict.fromkeys(clean_line(n) for n in cells["friends_or_family"].split(";") if clean_line(n)))
    if not name:
        return
    row = ListRow(line, name, email, born, country, friends)
    same = names.setdefault(fold(name), [])
    twin = next((other for other in same if not told_apart(row, other)), None)
    if twin is not None:
        found.append(InputProblem(line, _("%(name)s is already on line %(line)d: give each an email or a date of "
                                          "birth to tell them apart") % {"name": name, "line": twin.line}, "name"))
    same.append(row)
    item.row = row


def parse_list(text: str) -> list[ListRow]:
    """Read a whole CSV text; raise InputError listing every problem, so one upload fixes them all.

    Short rows are read with the missing cells empty, as spreadsheets often write them. Friends must
    be in the same file (the import pages also accept players already registered).
    """
    lines = check_records(*read_upload("players.csv", text.encode("utf-8")))
    known = {fold(item.row.name) for item in lines if item.row}
    problems = [p for item in lines for p in item.problems]
    for item in lines:
        for friend in item.row.friends_or_family if item.row else ():
            if fold(friend) not in known:
                problems.append(InputProblem(item.line, _("%(name)s is not in the file") % {"name": friend},
                                             "friends_or_family"))
    if problems:
        raise InputError(None, problems)
    return [item.row for item in lines if item.row is not None]  # a line without a row has a problem
