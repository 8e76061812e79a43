"""Every way a place frees gives it to the waiting list, first in line first, with the email (issue 32 item 2):
one function, `waiting_list.place_freed`, called by each of them. The register page and the Registrations page then
agree on the places."""
import re
import threading
from datetime import date, time

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.utils import timezone

from attendance import checkin
from audit.models import AuditEntry
from championships import places, signup
from championships.models import ACTIVE_STATUSES, Entry, Registration, Tournament
from results.penalties import record_lateness
from tests.factories import make_official, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Emails leave once the change commits; a test's transaction never does, so run the queued ones here."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def details(n: int) -> signup.Details:
    return signup.Details(name=f"Runner {n}", email=f"runner{n}@example.com", date_of_birth=date(1990, 1, 1),
                          country="AE", language="en")


def register_and_confirm(tournament: Tournament, n: int, committed) -> Registration:
    with committed():
        signup.register(tournament.pk, details(n))
    token = re.search(r"/register/confirm/([^/\s]+)/", mail.outbox[-1].body).group(1)
    with committed():
        return signup.confirm(tournament.slug, token).registration


@pytest.fixture
def full(committed):
    """3 places taken by players who registered themselves, 2 on the waiting list (runner3 first, then runner4)."""
    tournament = make_tournament(slug="full-cup", name="Full Cup", self_registration=True, capacity=3,
                                 date=timezone.localdate(), official_start=time(0, 0))
    organizer = make_official(tournament, "organizer")
    registrations = [register_and_confirm(tournament, n, committed) for n in range(5)]
    assert [r.status for r in registrations] == ["entered"] * 3 + ["waiting"] * 2
    mail.outbox.clear()
    return tournament, organizer, registrations


def promoted(tournament: Tournament) -> list[str]:
    """Who is entered through the waiting list, in the order they were promoted; each was told by email."""
    names = list(AuditEntry.objects.filter(tournament=tournament, action="registration.promoted")
                 .order_by("pk").values_list("after__player", flat=True))
    told = [m.to[0] for m in mail.outbox if m.subject == "A place for you: Full Cup"]
    assert told == [f"runner{name.split()[-1]}@example.com" for name in names]
    for message in mail.outbox:
        if message.subject.startswith("A place for you"):
            assert re.search(r"https?://\S+/me/[A-Za-z0-9_-]{40,}/", message.body)
    return names


def test_removing_an_entry_on_the_entries_page_gives_its_place_to_the_first_waiting(full, committed):
    """The trial's trap: "1 entry removed.", then 2 of 3 places taken and 2 waiting, nobody told, and the register
    page offering "1 place left" to newcomers ahead of the list."""
    tournament, organizer, registrations = full
    client = Client()
    client.force_login(organizer)
    with committed():
        response = client.post("/organize/full-cup/entries/remove/", {"selected": [registrations[1].entry_id]})
    assert response.status_code == 302
    assert promoted(tournament) == ["Runner 3"]
    assert Registration.objects.get(pk=registrations[3].pk).status == "entered"
    assert Registration.objects.get(pk=registrations[1].pk).status == "refused"
    registrations_page = client.get("/organize/full-cup/registrations/").content.decode()
    assert re.search(r"Places taken</dt>\s*<dd>3 / 3</dd>", registrations_page)
    register_page = Client().get("/t/full-cup/register/").content.decode()
    assert "place left" not in register_page and "1 waiting before you" in register_page
    assert places.places_left(tournament) == 0 and places.waiting(tournament).count() == 1


def test_a_withdrawal_at_the_desk(full, committed):
    tournament, organizer, registrations = full
    with committed():
        checkin.withdraw(tournament, registrations[0].entry_id, user=organizer, reason="Ill")
    assert promoted(tournament) == ["Runner 3"]


def test_a_no_show_before_play(full, committed):
    tournament, organizer, registrations = full
    with committed():
        checkin.mark_no_show(tournament, [registrations[0].entry_id, registrations[2].entry_id], user=organizer)
    assert promoted(tournament) == ["Runner 3", "Runner 4"]  # as many as places freed, in the list's order


def test_a_player_not_admitted_at_the_door(full, committed):
    """001 §6: more than 15 minutes late is not admitted; before the first game the place is the next waiting's."""
    tournament, organizer, registrations = full
    with committed():
        assert record_lateness(registrations[2].entry_id, 20, user=organizer).not_admitted
    assert promoted(tournament) == ["Runner 3"]


def test_more_places(full, committed):
    tournament, organizer, registrations = full
    with committed():
        signup.change_settings(tournament, signup.Settings(True, 10, None, False), user=organizer)
    assert promoted(tournament) == ["Runner 3", "Runner 4"]


def test_a_registration_cancelled_by_the_player(full, committed):
    tournament, organizer, registrations = full
    with committed():
        signup.cancel(registrations[2].pk, player=registrations[2].player)
    assert promoted(tournament) == ["Runner 3"]


def test_a_refusal_gives_a_place_left_free_to_the_next_in_line(full, committed):
    """A place left free with players waiting (as a removal left it before this was fixed): the organizer
    refuses the first waiting, and the place goes to the next one instead of staying free."""
    tournament, organizer, registrations = full
    Entry.objects.filter(pk=registrations[0].entry_id).delete()
    with committed():
        signup.refuse(tournament, registrations[3].pk, user=organizer, reason="Not a club member.")
    assert promoted(tournament) == ["Runner 4"]
    assert places.places_left(tournament) == 0 and not places.waiting(tournament).exists()


def test_a_place_freed_after_the_first_game_is_published_goes_to_nobody(full, committed):
    tournament, organizer, registrations = full
    from tests.factories import make_entries, make_game
    make_game(tournament, [make_entries(tournament, 3)])
    with committed():
        checkin.withdraw(tournament, registrations[0].entry_id, user=organizer, reason="Ill")
    assert promoted(tournament) == [] and places.waiting(tournament).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)")
def test_places_freed_at_once_promote_each_waiting_player_once_and_never_beyond_the_places():
    """Four entries removed, withdrawn or marked no-show at the same moment by four organizers, six waiting: four
    are entered, the first four in line, each once, and the places are exactly full."""
    tournament = make_tournament(slug="race-cup", name="Race Cup", self_registration=True, capacity=4)
    organizers = [make_official(tournament, "organizer") for _ in range(4)]
    for n in range(10):
        signup.register(tournament.pk, details(n))
        token = re.search(r"/register/confirm/([^/\s]+)/", mail.outbox[-1].body).group(1)
        signup.confirm(tournament.slug, token)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True))
    from championships.people import remove_entries
    calls = [lambda: remove_entries(tournament, [entries[0]], user=organizers[0]),
             lambda: checkin.withdraw(tournament, entries[1], user=organizers[1], reason="Ill"),
             lambda: checkin.mark_no_show(tournament, [entries[2]], user=organizers[2]),
             lambda: signup.change_settings(tournament, signup.Settings(True, 5, None, False), user=organizers[3])]
    barrier = threading.Barrier(len(calls))
    errors = []

    def run(call):
        barrier.wait()
        try:
            call()
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    playing = Registration.objects.filter(tournament=tournament, status="entered", entry__status__in=ACTIVE_STATUSES)
    assert sorted(playing.values_list("name", flat=True)) == [f"Runner {n}" for n in (3, 4, 5, 6, 7)]
    assert places.places_taken(tournament) == 5 and places.waiting(tournament).count() == 2
    assert AuditEntry.objects.filter(action="registration.promoted").count() == 4
