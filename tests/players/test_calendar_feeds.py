"""Calendar feeds (issue 27 item 4): a tournament's and a championship's days as iCalendar files that a calendar
library reads back as written: dates, the official start, the venue, one stable event per tournament."""
from datetime import UTC, date, datetime, time

import pytest
from icalendar import Calendar

from core.ics import Event, calendar
from tests.factories import make_championship, make_tournament

pytestmark = pytest.mark.django_db


def events(response) -> list:
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    feed = Calendar.from_ical(response.content)
    assert feed["VERSION"] == "2.0" and feed["PRODID"]
    return feed.walk("VEVENT")


def test_the_championship_feed_has_each_dated_tournament(client):
    championship = make_championship(name="UAE 2022", slug="uae-feed")
    dubai = make_tournament(championship=championship, slug="dubai-feed", name="Dubai qualifier", city="Dubai",
                            venue="Hall 3, Expo; east", date=date(2022, 6, 11), official_start=time(10, 30))
    make_tournament(championship=championship, slug="abu-feed", name="Abu Dhabi qualifier", date=date(2022, 9, 3))
    make_tournament(championship=championship, slug="finals-feed", kind="finals", name="Finals", date=None)

    found = {str(e["SUMMARY"]): e for e in events(client.get("/c/uae-feed/calendar.ics"))}
    assert set(found) == {"Dubai qualifier", "Abu Dhabi qualifier"}  # the undated finals are not in it yet
    first = found["Dubai qualifier"]
    assert first.decoded("DTSTART") == datetime(2022, 6, 11, 6, 30, tzinfo=UTC)  # 10:30 in Dubai (UTC+4)
    assert str(first["LOCATION"]) == "Hall 3, Expo; east, Dubai"  # escaped on the way out, read back as written
    assert str(first["URL"]) == f"https://catan.example/t/{dubai.slug}/" and str(first["UID"]).startswith("tournament-")
    assert found["Abu Dhabi qualifier"].decoded("DTSTART") == date(2022, 9, 3)  # no start time: the whole day
    assert found["Abu Dhabi qualifier"].decoded("DTEND") == date(2022, 9, 4)
    assert client.get("/c/no-such/calendar.ics").status_code == 404


def test_the_tournament_feed_is_the_same_event(client):
    championship = make_championship(slug="one-feed")
    tournament = make_tournament(championship=championship, slug="one-day", name="One day", date=date(2022, 6, 11))
    (alone,) = events(client.get(f"/t/{tournament.slug}/calendar.ics"))
    (listed,) = events(client.get("/c/one-feed/calendar.ics"))
    assert alone["UID"] == listed["UID"] and alone.decoded("DTSTART") == date(2022, 6, 11)


def test_long_names_in_any_script_fold_and_read_back():
    name = "بطولة كاتان الوطنية، التصفيات؛ " * 5 + "\nsecond line"
    text = calendar([Event("x@catan", name, datetime(2022, 6, 11, 9, tzinfo=UTC), description=name)], name=name,
                    now=datetime(2022, 6, 1, tzinfo=UTC))
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    (event,) = Calendar.from_ical(text).walk("VEVENT")
    assert str(event["SUMMARY"]) == name and str(event["DESCRIPTION"]) == name
