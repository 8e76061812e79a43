"""Schedules from translation-invariant games (engines/seating/translation.py) and the exact
cover that splits differences into planes."""

import random
from collections import Counter
from itertools import combinations

import pytest

from engines.seating.exact_cover import exact_cover
from engines.seating.translation import most_games, translation_design


def meetings(schedule) -> Counter:
    return Counter(frozenset(pair) for game in schedule for table in game for pair in combinations(table, 2))


def test_exact_cover_finds_knuths_example():
    rows = {"A": [1, 4, 7], "B": [1, 4], "C": [4, 5, 7], "D": [3, 5, 6], "E": [2, 3, 6, 7], "F": [2, 7]}
    assert sorted(exact_cover(rows, random.Random(0), 100)) == ["B", "D", "F"]


def test_exact_cover_says_none_when_no_cover_exists_or_the_limit_is_hit():
    assert exact_cover({"A": [1, 2], "B": [2, 3], "C": [1, 3]}, random.Random(0), 100) is None
    rows = {(i, j): [("row", i), ("column", j)] for i in range(6) for j in range(6)}  # a permutation
    assert exact_cover(rows, random.Random(0), 3) is None
    assert len(exact_cover(rows, random.Random(0), 100)) == 6


@pytest.mark.parametrize("players", [16, 32, 64, 128, 256])
def test_powers_of_two_play_the_most_games_possible_without_a_repeat(players):
    games = most_games(players)
    schedule = translation_design(players, games, random.Random(1))
    assert schedule is not None and len(schedule) == games
    for game in schedule:
        assert sorted(p for table in game for p in table) == list(range(players))
        assert all(len(table) == 4 for table in game)
    met = meetings(schedule)
    assert max(met.values()) == 1
    assert len(met) == games * players // 4 * 6
    if players in (32, 128):  # 3 × games = players - 2: each player misses exactly one other (a perfect matching)
        missed = Counter(p for pair in combinations(range(players), 2) if frozenset(pair) not in met for p in pair)
        assert sorted(missed.values()) == [1] * players


def test_fewer_games_are_a_part_of_the_design_and_each_seed_gives_one_schedule():
    first = translation_design(32, 7, random.Random(5))
    assert len(first) == 7 and max(meetings(first).values()) == 1
    assert first == translation_design(32, 7, random.Random(5))
    assert first != translation_design(32, 7, random.Random(6))


def test_the_field_arithmetic_is_a_field():
    from engines.seating.translation import _irreducible, _multiplication

    assert [p for p in range(8, 16) if _irreducible(p)] == [0b1011, 0b1101]  # x^3 + x + 1, x^3 + x^2 + 1
    times = _multiplication(5)
    for x in range(1, 32):
        assert sorted(times(x, y) for y in range(32)) == list(range(32))  # no zero divisors
        assert times(x, times(3, 7)) == times(times(x, 3), 7)


@pytest.mark.parametrize("players, games", [(32, 11), (24, 7), (8, 2), (48, 5), (32, 0)])
def test_sizes_outside_the_family_get_none(players, games):
    assert translation_design(players, games, random.Random(0)) is None
