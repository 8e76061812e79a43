"""Properties of the ranking engine over random tournaments (hypothesis)."""
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.ranking.engine import SeatResult, TableResult, rank
from engines.rulesets import RULESETS


def table_sizes(n):
    """docs/rules.md §2: as many 4-player tables as possible, the rest 3-player tables."""
    k, r = divmod(n, 4)
    return {0: [4] * k, 3: [4] * k + [3], 2: [4] * (k - 1) + [3] * 2, 1: [4] * (k - 2) + [3] * 3}[r]


@st.composite
def tournaments(draw):
    n = draw(st.sampled_from([3, 4, 6, 7, 8, 9, 10, 11, 12, 13]))
    players = [f"P{i:02d}" for i in range(n)]
    tables = []
    for game in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        start = 0
        for number, size in enumerate(table_sizes(n), 1):
            seated = order[start:start + size]
            start += size
            winner = draw(st.integers(0, size - 1))
            vps = [draw(st.integers(10, 12) if i == winner else st.integers(0, 12)) for i in range(size)]
            seats = tuple(SeatResult(p, vp, i == winner) for i, (p, vp) in enumerate(zip(seated, vps)))
            tables.append(TableResult(game, number, seats, draw(st.integers(20, 120))))
    return players, tables


rulesets = st.sampled_from(sorted(RULESETS))


def outcome(standings):
    return [(s.rank, s.player, s.tied, s.disqualified, s.values) for s in standings]


@settings(max_examples=150, deadline=None)
@given(tournaments(), rulesets, st.data())
def test_order_never_depends_on_the_order_of_rows_and_tables(tournament, ruleset, data):
    players, tables = tournament
    deductions = data.draw(st.dictionaries(st.sampled_from(players), st.integers(1, 3), max_size=2))
    disqualified = data.draw(st.sets(st.sampled_from(players), max_size=1))
    draws = data.draw(st.lists(st.permutations(players), max_size=1))
    shuffled = [replace(t, seats=tuple(data.draw(st.permutations(t.seats))))
                for t in data.draw(st.permutations(tables))]
    options = {"deductions": deductions, "disqualified": disqualified, "draws": draws}
    assert outcome(rank(shuffled, ruleset, **options)) == outcome(rank(tables, ruleset, **options))


@settings(max_examples=150, deadline=None)
@given(tournaments(), rulesets)
def test_ranks_are_standard_competition_ranks(tournament, ruleset):
    _, tables = tournament
    standings = rank(tables, ruleset)
    for s in standings:
        shared = [o for o in standings if o.rank == s.rank]
        assert s.rank == 1 + standings.index(shared[0]) == 1 + sum(o.rank < s.rank for o in standings)
        assert s.tied == (len(shared) > 1)
        if s.tied:
            chain = RULESETS[ruleset].computed
            assert all([o.values[k] for k in chain] == [s.values[k] for k in chain] for o in shared)
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)


@settings(max_examples=200, deadline=None)
@given(tournaments(), rulesets, st.data())
def test_turning_a_non_win_into_a_win_never_lowers_that_players_rank(tournament, ruleset, data):
    _, tables = tournament
    i = data.draw(st.integers(0, len(tables) - 1))
    table = tables[i]
    j = data.draw(st.sampled_from([k for k, s in enumerate(table.seats) if not s.winner]))
    seats = tuple(
        SeatResult(s.player, max(s.vp, 10), True) if k == j else SeatResult(s.player, s.vp, False)
        for k, s in enumerate(table.seats)
    )
    player = table.seats[j].player
    flipped = [*tables[:i], replace(table, seats=seats), *tables[i + 1:]]
    before = {s.player: s.rank for s in rank(tables, ruleset)}[player]
    after = {s.player: s.rank for s in rank(flipped, ruleset)}[player]
    assert after <= before
