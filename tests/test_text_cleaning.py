"""Names are one visible line (issue 22, item 8): `core.text` cleans and checks them for every form, import and model.

The holes: a line break in a tournament's name made every start-time email fail (an invalid subject) every
quarter of an hour; zero-width and right-to-left-override characters were accepted, so two names that look
identical were different players, and a name could reverse the text around it on a page.
"""
from datetime import date, datetime, time

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from championships.list_file import parse_list
from championships.models import Championship, Player
from core.mail import queue_email
from core.text import clean_line, one_line
from engines.csv_input import InputError
from notices import start_time
from tests.factories import make_official, make_player, make_tournament
from tests.organize.test_console import _adjust_form, creator

ZWSP, ZWNJ, ZWJ, LRM, RLO, PDF, NBSP = "\u200b", "\u200c", "\u200d", "\u200e", "\u202e", "\u202c", "\u00a0"


@pytest.mark.parametrize(("typed", "stored"), [
    ("Ann Lee", "Ann Lee"),
    (f"Ann{ZWSP} Lee", "Ann Lee"),
    (f"A{ZWSP}nn Lee", "Ann Lee"),                      # looks like "Ann Lee": is "Ann Lee"
    (f"{RLO}eeL nnA{PDF}", "eeL nnA"),                  # no longer reverses what follows it on a page
    (f"{LRM}Ann Lee\u2066x\u2069", "Ann Leex"),
    (f"  Ann{NBSP}{NBSP}Lee\u3000 ", "Ann Lee"),
    ("Ann\u00adLee", "AnnLee"),                          # a soft hyphen
    ("Ann\ufeffLee\U000e0041", "AnnLee"),               # a byte-order mark, a tag character
    ("\u3164Ann", "Ann"),                                # a Hangul filler (renders blank)
    ("Jose\u0301", "José"),                              # composed: one name whichever way it was typed
    (f"فرزانه{ZWNJ}پور", f"فرزانه{ZWNJ}پور"),           # Persian: the non-joiner changes the letters' shapes
    (f"Ann{ZWNJ}Lee", "AnnLee"),                         # Latin letters do not join: it is invisible there
    (f"{ZWNJ}فرزانه", "فرزانه"),
    (f"क्{ZWJ}ष", f"क्{ZWJ}ष"),                            # Devanagari: the joiner selects a half form
    ("😀 Ann", "😀 Ann"),
])
def test_a_name_is_stored_without_what_cannot_be_seen(typed, stored):
    assert clean_line(typed) == stored


@pytest.mark.parametrize("typed", ["Dubai\r\nOpen", "Dubai\nOpen", "Dubai\rOpen", "Dubai\tOpen", "Dubai\x00",
                                   "Dubai\x1b[31m", "Dubai\x85Open", "Dubai\u2028Open", "Dubai\u2029", "\x7f"])
def test_a_control_character_or_line_break_is_refused(typed):
    with pytest.raises(ValidationError) as refused:
        clean_line(typed)
    assert "one line" in " ".join(refused.value.messages)


def test_a_subject_the_site_composes_is_one_line():
    assert one_line(f"Start: Dubai\r\nBcc: everyone@example.com{RLO}") == "Start: Dubai Bcc: everyone@example.com"


@pytest.mark.django_db
def test_an_invitation_with_a_line_break_in_its_subject_is_still_sent(django_capture_on_commit_callbacks):
    """Django refuses a subject with a line break (BadHeaderError): the invitation was an error page."""
    with django_capture_on_commit_callbacks(execute=True):
        queue_email("ana@example.com", "Your staff account for Dubai\r\nOpen", "Set your password here.")
    (sent,) = mail.outbox
    assert sent.subject == "Your staff account for Dubai Open"


# The organizer's pages.

@pytest.mark.django_db
def test_a_line_break_in_a_tournament_name_is_refused_with_a_message(client):
    """The start-time notices of such a tournament failed every 15 minutes (BadHeaderError in the subject)."""
    client.force_login(creator())
    data = _adjust_form(client, "uae-2022", 2030)
    data.update({"t-0-name": "Dubai\r\nBcc: everyone@example.com", "c-name": "UAE Cup 2030"})
    response = client.post(reverse("organize-new"), data)
    assert response.status_code == 422 and "one line" in response.content.decode()
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_invisible_characters_are_removed_from_a_new_championship(client):
    client.force_login(creator())
    data = _adjust_form(client, "uae-2022", 2030)
    data.update({"t-0-name": f"{RLO}Dubai{ZWSP} qualifier", "t-0-city": f"Dubai{LRM}", "c-name": f"UAE{ZWSP} Cup 2030"})
    assert client.post(reverse("organize-new"), data).status_code == 302
    championship = Championship.objects.get()
    assert championship.name == "UAE Cup 2030"
    assert championship.tournaments.filter(name="Dubai qualifier", city="Dubai").exists()


@pytest.mark.django_db
def test_a_player_added_with_a_zero_width_space_is_the_same_name(client):
    tournament = make_tournament(slug="names")
    client.force_login(make_official(tournament, "organizer"))
    response = client.post(reverse("organize-player-add", args=["names"]),
                           {"name": f"Ann{ZWSP} Lee{RLO}", "date_of_birth": "1990-01-01", "kind": "friend",
                            "enter": "on"})
    assert response.status_code in (200, 302)
    assert Player.objects.filter(name="Ann Lee").exists()
    assert not Player.objects.filter(name__contains=ZWSP).exists()


@pytest.mark.django_db
def test_a_start_time_notice_goes_out_whatever_the_tournament_is_called(django_capture_on_commit_callbacks):
    """With a line break in the name every notice failed, and was tried again every quarter of an hour."""
    tournament = make_tournament(date=date(2030, 5, 4), official_start=time(10))
    entry = tournament.entries.create(player=make_player(email="ana@example.com"))
    entry.tournament.name = "Dubai\r\nOpen"  # as stored before names were checked (the migration cleans those)
    with django_capture_on_commit_callbacks(execute=True):
        assert start_time._send(entry, datetime(2030, 5, 4, 10, tzinfo=start_time.timezone.get_current_timezone()),
                             False) == 1
    (sent,) = mail.outbox
    assert sent.subject == "Start time: Dubai Open"


def test_a_registration_list_is_cleaned_like_every_name():
    rows = parse_list(f"name,friends_or_family\nAnn{ZWSP} Lee,Bob{RLO}\n{RLO}Bob,Ann Lee\n")
    assert [(row.name, row.friends_or_family) for row in rows] == [("Ann Lee", ("Bob",)), ("Bob", ("Ann Lee",))]


def test_a_line_separator_in_a_registration_list_is_named_with_its_line():
    with pytest.raises(InputError) as refused:
        parse_list("name\nBob\nAnn\u2028Lee\n")
    assert [str(problem) for problem in refused.value.problems] == ["line 3, name: contains control characters"]
