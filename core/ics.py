"""Calendar files (iCalendar, RFC 5545) for a tournament's day: a few events of a fixed shape, so written here
rather than with a library: text escaped (§3.3.11), lines folded at 75 octets (§3.1), CRLF endings, times in UTC."""
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

CONTENT_TYPE = "text/calendar; charset=utf-8"


@dataclass(frozen=True)
class Event:
    uid: str
    """Stable for the same event, so a calendar that imports the file again updates it instead of adding one."""
    summary: str
    start: datetime | date
    """An aware datetime, or a date for a whole day."""
    end: datetime | date | None = None
    description: str = ""
    location: str = ""
    url: str = ""
    sequence: int = 0
    """Raised when the event changes (a new seating), so calendars take the newer one."""


def _text(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\n")
            .replace("\r", "\n").replace("\n", "\\n"))


def _when(value: datetime | date) -> str:
    if isinstance(value, datetime):
        return ":" + value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return ";VALUE=DATE:" + value.strftime("%Y%m%d")


def _fold(line: str) -> list[str]:
    """The line cut into pieces of at most 75 octets (never inside a character), each after the first indented."""
    pieces: list[str] = []
    current, size = "", 0
    for char in line:
        width = len(char.encode())
        if size + width > (75 if not pieces else 74):
            pieces.append(current)
            current, size = "", 0
        current += char
        size += width
    pieces.append(current)
    return [pieces[0], *(" " + piece for piece in pieces[1:])]


def calendar(events: Iterable[Event], *, name: str, now: datetime) -> str:
    """The calendar file's text: one VEVENT per event."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//catan-tournaments//calendar//EN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{_text(name)}"]
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    for event in events:
        end = event.end
        if end is None:
            end = event.start + timedelta(days=1) if not isinstance(event.start, datetime) else event.start
        lines += ["BEGIN:VEVENT", f"UID:{_text(event.uid)}", f"DTSTAMP:{stamp}", f"SEQUENCE:{event.sequence}",
                  f"DTSTART{_when(event.start)}", f"DTEND{_when(end)}", f"SUMMARY:{_text(event.summary)}"]
        if event.description:
            lines.append(f"DESCRIPTION:{_text(event.description)}")
        if event.location:
            lines.append(f"LOCATION:{_text(event.location)}")
        if event.url:
            lines.append(f"URL:{event.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(piece + "\r\n" for line in lines for piece in _fold(line))
