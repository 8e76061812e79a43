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


GAME_TABLES = 4
ROUNDS = 5


def _signed_but_open(tournament, number, referee):
    """A game of GAME_TABLES tables, every sheet entered and signed by all, none signed off yet."""
    from results.sheets import SheetInput, save_entry, sign

    entries = make_entries(tournament, 4 * GAME_TABLES)
    game = make_game(tournament, [entries[i:i + 4] for i in range(0, len(entries), 4)], number=number)
    sheets = []
    for table in game.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        sheet = save_entry(table.sheet.pk, SheetInput(dict(zip((s.entry_id for s in seats), [10, 7, 6, 5]))),
                           user=referee, base_version=0)
        for seat in seats:
            sheet = sign(sheet.pk, seat.entry_id, user=referee, method="tap", version=sheet.version)
        sheets.append(sheet)
    return game, sheets


def test_the_last_tables_signed_off_at_once_finish_the_game_every_time():
    """Each sign-off decides "was this the last table?" under the game's lock, so two (or more) last
    tables signed off at the same moment cannot each see the others open and leave the game published."""
    from results.sheets import sign_off
    from scheduling.models import Game

    tournament = make_tournament(slug="race", games=ROUNDS)
    referee = make_official(tournament)
    for number in range(1, ROUNDS + 1):
        game, sheets = _signed_but_open(tournament, number, referee)
        barrier = threading.Barrier(len(sheets))
        errors = []

        def submit(sheet, barrier=barrier, errors=errors):
            barrier.wait()
            try:
                sign_off(sheet.pk, user=referee, version=sheet.version)
            except Exception as error:  # reported below
                errors.append(error)
            finally:
                connection.close()

        threads = [threading.Thread(target=submit, args=(sheet,)) for sheet in sheets]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        assert RecordSheet.objects.filter(table__game=game, status="signed_off").count() == GAME_TABLES
        assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, f"round {number}"
