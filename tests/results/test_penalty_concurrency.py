"""Penalties given by two referees at once: row locks keep the rules (runs against PostgreSQL, like CI).

Seeds: 001 §6 (lateness; disqualification until the sheet is signed off), 004 §1.2.4 (no rules disqualification
once all have signed).
"""
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from audit.models import AuditEntry
from results.models import Penalty, RecordSheet
from results.penalties import record_lateness, record_penalty
from results.sheets import SheetInput, save_entry, sign, sign_off
from tests.factories import make_entries, make_game, make_official, make_tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"),
]
THREADS = 8


def together(calls):
    """Run the calls at the same moment, each in its own thread and connection; their results or errors."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i):
        barrier.wait()
        try:
            outcomes[i] = calls[i]()
        except ValidationError as error:
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_referees_recording_the_same_late_arrival_at_once_record_one():
    """001 §6: one late arrival, 1 VP, whatever the number of referees who report it."""
    tournament = make_tournament(slug="late-race")
    entry = make_entries(tournament, 1)[0]
    referees = [make_official(tournament) for _ in range(THREADS)]
    outcomes = together([lambda user=user: record_lateness(entry.pk, 7, user=user) for user in referees])
    assert sum(not isinstance(o, ValidationError) for o in outcomes) == 1, outcomes
    assert Penalty.objects.filter(entry=entry, kind="lateness", vp=1).count() == 1
    assert AuditEntry.objects.filter(action="penalty.lateness").count() == 1


def test_a_rules_disqualification_racing_the_last_signature_never_follows_it():
    """004 §1.2.4: either the disqualification comes first, or it is refused because every player has signed."""
    tournament = make_tournament(slug="dq-race", ruleset="cwc-2025")
    entries = make_entries(tournament, 4)
    table = make_game(tournament, [entries]).tables.get()
    referee, other = make_official(tournament), make_official(tournament)
    sheet = save_entry(table.sheet.pk, SheetInput({e.pk: vp for e, vp in zip(entries, [10, 7, 6, 5])}),
                       user=referee, base_version=0)
    for entry in entries[:3]:
        sheet = sign(sheet.pk, entry.pk, user=referee, method="tap", version=sheet.version)
    outcomes = together([
        lambda: sign(sheet.pk, entries[3].pk, user=referee, method="tap", version=sheet.version),
        lambda: record_penalty(entries[0].pk, user=other, kind="disqualification", ground="rules",
                               game=table.game, reason="Took two cards when robbing"),
    ])
    assert RecordSheet.objects.get(pk=sheet.pk).status == RecordSheet.Status.SIGNED
    last_signature = AuditEntry.objects.filter(action="sheet.signature.tap").latest("pk")
    if isinstance(outcomes[1], ValidationError):
        assert "has signed the record sheet" in outcomes[1].message_dict["ground"][0]
        assert not Penalty.objects.exists()
    else:
        assert AuditEntry.objects.get(action="penalty.disqualification").pk < last_signature.pk


def test_a_national_disqualification_racing_the_sign_off_never_follows_it():
    """001 §6 (I-40): either the disqualification comes first, or it is refused because the sheet is signed off."""
    tournament = make_tournament(slug="dq-sign-off-race")
    entries = make_entries(tournament, 4)
    table = make_game(tournament, [entries]).tables.get()
    referee, other = make_official(tournament), make_official(tournament)
    sheet = save_entry(table.sheet.pk, SheetInput({e.pk: vp for e, vp in zip(entries, [10, 7, 6, 5])}),
                       user=referee, base_version=0)
    for entry in entries:
        sheet = sign(sheet.pk, entry.pk, user=referee, method="tap", version=sheet.version)
    outcomes = together([
        lambda: sign_off(sheet.pk, user=referee, version=sheet.version),
        lambda: record_penalty(entries[1].pk, user=other, kind="disqualification", ground="conduct",
                               game=table.game, reason="Insulted the winner"),
    ])
    assert RecordSheet.objects.get(pk=sheet.pk).status == RecordSheet.Status.SIGNED_OFF
    signed_off = AuditEntry.objects.get(action="sheet.signed_off")
    if isinstance(outcomes[1], ValidationError):
        assert "is signed off" in outcomes[1].message_dict["game"][0]
        assert not Penalty.objects.exists()
    else:
        assert AuditEntry.objects.get(action="penalty.disqualification").pk < signed_off.pk

