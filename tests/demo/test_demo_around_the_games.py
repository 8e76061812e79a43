"""The demo shows the rules around the games as the seeds describe them: a late arrival, timed tables, bankers,
the club final.

Seeds: 001 §6 (lateness), 001 §5 (timed turns, at most three minutes) and §7c (the banker); 004 §1.1.8 (a
reduced turn, timed placements) and §2.0.4 (a judge banks in the semifinals and final); 003, General rules 5
(the slow player's minute, then 2-minute turns) and every round ("the starting player by a roll of 2d6").
"""
from datetime import time

import pytest

from audit.models import AuditEntry
from championships.models import Entry, Tournament
from ranking.standings import compute_standings
from results.banker import banker_of
from results.models import Penalty, RecordSheet, Score
from scheduling.models import Seat, Table

pytestmark = pytest.mark.django_db


def timed(slug: str) -> list[Table]:
    return list(Table.objects.filter(game__tournament__championship__slug=slug, turn_seconds__isnull=False)
                .select_related("game__stage"))


def test_each_demo_event_has_a_table_with_timed_turns_as_its_rules_allow(demo):
    """001 §5: the Abu Dhabi referee imposed 2-minute turns (at most 3) on a table still playing; 004 §1.1.8: a
    judge reduced the world turn to 1:30 and timed the placements; 003 General rules 5: a slow player's minute,
    then 2 minutes a turn for the whole table."""
    (national,) = timed("demo-uae-championship")
    assert (national.turn_seconds, national.placement_seconds, national.game.status) == (120, None, "published")
    (world,) = timed("demo-world-championship")
    assert (world.turn_seconds, world.placement_seconds, world.game.stage.kind) == (90, 60, "preliminary")
    (club,) = timed("demo-lord-of-catan")
    assert (club.turn_seconds, club.game.stage.kind) == (120, "preliminary")
    imposed = AuditEntry.objects.get(action="turns.on", object_type="table", object_id=club.pk)
    assert imposed.after["finish_seconds"] == 60


def test_every_signed_off_demo_sheet_records_its_banker_by_the_rules(demo):
    """001 §7c: the starting player banks, or a player the table elects; 004 §2.0.4: a judge in the semifinals and
    final; 003: the starting player of the play order the dice gave."""
    sheets = (RecordSheet.objects.filter(status="signed_off")
              .select_related("table__game__stage", "table__game__tournament", "banker__player"))
    for sheet in sheets:
        world = sheet.table.game.tournament.ruleset == "cwc-2025"
        if world and sheet.table.game.stage.kind in ("semifinal", "final"):
            assert sheet.referee_banked, sheet
        else:
            starter = sheet.table.seats.get(position=1).entry_id
            assert (sheet.referee_banked, sheet.banker_id) == (False, starter), sheet
    elected = RecordSheet.objects.get(table__game__tournament__championship__slug="demo-uae-championship",
                                      table__game__tournament__status="running", table__game__number=2,
                                      table__number=3)  # Abu Dhabi, being entered
    assert elected.banker_id == elected.table.seats.get(position=2).entry_id and not banker_of(elected).by_rule


def test_the_lord_of_catan_final_is_recorded_as_seed_003_describes(demo):
    """003, final round: the players settle colours and places and a 2d6 roll decides who starts: the referee
    recorded the resulting play order; its starting player banked; the sheet has both times (tempo, I-24)."""
    (final,) = Table.objects.filter(game__tournament__championship__slug="demo-lord-of-catan",
                                    game__stage__kind="final").select_related("sheet")
    assert AuditEntry.objects.filter(action="seating.play_order", object_type="table", object_id=final.pk).exists()
    assert final.sheet.banker_id == final.seats.get(position=1).entry_id
    assert final.sheet.start_time and final.sheet.end_time and final.sheet.status == "signed_off"


def test_abu_dhabi_had_a_late_arrival_and_a_player_not_admitted(demo):
    """001 §6: "1 victory point deducted from their total scores for the first 15 minutes of tardiness. The
    tournament will start after 15 minutes from official time and late comers cannot participate"."""
    abu_dhabi = Tournament.objects.get(championship__slug="demo-uae-championship", kind="qualifier",
                                       status="running")
    assert abu_dhabi.official_start == time(9, 45)
    late = abu_dhabi.entries.get(minutes_late=9)
    (penalty,) = Penalty.objects.filter(entry=late, kind="lateness", withdrawn_at__isnull=True)
    assert (late.status, penalty.vp, penalty.game) == (Entry.Status.CHECKED_IN, 1, None)
    counted = sum(min(vp, 10) for vp in Score.objects.filter(seat__entry=late, sheet__status="signed_off")
                  .values_list("vp", flat=True))
    row = next(row for row in compute_standings(abu_dhabi) if row["entry"] == late.pk)
    assert counted and row["total_vp"] == counted - 1  # once, however many games they played
    too_late = abu_dhabi.entries.get(status=Entry.Status.NOT_ADMITTED)
    assert too_late.minutes_late == 20 and not Seat.objects.filter(entry=too_late).exists()
    assert not abu_dhabi.entries.filter(status=Entry.Status.REGISTERED).exists()  # everyone else checked in

