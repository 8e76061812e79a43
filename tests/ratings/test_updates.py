"""The ratings follow the results: each sign-off rates its table, a correction recomputes from its game on and
nothing before it, and the incremental result is exactly what rating everything from the start gives."""
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from championships.models import Tournament
from engines.ratings import INITIAL
from ratings import services
from ratings.games import rated_tables
from ratings.models import PlayerRating, RatedTable, RatingChange, RatingRequest
from results.models import RecordSheet
from results.sheets import SheetInput, correct
from tests.factories import make_admin

from .helpers import make_players, running_tournament, sign_off_game, snapshot_history, snapshot_ratings

pytestmark = pytest.mark.django_db

GAME_VPS = [[[10, 8, 6, 4], [10, 9, 7, 7]], [[7, 10, 5, 5], [3, 4, 10, 6]], [[6, 6, 10, 2], [8, 10, 9, 9]]]


@pytest.fixture
def history(django_capture_on_commit_callbacks):
    """Two tournaments of eight players, three games each, signed off one table at a time."""
    players = make_players(12)
    first = running_tournament(players[:8], day=date(2022, 6, 11), games=3)
    second = running_tournament(players[4:], day=date(2022, 9, 3), games=3)
    for tournament in (first, second):
        for number, vps in enumerate(GAME_VPS, start=1):
            sign_off_game(tournament, number, vps, django_capture_on_commit_callbacks)
    return {"players": players, "first": first, "second": second}


def test_every_sign_off_is_rated_in_game_order(history):
    assert RatedTable.objects.count() == 12
    assert RatingChange.objects.count() == 48
    assert not RatingRequest.objects.exists()
    keys = list(RatedTable.objects.values_list("key", flat=True))
    assert keys == sorted(keys) and keys[0].startswith("2022-06-11/")
    assert PlayerRating.objects.get(player=history["players"][4]).games == 6  # in both tournaments


def test_incremental_updates_equal_a_full_recompute(history):
    incremental, incremental_history = snapshot_ratings(), snapshot_history()
    call_command("rate", verbosity=0)
    assert snapshot_ratings() == incremental  # the same floats, not merely close
    assert snapshot_history() == incremental_history


def test_the_same_games_give_the_same_ratings(history):
    services.recompute_all()
    first = snapshot_ratings()
    RatingChange.objects.all().delete()
    RatedTable.objects.all().delete()
    PlayerRating.objects.all().delete()
    services.recompute_all()
    assert snapshot_ratings() == first


def test_places_come_from_the_sheet_winner_first_equal_vp_tied(history):
    # game 1, table 2 of the first tournament: 10 (winner), 9, 7, 7 -> places 1, 2, 3, 3
    table = RatedTable.objects.get(tournament=history["first"], game_number=1, table_number=2)
    assert sorted(table.changes.values_list("place", flat=True)) == [1, 2, 3, 3]
    # game 2, table 1: the winner is named by the sheet (10 VP), the two players on 5 share 3rd
    table = RatedTable.objects.get(tournament=history["first"], game_number=2, table_number=1)
    assert sorted(table.changes.values_list("place", flat=True)) == [1, 2, 3, 3]


def test_a_correction_recomputes_from_its_game_on_and_keeps_what_came_before(history,
                                                                            django_capture_on_commit_callbacks):
    first = history["first"]
    before = {row[0]: row for row in RatingChange.objects.values_list("pk", "table_id", "player_id", "mu", "sigma")}
    table = first.games.get(number=2).tables.get(number=1)
    sheet = RecordSheet.objects.get(table=table)
    seats = list(table.seats.order_by("position"))
    corrected_key = RatedTable.objects.get(tournament=first, game_number=2, table_number=1).key
    rated = []
    original = services.recompute_from

    def spy(from_key):
        rated.append(from_key)
        return original(from_key)

    services.recompute_from = spy
    try:
        with django_capture_on_commit_callbacks(execute=True):
            correct(sheet.pk, SheetInput({seats[0].entry_id: 10, seats[1].entry_id: 9, seats[2].entry_id: 5,
                                          seats[3].entry_id: 5}, seats[0].entry_id),
                    user=make_admin(), reason="The paper sheet names the first player.", base_version=sheet.version)
    finally:
        services.recompute_from = original
    assert rated == [corrected_key]
    after = {row[0]: row for row in RatingChange.objects.values_list("pk", "table_id", "player_id", "mu", "sigma")}
    kept = {pk: row for pk, row in before.items() if row[1] < corrected_key}
    assert kept and all(after[pk] == row for pk, row in kept.items())  # the same rows, untouched
    assert not any(pk in after for pk, row in before.items() if row[1] >= corrected_key)  # the rest replayed
    winner = RatingChange.objects.get(table_id=corrected_key, player=seats[0].entry.player)
    assert winner.place == 1
    assert_same_as_a_full_recompute()


def test_a_tournament_counts_only_while_running_or_finished(history, django_capture_on_commit_callbacks):
    second = history["second"]
    only_second = history["players"][8]
    with django_capture_on_commit_callbacks(execute=True):
        Tournament.objects.get(pk=second.pk).save()  # nothing changed: nothing replayed
    assert RatedTable.objects.filter(tournament=second).count() == 6
    with django_capture_on_commit_callbacks(execute=True):
        second.status = Tournament.Status.DRAFT
        second.save()
    assert not RatedTable.objects.filter(tournament=second).exists()
    assert not PlayerRating.objects.filter(player=only_second).exists()
    assert_same_as_a_full_recompute()


def test_a_new_date_moves_the_games_in_the_order(history, django_capture_on_commit_callbacks):
    second = history["second"]
    with django_capture_on_commit_callbacks(execute=True):
        second.date = date(2022, 1, 1)
        second.save()
    keys = list(RatedTable.objects.values_list("key", "tournament_id"))
    assert [t for _key, t in keys[:6]] == [second.pk] * 6
    assert_same_as_a_full_recompute()


def test_a_deleted_game_leaves_no_trace_in_the_ratings(history, django_capture_on_commit_callbacks):
    first = history["first"]
    with django_capture_on_commit_callbacks(execute=True):
        first.games.get(number=3).delete()
    assert sorted(RatedTable.objects.filter(tournament=first).values_list("game_number", flat=True)) == [1, 1, 2, 2]
    assert PlayerRating.objects.get(player=history["players"][0]).games == 2
    assert_same_as_a_full_recompute()


def test_a_burst_is_rated_in_one_update(history):
    RatingRequest.objects.bulk_create(RatingRequest(tournament_id=history["first"].pk) for _ in range(20))
    assert services.run_updates() == 0  # nothing differs: no replay at all
    assert not RatingRequest.objects.exists()


def test_rate_check_reports_a_difference_without_changing_anything(history):
    PlayerRating.objects.filter(player=history["players"][0]).update(mu=99.0)
    with pytest.raises(CommandError, match="1 stored ratings differ") as refused:
        call_command("rate", "--check", verbosity=0)
    assert refused.value.returncode == 1
    assert PlayerRating.objects.get(player=history["players"][0]).mu == 99.0
    call_command("rate", verbosity=0)
    call_command("rate", "--check", verbosity=0)


def test_a_first_game_starts_from_the_initial_rating(history):
    first_change = RatingChange.objects.order_by("table_id", "player_id").first()
    assert (first_change.mu_before, first_change.sigma_before, first_change.games_before) == (
        INITIAL.mu, INITIAL.sigma, 0)
    assert len(rated_tables()) == 12


def assert_same_as_a_full_recompute():
    incremental = snapshot_ratings()
    services.recompute_all()
    assert snapshot_ratings() == incremental
