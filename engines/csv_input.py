"""Reading a CSV file handed in by people, with every problem tied to its line.

One reader for the `rank` and `seat` commands (files named on the command line) and the roster
upload (text from a form), so encoding, header, blank rows and line numbers are handled alike;
each caller then checks what its own columns mean. `stream_file` hands a large file over row by row,
so that a results file of 400,000 rows is never held whole. Pure code: plain data in and out.
"""
from __future__ import annotations

import codecs
import csv
import io
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

NOT_UTF8 = "this is not UTF-8 text; save the file as UTF-8 CSV."
Record = tuple[int, dict[str, str]]
"""The first line of a row (1-based) and its stripped cells by lower-case column name."""


@dataclass(frozen=True)
class InputProblem:
    line: int | None
    """1-based line of the file; None when the problem is the file as a whole."""
    message: str
    column: str | None = None
    """The column(s) concerned, if any; shown only where there is no file name (see InputError)."""

    def __str__(self) -> str:
        """The problem where there is no file name to show, e.g. `line 4, country: message`."""
        where = ", ".join(part for part in (self.line and f"line {self.line}", self.column) if part)
        return f"{where}: {self.message}" if where else self.message


class InputError(ValueError):
    """Everything wrong with one input, each problem rendered as FILE:LINE: message.

    Text without a file name (path None, e.g. an upload) renders each problem as `line N, column: message`.
    """

    def __init__(self, path: str | None, problems: Iterable[InputProblem]) -> None:
        self.path, self.problems = path, list(problems)
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        if self.path is None:
            return [str(p) for p in self.problems]
        return [f"{self.path}:{p.line}: {p.message}" if p.line else f"{self.path}: {p.message}"
                for p in self.problems]


def read_file(
    path: str, required: tuple[str, ...], *, ragged: bool = False,
) -> tuple[list[Record], list[InputProblem]]:
    """The records of a UTF-8 CSV file (with or without a byte-order mark) and their shape problems.

    Raises InputError naming the file when it is unusable as a whole: unreadable, not UTF-8, a bad header.
    """
    problems: list[InputProblem] = []
    records = list(stream_file(path, required, problems, ragged=ragged))
    return records, problems


def stream_file(
    path: str, required: tuple[str, ...], problems: list[InputProblem], *, ragged: bool = False,
) -> Iterator[Record]:
    """`read_file` one record at a time: shape problems are added to `problems` as the rows go by, and
    an unusable file raises InputError when it is met (a byte that is not UTF-8 may come late).
    """
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            yield from _records(path, handle, required, ragged, problems)
    except UnicodeDecodeError:
        raise InputError(path, [InputProblem(_first_undecodable_line(path), NOT_UTF8)]) from None
    except OSError as e:
        raise InputError(path, [InputProblem(None, f"cannot read the file ({e.strerror or e}).")]) from None


def _first_undecodable_line(path: str) -> int:
    """The line of the file's first byte that is not UTF-8, read again in pieces (the error path only)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    newlines = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 16)
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as e:  # e.object: the chunk after any incomplete character kept from before
                return newlines + e.object.count(b"\n", 0, e.start) + 1
            if not chunk:
                return newlines + 1
            newlines += chunk.count(b"\n")


def read_text(
    text: str, required: tuple[str, ...], *, ragged: bool = False, delimiter: str = ",",
    max_rows: int | None = None, max_columns: int | None = None,
) -> tuple[list[Record], list[InputProblem]]:
    """Like read_file, for text already decoded (an upload); the InputError it raises has no file name.

    `delimiter`: spreadsheets in many locales save "CSV" with semicolons. Limits for text from strangers:
    `max_rows` records at most are read (a caller asking for one more than it accepts refuses a longer file
    without holding it all); cells right of `max_columns`, in the header too, are ignored.
    """
    problems: list[InputProblem] = []
    lines = io.StringIO(text.removeprefix("\ufeff"), newline="")
    records = list(itertools.islice(_records(None, lines, required, ragged, problems, delimiter, max_columns),
                                    max_rows))
    return records, problems


def _records(
    path: str | None, lines: Iterable[str], required: tuple[str, ...], ragged: bool, problems: list[InputProblem],
    delimiter: str = ",", max_columns: int | None = None,
) -> Iterator[Record]:
    """Rows whose cells are all blank are skipped. A row with more or fewer cells than the header is a
    problem, unless `ragged`: then missing cells read as empty and extra cells are ignored.
    """
    reader = csv.reader(lines, delimiter=delimiter)
    expected = ",".join(required)
    try:
        header = next(reader, None)
        if header is None:
            raise InputError(path, [InputProblem(1, f"the file is empty; it needs a header row {expected}.")])
        columns = [c.strip().lower() for c in header[:max_columns]]
        missing = [c for c in required if c not in columns]
        if missing:
            message = f"missing column(s) {', '.join(missing)}; the header must include {expected}."
            raise InputError(path, [InputProblem(1, message, ", ".join(missing))])
        counts = Counter(columns)
        doubled = sorted(c for c, n in counts.items() if c and n > 1)
        if doubled:
            message = f"column(s) {', '.join(doubled)} appear more than once."
            raise InputError(path, [InputProblem(1, message, ", ".join(doubled))])
        end = reader.line_num
        for cells in reader:
            line, end = end + 1, reader.line_num  # a quoted cell may span lines: name the row's first
            cells = cells[:max_columns]
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(columns):
                if not ragged:
                    problems.append(InputProblem(line, f"{len(cells)} fields, but the header has {len(columns)}."))
                    continue
                cells += [""] * (len(columns) - len(cells))
            yield line, {c: v.strip() for c, v in zip(columns, cells)}
    except csv.Error as e:
        raise InputError(path, [InputProblem(reader.line_num, f"this is not readable CSV ({e}).")]) from None
