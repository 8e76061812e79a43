"""The record-sheet flow: entry, signatures, sign-off lock, corrections with history and audit."""
from datetime import time

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from audit.models import AuditEntry
from ranking.standings import tournament_standings
from results.models import RecordSheet, SheetRevision
from results.sheets import SheetInput, SheetLocked, StaleSheet, correct, save_entry, sign, sign_off
from tests.factories import make_entries, make_game, make_official, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament()
    entries = make_entries(tournament, 4)
    game = make_game(tournament, [entries])
    return game.tables.get()


@pytest.fixture
def referee(table):
    return make_official(table.game.tournament, "referee")


def seat_ids(table):
    """The players' entry ids in play order: a sheet's fields are keyed by entry."""
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))


def entered(table, vps, winner=None, start=time(10, 0), end=time(11, 30)):
    return SheetInput(dict(zip(seat_ids(table), vps)), winner, start, end)


def signed_by_all(sheet, table, user):
    for entry_id in table.seats.values_list("entry_id", flat=True):
        sheet = sign(sheet.pk, entry_id, user=user, method="tap", version=sheet.version)
    return sheet


def test_full_flow_locks_the_sheet_and_feeds_the_standings(table, referee, django_capture_on_commit_callbacks):
    sheet = table.sheet
    sheet = save_entry(sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    assert sheet.status == "signing" and sheet.version == 1
    assert list(sheet.scores.order_by("seat__position").values_list("winner", flat=True)) == [
        True, False, False, False]
    assert [row["games"] for row in tournament_standings(table.game.tournament)] == [0, 0, 0, 0]
    sheet = signed_by_all(sheet, table, referee)
    assert sheet.status == "signed"
    with django_capture_on_commit_callbacks(execute=True):
        sheet = sign_off(sheet.pk, user=referee, version=sheet.version)
    assert sheet.is_locked and sheet.signed_off_by == referee
    rows = tournament_standings(table.game.tournament)
    assert [(r["rank"], r["wins"], r["total_vp"]) for r in rows] == [(1, 1, 10), (2, 0, 7), (3, 0, 6), (4, 0, 5)]
    assert table.game.__class__.objects.get(pk=table.game.pk).status == "finished"
    sheet_actions = AuditEntry.objects.filter(action__startswith="sheet.").order_by("id")
    assert list(sheet_actions.values_list("action", flat=True)) == [
        "sheet.entered", *["sheet.signature.tap"] * 4, "sheet.signed_off"]


def test_winner_is_inferred_from_the_single_ten(table, referee):
    sheet = save_entry(table.sheet.pk, entered(table, [4, 11, 6, 5]), user=referee, base_version=0)
    assert sheet.scores.get(winner=True).seat.position == 2


def test_two_players_with_ten_need_a_marked_winner(table, referee):
    with pytest.raises(ValidationError) as error:
        save_entry(table.sheet.pk, entered(table, [10, 10, 6, 5]), user=referee, base_version=0)
    assert "winner" in error.value.message_dict
    assert "each have 10 or more VP: choose the winner" in error.value.message_dict["winner"][0]
    ids = seat_ids(table)
    sheet = save_entry(table.sheet.pk, entered(table, [10, 10, 6, 5], winner=ids[1]),
                       user=referee, base_version=0)
    assert sheet.scores.get(winner=True).seat.entry_id == ids[1]


@pytest.mark.parametrize("vps, winner_index, field, message", [
    ([10, 7, None, 5], None, "vp_2", "Enter"),
    ([10, 7, 13, 5], None, "vp_2", "VP must be a whole number from 0 to 12"),
    ([9, 7, 6, 5], None, "winner", "No winner"),
    ([9, 7, 6, 5], 0, "vp_0", "won with 9 VP: a winner has at least 10"),
])
def test_every_error_is_attached_to_its_field(table, referee, vps, winner_index, field, message):
    ids = seat_ids(table)
    winner = ids[winner_index] if winner_index is not None else None
    with pytest.raises(ValidationError) as error:
        save_entry(table.sheet.pk, entered(table, vps, winner), user=referee, base_version=0)
    key = f"vp_{ids[int(field[3:])]}" if field.startswith("vp_") else field
    assert any(message in m for m in error.value.message_dict[key]), error.value.message_dict
    assert RecordSheet.objects.get(table=table).version == 0


def test_lord_of_catan_needs_the_duration():
    tournament = make_tournament(ruleset="lord-of-catan")
    table = make_game(tournament, [make_entries(tournament, 4)]).tables.get()
    referee = make_official(tournament)
    with pytest.raises(ValidationError) as error:
        save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5], start=None, end=None),
                   user=referee, base_version=0)
    assert error.value.message_dict["end_time"] == ["The game duration in minutes is required by lord-of-catan."]


def test_saving_twice_is_idempotent(table, referee):
    sheet = table.sheet
    data = entered(table, [10, 7, 6, 5])
    save_entry(sheet.pk, data, user=referee, base_version=0)
    again = save_entry(sheet.pk, data, user=referee, base_version=0)
    assert again.version == 1 and SheetRevision.objects.count() == 1


def test_a_stale_different_entry_is_refused_not_lost(table, referee):
    sheet = table.sheet
    save_entry(sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    with pytest.raises(StaleSheet):
        save_entry(sheet.pk, entered(table, [10, 8, 6, 5]), user=referee, base_version=0)
    assert list(sheet.scores.order_by("seat__position").values_list("vp", flat=True)) == [10, 7, 6, 5]


def test_re_entering_before_sign_off_clears_signatures(table, referee):
    sheet = save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    sign(sheet.pk, table.seats.first().entry_id, user=referee, method="tap", version=1)
    sheet = save_entry(sheet.pk, entered(table, [10, 8, 6, 5]), user=referee, base_version=1)
    assert sheet.version == 2 and not sheet.signatures.exists()


def test_sign_off_needs_every_signature(table, referee):
    sheet = save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    with pytest.raises(ValidationError, match="Every player must sign"):
        sign_off(sheet.pk, user=referee, version=1)


def test_refusal_is_overruled_only_with_a_written_decision(table, referee):
    sheet = save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    entry_id = table.seats.first().entry_id
    with pytest.raises(ValidationError):
        sign(sheet.pk, entry_id, user=referee, method="overruled", version=1, decision="  ")
    sign(sheet.pk, entry_id, user=referee, method="overruled", version=1,
         decision="Player refused; the scores match the board photo.")
    assert sheet.signatures.get().decision.startswith("Player refused")


def test_only_seated_players_sign(table, referee):
    other = make_entries(table.game.tournament, 1)[0]
    sheet = save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    with pytest.raises(ValidationError, match="Only players seated"):
        sign(sheet.pk, other.pk, user=referee, method="tap", version=1)


def locked(table, referee):
    sheet = save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    sheet = signed_by_all(sheet, table, referee)
    return sign_off(sheet.pk, user=referee, version=sheet.version)


def test_a_locked_sheet_refuses_entry_and_signatures(table, referee):
    sheet = locked(table, referee)
    with pytest.raises(SheetLocked):
        save_entry(sheet.pk, entered(table, [10, 9, 6, 5]), user=referee, base_version=sheet.version)
    assert sign_off(sheet.pk, user=referee, version=sheet.version).is_locked  # repeated sign-off is harmless


def test_correction_by_organizer_keeps_history_and_updates_standings(table, referee,
                                                                    django_capture_on_commit_callbacks):
    sheet = locked(table, referee)
    organizer = make_official(table.game.tournament, "organizer")
    assert tournament_standings(table.game.tournament)[1]["total_vp"] == 7
    with django_capture_on_commit_callbacks(execute=True):
        corrected = correct(sheet.pk, entered(table, [10, 8, 6, 5]), user=organizer,
                            reason="Paper sheet says 8 for seat 2", base_version=sheet.version)
    assert corrected.is_locked and corrected.version == sheet.version + 1
    revisions = list(corrected.revisions.values_list("kind", flat=True))
    assert revisions == ["entered", "signed_off", "corrected"]
    assert [s["vp"] for s in corrected.revisions.get(kind="signed_off").data["scores"]] == [10, 7, 6, 5]
    assert tournament_standings(table.game.tournament)[1]["total_vp"] == 8
    entry = AuditEntry.objects.get(action="sheet.corrected")
    assert entry.user == organizer and entry.reason == "Paper sheet says 8 for seat 2"
    assert [s["vp"] for s in entry.before["scores"]] == [10, 7, 6, 5]
    assert [s["vp"] for s in entry.after["scores"]] == [10, 8, 6, 5]


def test_correction_needs_a_reason_and_an_organizer(table, referee):
    sheet = locked(table, referee)
    with pytest.raises(PermissionDenied):
        correct(sheet.pk, entered(table, [10, 8, 6, 5]), user=referee, reason="typo", base_version=sheet.version)
    organizer = make_official(table.game.tournament, "organizer")
    with pytest.raises(ValidationError) as error:
        correct(sheet.pk, entered(table, [10, 8, 6, 5]), user=organizer, reason=" ", base_version=sheet.version)
    assert "reason" in error.value.message_dict


def test_strangers_cannot_touch_a_sheet(table):
    outsider = make_user()
    other_referee = make_official(make_tournament(), "referee")
    for user in (outsider, other_referee):
        with pytest.raises(PermissionDenied):
            save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=user, base_version=0)
    assert RecordSheet.objects.get(table=table).version == 0


def test_end_time_equal_to_start_time_is_refused(table, referee):
    with pytest.raises(ValidationError) as error:
        save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5], start=time(10, 0), end=time(10, 0)),
                   user=referee, base_version=0)
    assert error.value.message_dict["end_time"] == ["The end time is the same as the start time."]


def test_a_game_past_midnight_still_has_a_duration():
    from engines.ranking.timing import game_minutes

    assert game_minutes(time(23, 30), time(0, 45)) == 75
    assert game_minutes(time(10, 0), time(11, 30)) == 90
    assert game_minutes(time(10, 0), None) is None


def test_tables_of_an_unpublished_game_have_no_sheet(client):
    from scheduling.models import Game

    tournament = make_tournament()
    referee = make_official(tournament)
    game = make_game(tournament, [make_entries(tournament, 4)])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLANNED)
    table = game.tables.get()
    client.force_login(referee)
    assert client.get(f"/referee/{tournament.slug}/tables/{table.pk}/").status_code == 404
    sheet = table.sheet
    with pytest.raises(ValidationError, match="not published yet"):
        save_entry(sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)


def test_once_everyone_has_signed_the_scores_cannot_change(table, referee):
    sheet = save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5]), user=referee, base_version=0)
    sheet = signed_by_all(sheet, table, referee)
    with pytest.raises(SheetLocked, match="Every player has signed"):
        save_entry(sheet.pk, entered(table, [10, 8, 6, 5]), user=referee, base_version=sheet.version)
    assert sheet.signatures.count() == 4


def test_an_implausibly_long_game_is_questioned(table, referee):
    with pytest.raises(ValidationError) as error:
        save_entry(table.sheet.pk, entered(table, [10, 7, 6, 5], start=time(14, 0), end=time(13, 10)),
                   user=referee, base_version=0)
    assert "more than 6 hours" in error.value.message_dict["end_time"][0]


def test_an_unchanged_correction_is_a_message_not_an_error_page(client, table, referee):
    sheet = locked(table, referee)
    organizer = make_official(table.game.tournament, "organizer")
    client.force_login(organizer)
    seats = list(table.seats.order_by("position"))
    data = {**{f"vp_{s.entry_id}": v for s, v in zip(seats, [10, 7, 6, 5])}, "start_time": "10:00",
            "end_time": "11:30", "base_version": sheet.version, "reason": "checking"}
    response = client.post(f"/referee/{table.game.tournament.slug}/tables/{table.pk}/correct/", data)
    assert response.status_code == 422 and "Nothing was changed" in response.content.decode()


def test_a_sheet_error_reads_in_the_referee_s_language(table, referee):
    """The form shows the engine's problem in the same words as the command line, translated."""
    from django.utils import translation

    with translation.override("ar"), pytest.raises(ValidationError) as error:
        save_entry(table.sheet.pk, entered(table, [9, 7, 6, 5]), user=referee, base_version=0)
    (message,) = error.value.message_dict["winner"]
    with translation.override("ar"):
        expected = translation.gettext("No winner: nobody has %(min)d or more VP.") % {"min": 10}
    assert message == expected and message != "No winner: nobody has 10 or more VP."
