"""Fairness limits on random boards (issue 14): every limit asked for holds, over many seeds (property-based)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.boards import fairness
from engines.boards.fairness import (
    BALANCED_PIPS,
    LIMITS,
    RED_NUMBERS_SPREAD,
    TWO_AND_TWELVE_APART,
    LimitsNotMet,
    broken_limits,
    generate_fair_board,
    pips,
)
from engines.boards.generator import board_problems, decode_board, generate_board

seeds = st.integers(min_value=0, max_value=2**32 - 1)
limit_sets = st.lists(st.sampled_from(LIMITS), unique=True)


def numbers_by_resource(board):
    grouped = {}
    for h in board.hexes:
        if h.number is not None:
            grouped.setdefault(h.resource, []).append(h.number)
    return grouped


@settings(max_examples=300, deadline=None)
@given(seed=seeds, limits=limit_sets)
def test_every_limit_asked_for_holds_on_a_legal_board(seed, limits):
    board = generate_fair_board(seed, limits)
    assert board_problems(board) == []
    assert decode_board(board.code) == board  # the code round-trips
    assert broken_limits(board, limits) == []
    grouped = numbers_by_resource(board)
    if RED_NUMBERS_SPREAD in limits:
        assert all(sum(n in (6, 8) for n in ns) <= 1 for ns in grouped.values())
    if TWO_AND_TWELVE_APART in limits:
        assert not any(2 in ns and 12 in ns for ns in grouped.values())
    if BALANCED_PIPS in limits:
        assert all(2.5 <= sum(pips(n) for n in ns) / len(ns) <= 4.0 for ns in grouped.values())


@settings(max_examples=50, deadline=None)
@given(seed=seeds)
def test_the_same_seed_and_limits_give_the_same_board(seed):
    assert generate_fair_board(seed, LIMITS) == generate_fair_board(seed, list(reversed(LIMITS)))


def test_the_limits_do_bind_plain_random_boards_break_them():
    broken = {limit for seed in range(200) for limit in broken_limits(generate_board(seed), LIMITS)}
    assert broken == {RED_NUMBERS_SPREAD, TWO_AND_TWELVE_APART, BALANCED_PIPS}


def test_unknown_limits_are_refused_and_limits_not_met_are_named(monkeypatch):
    with pytest.raises(ValueError, match="unknown board limit"):
        generate_fair_board(1, ["no_sheep"])
    with pytest.raises(ValueError, match="unknown board limit"):
        broken_limits(generate_board(1), ["no_sheep"])
    monkeypatch.setattr(fairness, "MAX_TRIES", 1)  # one try per layout: most seeds find no fair board
    failures = []
    for seed in range(20):
        try:
            generate_fair_board(seed, LIMITS, max_layouts=1)
        except LimitsNotMet as error:
            failures.append(error.limits)
    assert failures and all(limits and set(limits) <= set(LIMITS) for limits in failures)
