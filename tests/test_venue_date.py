"""A date that depends on "today" is the venue's date (Django's current time zone), not the server process's.

The process below runs in Pago Pago (UTC-11) and the venue is Kiritimati (UTC+14): 25 hours apart, so their dates
always differ, and a date of birth of the venue's today is refused if the check asks the process for the date.
"""
import time

import pytest
from django.utils import timezone

from championships.list_file import check_records
from web.organize.people_forms import PlayerForm

VENUE = "Pacific/Kiritimati"


@pytest.fixture
def server_a_day_behind(monkeypatch):
    monkeypatch.setenv("TZ", "Pacific/Pago_Pago")
    time.tzset()
    with timezone.override(VENUE):
        yield timezone.localdate()
    monkeypatch.undo()
    time.tzset()


def test_the_player_form_takes_a_birth_date_up_to_the_venues_today(server_a_day_behind):
    form = PlayerForm({"name": "Ann Lee", "date_of_birth": server_a_day_behind.isoformat(), "kind": "friend"})
    assert form.is_valid(), form.errors


def test_a_registration_list_takes_a_birth_date_up_to_the_venues_today(server_a_day_behind):
    (line,) = check_records([(2, {"name": "Ann Lee", "date_of_birth": server_a_day_behind.isoformat()})])
    assert line.ok, line.problems
