"""The first sheet of an untrusted Excel workbook (.xlsx) as rows of values, read within limits.

A workbook is a zip of XML parts, and a small file can unpack to far more: a 101 KB upload held one row of
900,000 cells (34 MB of XML) that cost openpyxl 14 s of CPU and 880 MB. So nothing here trusts what the file
declares. Each part is unpacked in pieces and counted against a budget of bytes (the sizes the zip declares are
checked first); cells right of the columns wanted are skipped unread; every XML element met counts against a
budget, so the work is bounded whatever the shape; rows are numbered as found, never as the sheet's `dimension`
claims, and a value below the last row read refuses the file instead of being dropped. XML is read by expat
with no document type (no entities). openpyxl's helpers say which number formats are dates.
"""
import io
import posixpath
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from xml.parsers import expat

from django.utils.translation import gettext as _

from engines.csv_input import InputError, InputProblem

CHUNK = 64 * 1024
_RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_STRICT_RELATIONSHIPS = "http://purl.oclc.org/ooxml/officeDocument/relationships}id"

Value = str | int | float | bool | datetime | date | time | timedelta
"""A cell's value: openpyxl reads a date cell as a datetime, a date, a time of day or a duration."""
Attributes = dict[str, str]
StartHandler = Callable[[str, Attributes], None]
TextHandler = Callable[[str], None]


@dataclass(frozen=True)
class Limits:
    unpacked: int
    """Bytes unpacked from the zip, all the parts read together."""
    rows: int
    """The last row read: a value further down refuses the file (blank rows count, as in Excel)."""
    columns: int
    """Cells right of this column are skipped unread."""
    elements: int
    """XML elements met in all the parts read (a cell is one to three): bounds the work whatever the shape."""


def first_sheet(data: bytes, filename: str, limits: Limits) -> list[tuple[int, list[Value | None]]]:
    """(row number as in Excel, values of its first `limits.columns` cells) of each row holding a value.

    Raises InputError naming the file: unreadable, or beyond a limit.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise _unreadable(filename) from None
    with archive:
        return _Workbook(archive, filename, limits).rows()


def _unreadable(filename: str) -> InputError:
    return InputError(None, [InputProblem(None, _("%(file)s cannot be read as an Excel workbook (.xlsx); save it "
                                                  "again as .xlsx or as CSV UTF-8.") % {"file": filename})])


def _refused(message: str) -> InputError:
    return InputError(None, [InputProblem(None, message)])


class _Stop(Exception):
    """Raised inside an expat handler to stop reading a part: carries the InputError to raise."""

    def __init__(self, error: InputError) -> None:
        self.error = error


def _local(name: str) -> str:
    """`{namespace}tag` (expat's form here) as `tag`: transitional and strict workbooks name things alike."""
    return name.rpartition("}")[2]


def _column(reference: str) -> int:
    """The column number of a cell reference ("AB12" is 28); ValueError if it is not one."""
    letters = reference.rstrip("0123456789")
    if not letters or len(letters) > 7 or not letters.isascii() or not letters.isalpha():
        raise ValueError(reference)
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number


class _Workbook:
    def __init__(self, archive: zipfile.ZipFile, filename: str, limits: Limits) -> None:
        self.archive, self.filename, self.limits = archive, filename, limits
        self.unpacked = 0
        self.elements = 0

    # ---- reading one part ---------------------------------------------------------------------------------------

    def _parse(self, name: str, start: StartHandler, end: TextHandler | None = None, text: TextHandler | None = None,
               *, required: bool = True) -> bool:
        """Stream the part `name` through expat with these handlers; False if it is absent and not required."""
        try:
            info = self.archive.getinfo(name)
        except KeyError:
            if required:
                raise _unreadable(self.filename) from None
            return False
        if info.file_size > self.limits.unpacked - self.unpacked:
            raise self._too_big()
        parser = expat.ParserCreate(namespace_separator="}")
        parser.StartDoctypeDeclHandler = self._no_doctype
        parser.buffer_text = True

        def counted_start(tag: str, attributes: Attributes) -> None:
            self.elements += 1
            if self.elements > self.limits.elements:
                raise _Stop(self._too_many())
            start(_local(tag), attributes)

        parser.StartElementHandler = counted_start
        if end is not None:
            parser.EndElementHandler = lambda tag: end(_local(tag))
        if text is not None:
            parser.CharacterDataHandler = text
        try:
            with self.archive.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    self.unpacked += len(chunk)
                    if self.unpacked > self.limits.unpacked:  # more than declared: zipfile stops there, we too
                        raise self._too_big()
                    parser.Parse(chunk, False)
                parser.Parse(b"", True)
        except _Stop as stop:
            raise stop.error from None
        except InputError:
            raise
        except Exception:  # damage to an untrusted file (zip, XML, numbers) is one answer
            raise _unreadable(self.filename) from None
        return True

    def _no_doctype(self, *_args: object) -> None:
        raise _Stop(_unreadable(self.filename))

    def _too_big(self) -> InputError:
        return _refused(_("%(file)s unpacks to more than %(mb)d MB: a list of players needs far less; save it "
                          "again with the list only, or as CSV UTF-8.")
                        % {"file": self.filename, "mb": self.limits.unpacked >> 20})

    def _too_many(self) -> InputError:
        return _refused(_("%(file)s holds more than %(max)s cells and other XML elements, far more than a list "
                          "needs: delete what is outside the list, or save it as CSV UTF-8.")
                        % {"file": self.filename, "max": f"{self.limits.elements:,}"})

    # ---- the parts ------------------------------------------------------------------------------------------------

    def _relationships(self, name: str) -> dict[str, tuple[str, str]]:
        """Id → (type's last word, target path in the zip) of a relationships part."""
        found: dict[str, tuple[str, str]] = {}
        base = posixpath.dirname(posixpath.dirname(name))  # xl/_rels/workbook.xml.rels → xl

        def start(tag: str, attributes: Attributes) -> None:
            if tag == "Relationship" and attributes.get("TargetMode") != "External":
                target = attributes.get("Target", "")
                path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
                    posixpath.join(base, target))
                found[attributes.get("Id", "")] = (attributes.get("Type", "").rpartition("/")[2], path)

        self._parse(name, start, required=False)
        return found

    def rows(self) -> list[tuple[int, list[Value | None]]]:
        from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH  # openpyxl: only where a workbook is read

        top = self._relationships("_rels/.rels")
        workbook = next((path for kind, path in top.values() if kind == "officeDocument"), "xl/workbook.xml")
        sheets: list[str] = []
        date1904 = [False]

        def workbook_start(tag: str, attributes: Attributes) -> None:
            if tag == "sheet":
                sheets.append(attributes.get(_RELATIONSHIPS) or attributes.get(_STRICT_RELATIONSHIPS) or "")
            elif tag == "workbookPr":
                date1904[0] = attributes.get("date1904", "0").lower() in ("1", "true")

        self._parse(workbook, workbook_start)
        parts = self._relationships(posixpath.join(posixpath.dirname(workbook), "_rels",
                                                   posixpath.basename(workbook) + ".rels"))
        if not sheets or sheets[0] not in parts:
            raise _unreadable(self.filename)
        by_kind = {kind: path for kind, path in parts.values()}
        dates = self._date_styles(by_kind.get("styles"))
        strings = self._strings(by_kind.get("sharedStrings"))
        return self._sheet(parts[sheets[0]][1], strings, dates, MAC_EPOCH if date1904[0] else WINDOWS_EPOCH)

    def _date_styles(self, name: str | None) -> set[int]:
        from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format

        """The cell styles (indexes) whose number format shows a date."""
        if name is None:
            return set()
        custom: dict[int, str] = {}
        formats: list[int] = []
        inside = [""]

        def start(tag: str, attributes: Attributes) -> None:
            if tag in ("cellXfs", "cellStyleXfs"):
                inside[0] = tag
            elif tag == "numFmt":
                custom[int(attributes.get("numFmtId", -1))] = attributes.get("formatCode", "")
            elif tag == "xf" and inside[0] == "cellXfs":
                formats.append(int(attributes.get("numFmtId", 0)))

        def end(tag: str) -> None:
            if tag in ("cellXfs", "cellStyleXfs"):
                inside[0] = ""

        self._parse(name, start, end, required=False)
        return {index for index, fmt in enumerate(formats) if is_date_format(custom.get(fmt, BUILTIN_FORMATS.get(fmt)))}

    def _strings(self, name: str | None) -> list[str]:
        """The shared strings: the text of each item's runs, without phonetic guides."""
        strings: list[str] = []
        if name is None:
            return strings
        parts: list[str] | None = None  # the runs of the item being read
        in_text = False
        phonetic = 0

        def start(tag: str, _attributes: Attributes) -> None:
            nonlocal parts, in_text, phonetic
            if tag == "si":
                parts = []
            elif tag == "rPh":
                phonetic += 1
            elif tag == "t" and parts is not None and not phonetic:
                in_text = True

        def end(tag: str) -> None:
            nonlocal parts, in_text, phonetic
            if tag == "si" and parts is not None:
                strings.append("".join(parts))
                parts = None
            elif tag == "rPh":
                phonetic -= 1
            elif tag == "t":
                in_text = False

        def text(data: str) -> None:
            if in_text and parts is not None:
                parts.append(data)

        self._parse(name, start, end, text, required=False)
        return strings

    def _sheet(self, name: str, strings: list[str], dates: set[int], epoch: datetime,
               ) -> list[tuple[int, list[Value | None]]]:
        sheet = _SheetReader(self, strings, dates, epoch)
        self._parse(name, sheet.start, sheet.end, sheet.text)
        return sheet.rows


class _SheetReader:
    """The handlers reading a worksheet's rows: a cell right of the columns wanted is counted and skipped."""

    def __init__(self, book: _Workbook, strings: list[str], dates: set[int], epoch: datetime) -> None:
        self.book, self.strings, self.dates, self.epoch = book, strings, dates, epoch
        self.limits = book.limits
        self.rows: list[tuple[int, list[Value | None]]] = []
        self.row = 0
        self.column = 0
        self.values: list[Value | None] = []
        self.cell: tuple[str, int] | None = None
        """(type, style) of the cell being read; None while outside a cell or skipping one."""
        self.capture: list[str] | None = None
        self.phonetic = 0

    def start(self, tag: str, attributes: Attributes) -> None:
        if tag == "c":
            reference = attributes.get("r")
            self.column = _column(reference) if reference else self.column + 1
            self.cell = None
            if self.column <= self.limits.columns:
                self.cell = (attributes.get("t", "n"), int(attributes.get("s", 0)))
                self.parts: list[str] = []
        elif self.cell is None:
            if tag == "row":
                reference = attributes.get("r")
                self.row = int(reference) if reference else self.row + 1
                self.column = 0
                self.values = []
        elif tag == "rPh":
            self.phonetic += 1
        elif (tag == "v" or tag == "t") and not self.phonetic:
            self.capture = self.parts

    def text(self, data: str) -> None:
        if self.capture is not None:
            self.capture.append(data)

    def end(self, tag: str) -> None:
        if tag == "c":
            if self.cell is not None:
                value = self._value("".join(self.parts), *self.cell)
                if value is not None and value != "":
                    self.values.extend([None] * (self.column - len(self.values)))
                    self.values[self.column - 1] = value
            self.cell = None
        elif self.cell is not None:
            if tag in ("v", "t"):
                self.capture = None
            elif tag == "rPh":
                self.phonetic -= 1
        elif tag == "row" and self.values:
            if self.row > self.limits.rows:
                raise _Stop(_refused(_("%(file)s reaches row %(n)d; at most %(max)d rows are read: delete the "
                                       "rows below the list.")
                                     % {"file": self.book.filename, "n": self.row, "max": self.limits.rows}))
            self.rows.append((self.row, self.values))
            self.values = []

    def _value(self, text: str, kind: str, style: int) -> Value | None:
        from openpyxl.utils.datetime import from_excel

        if not text:
            return None
        if kind == "s":
            return self.strings[int(text)]
        if kind in ("inlineStr", "str", "e"):
            return text
        if kind == "b":
            return text.strip() == "1"
        if kind == "d":  # a date written as ISO 8601 text
            try:
                return datetime.fromisoformat(text)
            except ValueError:
                return text
        number = float(text) if any(c in text for c in ".eE") else int(text)
        if style in self.dates:
            try:
                shown: datetime | time = from_excel(number, self.epoch)
                return shown
            except (OverflowError, ValueError):
                return text
        return number
