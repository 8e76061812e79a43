"""Several referees (or a double tap) submitting the same sheet at once: one result, no error page.

Row locks are what is tested here, so this runs against PostgreSQL (CI sets DATABASE_URL).
"""
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from results.models import RecordSheet, SheetRevision
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"),
]
THREADS = 8


def post_together(users, target, payloads):
    barrier = threading.Barrier(len(users))
    responses = [None] * len(users)

    def submit(i):
        client = Client()
        client.force_login(users[i])
        barrier.wait()
        try:
            responses[i] = client.post(target, payloads[i])
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(users))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


@pytest.fixture
def table():
    tournament = make_tournament(slug="race")
    table = make_game(tournament, [make_entries(tournament, 4)]).tables.get()
    return table


def scores(table, vps):
    seats = list(table.seats.order_by("position"))
    return {**{f"vp_{s.entry_id}": str(v) for s, v in zip(seats, vps)}, "base_version": "0"}


def target(table, name):
    return reverse(name, kwargs={"slug": "race", "table_id": table.pk})


def test_identical_submissions_give_one_result(table):
    referee = make_official(table.game.tournament)
    responses = post_together([referee] * THREADS, target(table, "referee-scores"),
                              [scores(table, [10, 7, 6, 5])] * THREADS)
    assert all(r.status_code == 302 for r in responses), [r.status_code for r in responses]
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.version == 1 and SheetRevision.objects.filter(sheet=sheet).count() == 1
    assert AuditEntry.objects.filter(action="sheet.entered").count() == 1


def test_conflicting_submissions_keep_exactly_one_and_tell_the_others(table):
    referees = [make_official(table.game.tournament) for _ in range(THREADS)]
    payloads = [scores(table, [10, i % 10, 6, 5]) for i in range(THREADS)]
    responses = post_together(referees, target(table, "referee-scores"), payloads)
    codes = sorted(r.status_code for r in responses)
    assert codes.count(302) == 1 and codes.count(422) == THREADS - 1, codes
    for response in responses:
        if response.status_code == 422:
            assert "Someone else changed this sheet meanwhile" in response.content.decode()
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.version == 1 and sheet.scores.filter(winner=True).count() == 1


def test_concurrent_sign_offs_lock_once(table):
    referee = make_official(table.game.tournament)
    client = Client()
    client.force_login(referee)
    client.post(target(table, "referee-scores"), scores(table, [10, 7, 6, 5]))
    for entry_id in table.seats.values_list("entry_id", flat=True):
        client.post(target(table, "referee-sign"), {"entry": entry_id, "version": 1, "method": "tap"})
    responses = post_together([referee] * THREADS, target(table, "referee-sign-off"), [{"version": "1"}] * THREADS)
    assert all(r.status_code == 302 for r in responses)
    sheet = RecordSheet.objects.get(table=table)
    assert sheet.is_locked and sheet.version == 2
    assert AuditEntry.objects.filter(action="sheet.signed_off").count() == 1
