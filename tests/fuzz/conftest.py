"""One running tournament for the form fuzzers, built once per module and rolled back at its end."""
from dataclasses import dataclass

import pytest
from django.db import transaction
from django.test import override_settings

from championships.models import StaffRole
from championships.services import assign_staff
from results.penalties import record_penalty
from results.sheets import SheetInput, save_entry
from tests.factories import make_admin, make_entries, make_game, make_official, make_tournament, make_user, play


@dataclass
class FuzzWorld:
    tournament: object
    stage: object
    game: object
    open_table: object       # scores entered (version 1), nobody has signed
    locked_table: object     # signed off
    open_entries: list[int]
    locked_entries: list[int]
    all_entries: list[int]
    organizer: object
    referee: object
    chief: object            # an organizer of the championship itself (its webhooks)
    ruling_id: int           # a repeated collusion warning waiting for the referee's decision


def _build() -> FuzzWorld:
    make_admin()  # the superuser the builders act as
    tournament = make_tournament(slug="fuzz", games=1, ruleset="cnc-2022")
    entries = make_entries(tournament, 12)
    referee = make_official(tournament, "referee", "fuzz-referee")
    organizer = make_official(tournament, "organizer", "fuzz-organizer")
    chief = make_user("fuzz-chief")
    assign_staff(chief, StaffRole.Role.ORGANIZER, championship=tournament.championship, user=make_admin())
    game = make_game(tournament, [entries[:4], entries[4:8], entries[8:]])
    first, second, open_table = game.tables.order_by("number")
    play(first, [10, 8, 6, 4], referee)
    play(second, [10, 8, 6, 4], referee)  # the same scores: ties for the draws form
    open_ids = [e.pk for e in entries[8:]]
    save_entry(open_table.sheet.pk, SheetInput(dict(zip(open_ids, (10, 7, 5, 3))), None, None, None),
               user=referee, base_version=0)
    for partner in (entries[9], entries[10]):
        warning = record_penalty(entries[8].pk, user=referee, kind="collusion", reason="Traded out of turn.",
                                 partner_id=partner.pk)
    return FuzzWorld(tournament=tournament, stage=game.stage, game=game, open_table=open_table, locked_table=first,
                     open_entries=open_ids, locked_entries=[e.pk for e in entries[:4]],
                     all_entries=[e.pk for e in entries], organizer=organizer, referee=referee, chief=chief,
                     ruling_id=warning.pk)


@pytest.fixture(scope="module")
def fuzz_world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), override_settings(
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield _build()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
