"""Two people at once: the four players of a table calling for the same reason make one call, and two referees
tapping "I'm going" together leave one of them going (PostgreSQL row locks, as in production)."""
import threading

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection

from audit.models import AuditEntry
from calls.models import Call
from calls.services import place_call, take_call
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)")]


def _at_once(calls) -> list:
    """Each call in its own thread and connection, started together; what each returned or raised."""
    results: list = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(n: int) -> None:
        try:
            start.wait()
            results[n] = calls[n]()
        except Exception as error:  # kept to assert on: a refusal is one of the expected answers
            results[n] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_a_table_calling_at_once_makes_one_call_and_two_referees_one_taker():
    cache.clear()
    tournament = make_tournament(slug="race-calls", name="Race Calls")
    entries = make_entries(tournament, 4)
    table = make_game(tournament, [entries]).tables.get()
    placed = _at_once([lambda e=e: place_call(table.pk, "rules", player=e.player) for e in entries])
    assert all(isinstance(call, Call) for call in placed), placed
    assert len({call.pk for call in placed}) == 1 and Call.objects.count() == 1
    assert AuditEntry.objects.filter(action="call.placed").count() == 1
    referees = [make_official(tournament, username=name) for name in ("ana", "ben")]
    taken = _at_once([lambda r=r: take_call(placed[0].pk, user=r) for r in referees])
    assert sorted(type(result).__name__ for result in taken) == ["Call", "ValidationError"], taken
    assert isinstance(next(r for r in taken if not isinstance(r, Call)), ValidationError)
    assert AuditEntry.objects.filter(action="call.taken").count() == 1
