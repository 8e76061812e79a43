"""A correction after sign-off is a transcription fix, and refuses everything else (docs/rules.md I-23).

Seeds: 001 §5 "Once the game record sheet has been signed by all players, further protest is not permitted, and
the results cannot be further altered"; 004 §1.2.3 the same. The signed paper sheet is the result; the entered
sheet is a copy of it, and only the copy may be fixed, by an organizer, with a reason, the old version kept.
"""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from championships.models import Stage
from results.models import SheetRevision
from results.sheets import SheetInput, correct, save_entry
from scheduling.models import Seat
from tests.factories import make_entries, make_game, make_official, make_tournament, play

pytestmark = pytest.mark.django_db


def typed(table, vps, winner=None):
    entries = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    return SheetInput(dict(zip(entries, vps)), winner)


def test_a_correction_fixes_the_copy_of_the_signed_sheet_and_refuses_anything_else():
    """001 §5 / 004 §1.2.3: no protest after the signatures; I-23 lists what a correction refuses."""
    tournament = make_tournament(games=1)
    referee, organizer = make_official(tournament), make_official(tournament, "organizer")
    table = make_game(tournament, [make_entries(tournament, 4)]).tables.get()
    open_sheet = save_entry(table.sheet.pk, typed(table, [10, 7, 6, 5]), user=referee, base_version=0)
    with pytest.raises(ValidationError, match="Only a signed-off sheet is corrected"):
        correct(open_sheet.pk, typed(table, [10, 8, 6, 5]), user=organizer, reason="typo", base_version=1)
    sheet = play_signed(table, referee, open_sheet)
    version = sheet.version
    with pytest.raises(PermissionDenied):  # the referee signed it off; only an organizer corrects it
        correct(sheet.pk, typed(table, [10, 8, 6, 5]), user=referee, reason="typo", base_version=version)
    with pytest.raises(ValidationError) as no_reason:
        correct(sheet.pk, typed(table, [10, 8, 6, 5]), user=organizer, reason=" ", base_version=version)
    assert "reason" in no_reason.value.message_dict
    with pytest.raises(ValidationError, match="Nothing was changed"):
        correct(sheet.pk, typed(table, [10, 7, 6, 5]), user=organizer, reason="typo", base_version=version)
    with pytest.raises(ValidationError):  # a result no sheet may hold: two players with 10 and no winner named
        correct(sheet.pk, typed(table, [10, 10, 6, 5]), user=organizer, reason="typo", base_version=version)
    assert sheet.revisions.count() == 2 and not sheet.revisions.filter(kind=SheetRevision.Kind.CORRECTED).exists()
    fixed = correct(sheet.pk, typed(table, [10, 8, 6, 5]), user=organizer, reason="The paper says 8 for seat 2",
                    base_version=version)
    assert fixed.revisions.get(kind=SheetRevision.Kind.CORRECTED).reason == "The paper says 8 for seat 2"
    assert fixed.signatures.count() == 4  # the players' signatures stay on the version they signed


def test_a_correction_cannot_unmake_a_winner_already_seated_in_a_later_stage():
    """I-23: changing the winner of a table whose winner already sits at the final is refused, with what to undo
    first (the final is published: take it back); a correction of the VP alone changes no seat and is made."""
    tournament = make_tournament(ruleset="cwc-2025", kind="world", games=1)
    semifinal_stage = tournament.stages.get()
    final_stage = Stage.objects.create(tournament=tournament, order=2, kind="final", name="Final", games=1,
                                       seating="seeded", players=4)
    referee, organizer = make_official(tournament), make_official(tournament, "organizer")
    players = make_entries(tournament, 4)
    table = make_game(tournament, [players], stage=semifinal_stage).tables.get()
    sheet = play(table, [10, 7, 6, 5], referee)
    final = make_game(tournament, [players[:1] + make_entries(tournament, 3)], number=2, stage=final_stage)
    assert Seat.objects.filter(game=final, entry=players[0]).exists()
    with pytest.raises(ValidationError) as seated:
        correct(sheet.pk, typed(table, [9, 10, 6, 5], winner=players[1].pk), user=organizer,
                reason="The paper names seat 2", base_version=sheet.version)
    assert "Final was seated by rank from these results and published" in seated.value.messages[0]
    correct(sheet.pk, typed(table, [10, 8, 6, 5]), user=organizer, reason="VP only", base_version=sheet.version)


def play_signed(table, referee, sheet):
    from results.sheets import sign, sign_off

    for entry_id in table.seats.values_list("entry_id", flat=True):
        sheet = sign(sheet.pk, entry_id, user=referee, method="tap", version=sheet.version)
    return sign_off(sheet.pk, user=referee, version=sheet.version)
