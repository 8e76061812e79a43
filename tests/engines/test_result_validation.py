"""Per-table checks shared by the CLI, the engine and the record-sheet form: each problem sits on a field."""
import pytest

from engines.ranking.problems import MESSAGES, NAMES_JOINED, Problem, render
from engines.ranking.validation import (
    check_deduction,
    check_table,
    players_seated_twice,
    winner_flags,
)
from engines.rulesets import RULESETS

LORD = RULESETS["lord-of-catan"]


def fields(problems):
    return [(p.player, p.field, p.seat) for p in problems]


def test_a_valid_table_has_no_problems():
    assert check_table([("A", 10, True), ("B", 10, False), ("C", 7, False), ("D", 0, False)]) == []
    assert check_table([("A", 11, True), ("B", 12, False), ("C", 2, False)], minutes=55, ruleset=LORD) == []


def test_each_problem_names_its_player_field_and_seat():
    problems = check_table([("A", 10, True), ("B", 13, False), ("", 7, False), ("B", 5, False)])
    assert fields(problems) == [("B", "vp", 1), (None, "player", 2), ("B", "player", 3)]
    assert "B: VP must be a whole number from 0 to 12, not 13." in [p.message for p in problems]


@pytest.mark.parametrize("vp", [-1, 13, 8.0, "8", True])
def test_vp_must_be_a_whole_number_from_0_to_12(vp):
    (problem,) = check_table([("A", 10, True), ("B", vp, False), ("C", 7, False)])
    assert (problem.player, problem.field, problem.seat, problem.code) == ("B", "vp", 1, "vp_range")
    assert repr(vp) in problem.message


def test_a_vp_left_empty_asks_for_it():
    (problem,) = check_table([("A", 10, True), ("B", None, False), ("C", 7, False)])
    assert (problem.code, problem.message) == ("vp_missing", "Enter B's VP.")


@pytest.mark.parametrize("size", [1, 2, 5, 6])
def test_a_table_seats_three_or_four(size):
    seats = [("W", 10, True), *((f"P{i}", 5, False) for i in range(size - 1))]
    (problem,) = check_table(seats)
    assert (problem.player, problem.field) == (None, "seats")
    assert f"this one has {size}" in problem.message


def test_exactly_one_winner_with_at_least_ten_vp():
    (none,) = check_table([("A", 10, False), ("B", 8, False), ("C", 7, False)])
    assert none.field == "winner"
    assert none.message == "No winner is marked: exactly one player wins each table."
    (two,) = check_table([("A", 10, True), ("B", 10, True), ("C", 7, False)])
    assert two.field == "winner" and "A and B are marked as winners" in two.message
    (low,) = check_table([("A", 9, True), ("B", 8, False), ("C", 7, False)])
    assert (low.player, low.field, low.seat) == ("A", "vp", 0) and "at least 10" in low.message


def test_the_winner_is_inferred_from_the_single_player_with_ten_or_more():
    seats = [("A", 8, None), ("B", 11, None), ("C", 7, None)]
    assert check_table(seats) == []
    assert winner_flags(seats) == [False, True, False]


def test_two_players_with_ten_or_more_need_the_winner_marked():
    seats = [("A", 10, None), ("B", 10, None), ("C", 7, None), ("D", 3, None)]
    (problem,) = check_table(seats)
    assert problem.field == "winner" and "winner column" in problem.message and "A and B" in problem.message
    with pytest.raises(ValueError, match="cannot be inferred"):
        winner_flags(seats)


def test_nobody_with_ten_vp_and_no_winner_marked():
    (problem,) = check_table([("A", 9, None), ("B", 8, None), ("C", 7, None)])
    assert problem.message == "No winner: nobody has 10 or more VP."


def test_recorded_flags_win_over_inference():
    seats = [("A", 10, False), ("B", 10, True), ("C", 7, False)]
    assert check_table(seats) == [] and winner_flags(seats) == [False, True, False]


def test_minutes_are_required_only_where_the_ruleset_ranks_by_tempo():
    seats = [("A", 10, True), ("B", 8, False), ("C", 7, False)]
    assert check_table(seats, ruleset=RULESETS["cnc-2022"]) == []
    (problem,) = check_table(seats, ruleset=LORD)
    assert problem == Problem(None, "minutes", "minutes_required", {"ruleset": "lord-of-catan"})
    assert problem.message == "The game duration in minutes is required by lord-of-catan."
    assert check_table(seats, minutes=45, ruleset=LORD) == []
    for minutes in (0, "45"):
        (problem,) = check_table(seats, minutes=minutes)
        assert problem.code == "minutes_invalid" and repr(minutes) in problem.message


def test_every_problem_is_worded_once_and_rendered_through_the_translation():
    (problem,) = check_table([("A", 10, True), ("B", 10, True), ("C", 7, False)])
    assert problem.code in MESSAGES and problem.params == {"players": ("A", "B")}
    french = {MESSAGES["several_winners"]: "%(players)s sont marqués gagnants : un seul gagnant par table.",
              NAMES_JOINED: "%(names)s et %(last)s"}
    assert render(problem, french.__getitem__) == "A et B sont marqués gagnants : un seul gagnant par table."
    assert render(problem) == problem.message == "A and B are marked as winners: exactly one player wins each table."


@pytest.mark.parametrize(("vp", "ok"), [
    (1, True), (5, True), (0, False), (-2, False), ("1", False), (1.0, False),
])
def test_deductions_are_positive_whole_numbers(vp, ok):
    assert (check_deduction(vp) is None) == ok


def test_players_seated_at_two_tables_of_a_game():
    found = players_seated_twice([(1, ["A", "B", "C"]), (2, ["D", "E", "A"]), (3, ["F", "B", "G", "H"])])
    assert [(table, p.player, p.seat) for table, p in found] == [(2, "A", 2), (3, "B", 1)]
    assert found[0][1].message == "A is also seated at table 1 in this game."
    assert players_seated_twice([(1, ["A", "A", "C"])]) == []
