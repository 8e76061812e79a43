"""Properties of the ranking engine over random tournaments (hypothesis)."""
import csv
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.metrics import DRAW, METRICS
from engines.ranking.csv_files import read_results
from engines.ranking.engine import CheckedTables, SeatResult, TableResult, player_records, rank
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


def penalties(data, players):
    """Drawn VP deductions (a few players) and disqualifications (at most one)."""
    return (data.draw(st.dictionaries(st.sampled_from(players), st.integers(1, 3), max_size=2)),
            data.draw(st.sets(st.sampled_from(players), max_size=1)))


@settings(max_examples=150, deadline=None)
@given(tournaments(), rulesets, st.data())
def test_order_never_depends_on_the_order_of_rows_and_tables(tournament, ruleset, data):
    players, tables = tournament
    deductions, disqualified = penalties(data, players)
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


def reference(tables, ruleset, deductions, disqualified):
    """The plain algorithm the engine streams: every value of every player held, one sort, groups of equal keys."""
    records = player_records(tables, ruleset, deductions=deductions)
    values = {p: {k: m.compute(records[p]) for k, m in METRICS.items()} for p in records}
    keys = {p: (p not in disqualified, *(v[k] for k in RULESETS[ruleset].computed)) for p, v in values.items()}
    order = sorted(sorted(records), key=keys.__getitem__, reverse=True)
    return [(1 + next(i for i, q in enumerate(order) if keys[q] == keys[p]), p,
             sum(keys[q] == keys[p] for q in order) > 1, p in disqualified, {**values[p], DRAW: None}) for p in order]


@settings(max_examples=150, deadline=None)
@given(tournaments(), rulesets, st.data())
def test_streamed_standings_match_the_plain_algorithm(tournament, ruleset, data):
    players, tables = tournament
    deductions, disqualified = penalties(data, players)
    standings = rank(tables, ruleset, deductions=deductions, disqualified=disqualified)
    assert outcome(standings) == reference(tables, ruleset, deductions, disqualified)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tournaments(), rulesets)
def test_the_command_s_reader_gives_the_engine_the_same_tables(tmp_path_factory, tournament, ruleset):
    """`rank` reads its file into columns and the engine takes them unchecked: same standings as checked tables."""
    _, tables = tournament
    path = tmp_path_factory.mktemp("results") / "results.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["game", "table", "player", "vp", "winner", "minutes"])
        for t in tables:
            out.writerows([t.game, t.table, s.player, s.vp, int(s.winner), t.minutes] for s in t.seats)
    read = read_results(path, RULESETS[ruleset])
    assert isinstance(read, CheckedTables) and list(read) == tables
    assert outcome(rank(read, ruleset)) == outcome(rank(tables, ruleset))
