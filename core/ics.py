"""Calendar files (iCalendar, RFC 5545): a tournament's day, a championship's days, a player's tables. Written with
the icalendar library, which escapes text (§3.3.11), folds lines at 75 octets (§3.1) and writes CRLF endings; times
are given in UTC, so no VTIMEZONE is needed."""
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


def _utc(value: datetime | date) -> datetime | date:
    return value.astimezone(UTC) if isinstance(value, datetime) else value


def calendar(events: Iterable[Event], *, name: str, now: datetime) -> str:
    """The calendar file's text: one VEVENT per event; a date without an end lasts the day."""
    from icalendar import Calendar, vText  # imported by the process that writes a calendar, not by every one
    from icalendar import Event as CalendarEvent

    feed = Calendar()
    feed.add("prodid", "-//catan-tournaments//calendar//EN")
    feed.add("version", "2.0")
    feed.add("calscale", "GREGORIAN")
    feed.add("method", "PUBLISH")
    feed.add("x-wr-calname", vText(name))  # an X- property is not known as text: escaped only when said so
    for event in events:
        end = event.end
        if end is None:
            end = event.start + timedelta(days=1) if not isinstance(event.start, datetime) else event.start
        entry = CalendarEvent()
        entry.add("uid", event.uid)
        entry.add("dtstamp", now.astimezone(UTC))
        entry.add("sequence", event.sequence)
        entry.add("dtstart", _utc(event.start))
        entry.add("dtend", _utc(end))
        entry.add("summary", event.summary)
        for key, text in (("description", event.description), ("location", event.location), ("url", event.url)):
            if text:
                entry.add(key, text)
        feed.add_component(entry)
    return bytes(feed.to_ical()).decode()
