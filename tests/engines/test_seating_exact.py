"""Proven bounds on repeat pairings: the exhaustive search, and how the report words them."""

import io
from itertools import combinations

import pytest
from django.core.management import call_command

from engines.seating.engine import SeatingProblem, seat
from engines.seating.exact import _clique, _met_after_two_games, _patterns, _rounds, one_repeat_possible, repeat_free


@pytest.mark.parametrize("players, games, possible", [
    (8, 1, True), (8, 2, False), (12, 3, False),  # fewer than 4 tables: game 2 must repeat
    (16, 5, True), (16, 6, False),  # the affine plane of order 4; 18 opponents of 15
])
def test_repeat_free_decides_small_stages(players, games, possible):
    assert repeat_free(players, games) is possible


def test_twenty_players_cannot_play_six_games_without_a_repeat():
    """The search's counting bound is 0 here (18 opponents needed of 19): only exhaustion proves it."""
    assert repeat_free(20, 6) is False


def test_the_rounds_listed_after_two_games_are_exactly_the_repeat_free_ones():
    pattern = next(_patterns(4))
    met = _met_after_two_games(16, pattern)
    rounds = _rounds(16, met, node_limit=10**6)
    assert rounds and len(set(rounds)) == len(rounds)
    for pairs in rounds:
        together = [divmod(bit, 16) for bit in range(16 * 16) if pairs >> bit & 1]
        assert len(together) == 4 * 6
        assert all(not met[a] >> b & 1 for a, b in together)
    # 16 players: after two games exactly three more repeat-free games fit (5 in all), not four.
    assert _clique(rounds, 3) and not _clique(rounds, 4)


def test_an_undecided_search_says_so():
    assert repeat_free(32, 10, node_limit=1_000) is None


def meetings(schedule) -> int:
    met: dict = {}
    for game in schedule.games:
        for table in game:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values() if m > 1)


def test_twenty_players_six_games_reports_a_proven_bound_and_the_gap():
    result = seat(SeatingProblem(players=tuple(range(20)), games=6, seed=0), budget=400_000)
    report = result.report
    assert report.repeat_pairings == meetings(result.schedule) >= 2
    assert report.repeat_bound == 2
    assert report.fewest_repeats_proven is (report.repeat_pairings == 2)


@pytest.mark.parametrize("players, games, possible", [
    (20, 5, True), (20, 6, False),  # 20 × 6: at least 2 repeats, proven
    (16, 6, False),  # 4 game-1 tables: a game 2 sharing a pair with game 1 shares at least two
    (12, 3, False), (8, 2, False),  # fewer than 4 tables: game 2 repeats several pairs
    (24, 9, False),  # players outside the pair would need 27 opponents of 23
])
def test_one_repeat_possible_decides_small_stages(players, games, possible):
    assert one_repeat_possible(players, games) is possible


def test_patterns_skip_renumberings_of_game_one_tables():
    assert len(list(_patterns(5))) == 1
    assert len(list(_patterns(5, doubled=True))) == 1  # 30 patterns before, all one up to renumbering
    for pattern in _patterns(6, doubled=True):
        uses = [sum(row.count(g) for row in pattern) for g in range(6)]
        assert uses == [4] * 6 and sum(len(set(row)) < 4 for row in pattern) == 1


def test_counting_proves_the_fewest_repeats_for_three_tables():
    # 12 players, 3 games: every table of game 2 holds two players of some game-1 table, and so on.
    report = seat(SeatingProblem(players=tuple(range(12)), games=3, seed=1), budget=100_000).report
    assert report.repeat_pairings == report.repeat_bound == 6
    assert report.fewest_repeats_proven


def command_report(tmp_path, players: int, games: int) -> str:
    path = tmp_path / "players.csv"
    path.write_text("player\n" + "".join(f"P{i:02d}\n" for i in range(players)), encoding="utf-8")
    err = io.StringIO()
    call_command("seat", str(path), "--games", str(games), stdout=io.StringIO(), stderr=err)
    return err.getvalue()


def test_the_command_says_fewest_possible_only_when_proven(tmp_path):
    proven = command_report(tmp_path, 12, 3)
    assert "repeated pairings: 6 (the fewest possible, proven)" in proven
    # 6 players at two tables of 3: 4 repeats are forced by counting; the search leaves 5.
    open_question = command_report(tmp_path, 6, 3)
    line = next(text for text in open_question.splitlines() if text.startswith("repeated pairings"))
    assert "fewest possible" not in line
    assert line == ("repeated pairings: 5 (at least 4 cannot be avoided, proven; whether fewer than 5 "
                    "are possible is not established)")
