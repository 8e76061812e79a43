"""The pure seating engine (docs/rules.md §2): constraints, determinism, re-seating, seeded charts."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.seating.engine import (
    QualityReport,
    Schedule,
    SeatingError,
    SeatingProblem,
    assess,
    final_table,
    reseat,
    seat,
    seeded_tables,
    table_sizes,
)

# Enough for every small instance here; keeps the instances whose optimum is above the
# engine's lower bound (mixed table sizes) from running the full default budget.
SMALL = 200_000


def names(count: int) -> tuple[str, ...]:
    return tuple(f"P{i:02d}" for i in range(1, count + 1))


def pair_meetings(games) -> Counter:
    met: Counter = Counter()
    for game in games:
        for table in game:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def check_shape(problem: SeatingProblem, schedule: Schedule) -> None:
    """Every planned game seats every player once, at tables of the rule's sizes."""
    assert len(schedule.games) == problem.games
    for game in schedule.games:
        assert sorted(len(t) for t in game) == sorted(table_sizes(len(problem.players)))
        seated = [p for table in game for p in table]
        assert sorted(seated) == sorted(problem.players)


# --- table sizes and impossible counts ------------------------------------------------------

@pytest.mark.parametrize("count", [c for c in range(3, 21) if c != 5])
def test_table_sizes_use_as_many_fours_as_possible(count):
    sizes = table_sizes(count)
    assert sum(sizes) == count and set(sizes) <= {3, 4}
    assert sizes.count(3) == {0: 0, 3: 1, 2: 2, 1: 3}[count % 4]
    problem = SeatingProblem(players=names(count), games=2)
    check_shape(problem, seat(problem, budget=SMALL).schedule)


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_counts_that_cannot_be_seated_are_a_plain_value_error(count):
    with pytest.raises(SeatingError, match=f"^{count} players? cannot be seated") as caught:
        SeatingProblem(players=names(count), games=1)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "at least 1"),
        ({"players": ("a", "b", "c", "a")}, "listed twice"),
        ({"relations": (("P01", "nobody"),)}, "not a player"),
        ({"relations": (("P01", "P01"),)}, "themselves"),
    ],
)
def test_malformed_problems_are_refused(kwargs, message):
    with pytest.raises(SeatingError, match=message):
        SeatingProblem(**{"players": names(8), "games": 2, **kwargs})


# --- priority 1: friends and family ---------------------------------------------------------

def test_declared_pairs_never_share_a_table():
    players = names(16)
    relations = tuple((players[i], players[j]) for i, j in [(0, 1), (0, 2), (1, 2), (3, 4), (5, 15), (6, 7)])
    problem = SeatingProblem(players=players, games=4, relations=relations, seed=3)
    result = seat(problem)
    assert result.report.friend_conflicts == ()
    met = pair_meetings(result.schedule.games)
    assert all(met[frozenset(pair)] == 0 for pair in relations)


def test_an_unavoidable_pair_is_reported_never_silently_accepted():
    players = names(8)
    everyone = tuple(("P01", p) for p in players[1:])
    problem = SeatingProblem(players=players, games=3, relations=everyone, seed=1)
    result = seat(problem, budget=SMALL)
    conflicts = result.report.friend_conflicts
    expected = [
        (game, ("P01", other))
        for game, tables in enumerate(result.schedule.games, 1)
        for table in tables if "P01" in table
        for other in table if other != "P01"
    ]
    assert sorted(conflicts) == sorted(expected)
    assert len(conflicts) == 3 * 3  # P01's three tablemates in each of 3 games, all named


def test_a_player_with_five_friends_among_17_meets_none_and_nobody_meets_twice():
    players = names(17)
    relations = tuple(("P01", p) for p in players[1:6])
    problem = SeatingProblem(players=players, games=4, relations=relations, seed=0)
    report = seat(problem, budget=SMALL).report
    assert report.friend_conflicts == () and report.repeat_pairings == 0


# --- priority 2: different opponents -----------------------------------------------------------

@pytest.mark.parametrize("count, games", [(16, 4), (16, 5), (32, 7), (13, 4), (9, 4), (20, 4)])
def test_no_repeat_pairing_where_a_repeat_free_schedule_exists(count, games):
    problem = SeatingProblem(players=names(count), games=games, seed=5)
    result = seat(problem, budget=SMALL)
    check_shape(problem, result.schedule)
    assert result.report.repeat_pairings == 0
    assert max(pair_meetings(result.schedule.games).values()) == 1


def test_repeats_are_counted_and_listed_when_unavoidable():
    problem = SeatingProblem(players=names(6), games=3)
    report = seat(problem, budget=SMALL).report
    met = pair_meetings(seat(problem, budget=SMALL).schedule.games)
    assert report.repeat_pairings == sum(m - 1 for m in met.values()) > 0
    listed = {frozenset(pair): m for pair, m in report.repeated_pairs}
    assert listed == {p: m for p, m in met.items() if m > 1}


@pytest.mark.parametrize("seed", range(4))
def test_three_player_tables_are_spread_over_players(seed):
    """At the default budget, which settles on its own once only this spread is left above its bound."""
    problem = SeatingProblem(players=names(13), games=4, seed=seed)
    result = seat(problem)
    games = result.schedule.games
    at_three = Counter(p for game in games for table in game if len(table) == 3 for p in table)
    assert result.report.repeat_pairings == 0
    assert max(at_three.values()) < 4  # nobody sits at a 3-player table in every game


# --- priorities 3 and 4 (cwc-2025) -------------------------------------------------------------

def world(players, games, **kwargs) -> SeatingProblem:
    return SeatingProblem(
        players=players, games=games, distinct_positions=True, spread_countries=True, **kwargs
    )


def test_world_rules_give_each_player_positions_1_to_4_once():
    problem = world(names(16), 4, seed=9)
    result = seat(problem)
    assert result.report.position_repeats == 0
    positions: dict[str, list[int]] = {}
    for _, _, position, player in result.schedule.rows():
        positions.setdefault(player, []).append(position)
    assert all(sorted(ps) == [1, 2, 3, 4] for ps in positions.values())


def test_positions_at_three_player_tables_are_1_to_3_and_distinct_under_world_rules():
    problem = world(names(11), 3, seed=4)
    result = seat(problem, budget=SMALL)
    for game in result.schedule.games:
        assert sorted(len(t) for t in game) == [3, 4, 4]
    rows = list(result.schedule.rows())
    sizes = {(g, t): len(result.schedule.games[g - 1][t - 1]) for g, t, _, _ in rows}
    assert all(1 <= position <= sizes[g, t] for g, t, position, _ in rows)
    assert result.report.position_repeats == 0


def test_world_rules_keep_compatriots_apart_when_possible():
    players = names(16)
    countries = {p: "ABCD"[i % 4] for i, p in enumerate(players)}
    result = seat(world(players, 4, countries=countries, seed=1))
    assert result.report.same_country_tablemates == 0
    assert result.report.repeat_pairings == 0 and result.report.position_repeats == 0


def test_countries_and_positions_are_goals_only_when_asked():
    players = names(16)
    countries = {p: "ABCD"[i % 4] for i, p in enumerate(players)}
    plain = SeatingProblem(players=players, games=4, countries=countries, seed=1)
    report = seat(plain).report
    assert report.same_country_tablemates > 0 and report.position_repeats > 0


# --- determinism -------------------------------------------------------------------------------

def test_same_seed_same_schedule_and_seeds_vary_it():
    players = names(20)
    relations = (("P01", "P02"), ("P03", "P04"))
    schedules = [seat(SeatingProblem(players=players, games=3, relations=relations, seed=s)).schedule
                 for s in (11, 11, 12)]
    assert schedules[0] == schedules[1]
    assert schedules[0] != schedules[2]


# --- re-seating --------------------------------------------------------------------------------

def played(problem: SeatingProblem, games: int) -> tuple:
    return seat(problem).schedule.games[:games]


def test_reseat_plans_only_the_remaining_games_and_remembers_who_met():
    players = names(16)
    history = played(SeatingProblem(players=players, games=2, seed=1), 2)
    problem = SeatingProblem(players=players, games=2, history=history, seed=2)
    result = reseat(problem)
    assert result.schedule.first_game == 3
    assert [g for g, *_ in result.schedule.rows()][0] == 3
    check_shape(problem, result.schedule)
    assert result.report.repeat_pairings == 0
    assert max(pair_meetings(history + result.schedule.games).values()) == 1


def test_reseat_drops_a_withdrawn_player_and_seats_a_late_arrival():
    players = names(16)
    history = played(SeatingProblem(players=players, games=1, seed=3), 1)
    problem = SeatingProblem(players=players, games=3, history=history, relations=(("P05", "P06"),), seed=3)
    result = reseat(problem, withdrawn=["P05"], arrived=["P17", "P18"])
    for game in result.schedule.games:
        seated = [p for table in game for p in table]
        assert "P05" not in seated and {"P17", "P18"} <= set(seated) and len(seated) == 17
        assert sorted(len(t) for t in game) == [3, 3, 3, 4, 4]
    assert result.report.repeat_pairings == 0
    assert "P17" in result.report.opponents


def test_reseat_keeps_positions_played_under_world_rules():
    players = names(16)
    first = seat(world(players, 4, seed=4)).schedule.games[:2]  # a perfect completion exists
    result = reseat(world(players, 2, history=first, seed=5))
    assert result.report.position_repeats == 0
    positions: dict[str, set[int]] = {}
    for game in (*first, *result.schedule.games):
        for table in game:
            for position, player in enumerate(table, 1):
                positions.setdefault(player, set()).add(position)
    assert all(ps == {1, 2, 3, 4} for ps in positions.values())


def test_reseat_refuses_unknown_withdrawals_and_duplicate_arrivals():
    problem = SeatingProblem(players=names(8), games=1)
    with pytest.raises(SeatingError, match="not playing"):
        reseat(problem, withdrawn=["P99"])
    with pytest.raises(SeatingError, match="already playing"):
        reseat(problem, arrived=["P01"])


# --- the report ---------------------------------------------------------------------------------

def test_assess_counts_history_repeats_positions_and_compatriots():
    history = ((("a", "b", "c", "d"), ("e", "f", "g", "h")),)
    planned = ((("a", "b", "e", "f"), ("c", "d", "g", "h")),)
    problem = SeatingProblem(
        players=tuple("abcdefgh"), games=1, history=history, relations=(("c", "g"),),
        countries={"a": "X", "e": "X", "c": "Y"},
    )
    report = assess(problem, planned)
    assert isinstance(report, QualityReport)
    assert report.repeat_pairings == 4  # a-b, e-f, c-d, g-h met in both games
    assert report.friend_conflicts == ((2, ("c", "g")),)
    assert report.same_country_tablemates == 1  # a and e
    assert report.position_repeats == 4  # a, b, g and h kept their positions
    assert report.opponents["a"] == ("b", "c", "d", "b", "e", "f")


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(3, 20).filter(lambda c: c != 5),
    games=st.integers(1, 4),
    pairs=st.lists(st.tuples(st.integers(0, 19), st.integers(0, 19)), max_size=6),
    seed=st.integers(0, 10**6),
    world_rules=st.booleans(),
)
def test_any_small_stage_is_seated_and_reported_truthfully(count, games, pairs, seed, world_rules):
    players = names(count)
    relations = tuple((players[a % count], players[b % count]) for a, b in pairs if a % count != b % count)
    problem = SeatingProblem(
        players=players, games=games, relations=relations, seed=seed,
        distinct_positions=world_rules, spread_countries=world_rules,
        countries={p: "XYZ"[i % 3] for i, p in enumerate(players)},
    )
    result = seat(problem, budget=20_000)
    check_shape(problem, result.schedule)
    fresh, report = assess(problem, result.schedule), result.report
    for name in ("friend_conflicts", "repeat_pairings", "position_repeats", "same_country_tablemates"):
        assert getattr(fresh, name) == getattr(report, name)
    declared = {frozenset(pair) for pair in relations}
    named = [(g, frozenset(pair)) for g, pair in result.report.friend_conflicts]
    together = [
        (g, frozenset(pair))
        for g, game in enumerate(result.schedule.games, 1)
        for table in game for pair in combinations(table, 2) if frozenset(pair) in declared
    ]
    assert Counter(named) == Counter(together)  # equal frozensets may print in different orders


# --- seeded stages ---------------------------------------------------------------------------

def test_semifinal_chart_for_sixteen():
    ranked = [f"seed{i}" for i in range(1, 17)]
    tables = seeded_tables(ranked)
    assert [[int(p[4:]) for p in table] for table in tables] == [
        [1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13],
    ]


@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_seeded_chart_generalises_to_k_tables(k):
    tables = seeded_tables(list(range(1, 4 * k + 1)))
    assert len(tables) == k
    for i, table in enumerate(tables, 1):
        assert table == (i, 2 * k + 1 - i, 2 * k + i, 4 * k + 1 - i)
    assert sorted(p for t in tables for p in t) == list(range(1, 4 * k + 1))
    assert len({sum(t) for t in tables}) == 1  # every table has the same seed total


@pytest.mark.parametrize("bad", [[], list(range(6)), [1, 1, 2, 3]])
def test_seeded_chart_needs_a_multiple_of_four_distinct_players(bad):
    with pytest.raises(SeatingError):
        seeded_tables(bad)


def test_final_table_is_the_top_four_in_order():
    assert final_table(["w1", "w2", "w3", "w4"]) == ("w1", "w2", "w3", "w4")
    assert final_table(list("abcdefg")) == ("a", "b", "c", "d")
    with pytest.raises(SeatingError):
        final_table(["a", "b", "c"])


def test_progress_is_reported_in_order_and_ends_complete():
    heard: list[float] = []
    problem = SeatingProblem(players=tuple(range(13)), games=4, seed=1)
    seat(problem, progress=heard.append)
    assert heard == sorted(heard) and heard[-1] == 1.0 and all(0 < x <= 1 for x in heard)


# --- large stages ------------------------------------------------------------------------------

def cwc_stage(count: int, seed: int = 1) -> SeatingProblem:
    """The benchmark family: 20 countries, one declared pair per four players, cwc-2025 goals."""
    import random

    rng = random.Random(count)
    players = tuple(f"W{i:05d}" for i in range(count))
    shuffled = list(players)
    rng.shuffle(shuffled)
    return world(
        players, 4, seed=seed,
        countries={p: f"C{rng.randrange(20):02d}" for p in players},
        relations=tuple((shuffled[2 * i], shuffled[2 * i + 1]) for i in range(count // 4)),
    )


@pytest.mark.parametrize("count", [256, 1024])
def test_large_cwc_stages_are_seated_without_any_conflict(count):
    """Below and above the size where pair codes turn sparse (512 players)."""
    problem = cwc_stage(count)
    result = seat(problem)
    check_shape(problem, result.schedule)
    report = result.report
    assert (len(report.friend_conflicts), report.repeat_pairings, report.position_repeats,
            report.same_country_tablemates) == (0, 0, 0, 0)


def test_large_stages_are_deterministic_per_seed():
    first, again, other = (seat(cwc_stage(1024, seed)).schedule for seed in (3, 3, 4))
    assert first == again
    assert first != other


def test_a_large_stage_is_replanned_after_a_played_game():
    problem = cwc_stage(1024)
    played = seat(SeatingProblem(players=problem.players, games=1, seed=2)).schedule.games
    later = world(problem.players, 3, history=played, seed=2, countries=problem.countries,
                  relations=problem.relations)
    result = reseat(later, withdrawn=problem.players[:4], arrived=("late 1", "late 2", "late 3", "late 4"))
    report = result.report
    assert (len(report.friend_conflicts), report.repeat_pairings, report.position_repeats,
            report.same_country_tablemates) == (0, 0, 0, 0)
    assert len(report.opponents["late 4"]) == 3 * 3  # three tablemates in each planned game


# --- hard social golfer instances ----------------------------------------------------------------

def test_thirty_two_players_nine_games_without_a_repeat():
    result = seat(SeatingProblem(players=names(32), games=9, seed=0))
    assert result.report.repeat_pairings == 0
    assert result.report.fewest_repeats_proven


@pytest.mark.parametrize("count, games", [(32, 9), (24, 7), (20, 5)])
def test_the_rotational_search_finds_repeat_free_schedules_without_algebra(count, games):
    import random

    from engines.seating.designs import rotational_design

    schedule = rotational_design(count, games, random.Random(0))
    assert schedule is not None and len(schedule) == games
    for game in schedule:
        assert sorted(p for table in game for p in table) == list(range(count))
        assert all(len(table) == 4 for table in game)
    assert max(pair_meetings(schedule).values()) == 1


def test_thirty_two_players_ten_games_without_a_repeat():
    """The social golfer problem's 8-4-10, from the translation design."""
    result = seat(SeatingProblem(players=names(32), games=10, seed=0))
    assert result.report.repeat_pairings == 0
    assert result.report.fewest_repeats_proven
    assert all(len(opponents) == 30 for opponents in result.report.opponents.values())


def test_search_alone_seats_thirty_two_players_nine_games_without_a_repeat(monkeypatch):
    from engines.seating import search

    monkeypatch.setattr(search, "affine_design", lambda *args: None)
    monkeypatch.setattr(search, "translation_design", lambda *args: None)
    result = seat(SeatingProblem(players=names(32), games=9, seed=0), budget=400_000)
    assert result.report.repeat_pairings == 0


# --- position repeats proven unavoidable ---------------------------------------------------------

@pytest.mark.parametrize("history, games, sizes, forced", [
    ([[]] * 16, 4, [4] * 4, 0),  # fresh, 4 games: positions 1-4 once each
    ([[]] * 8, 5, [4, 4], 8),  # a fifth game: one repeat each
    ([[]] * 9, 4, [3, 3, 3], 9),  # only positions 1-3 exist: one repeat each
    ([[1, 1]], 2, [4], 1),  # a repeat already played stays
    # 7 players, 3 more games at a table of 4 and one of 3: 6 seats each at positions 2 and 3,
    # but all 7 players still need both (4 played position 4, 3 played position 1): 2 must repeat
    ([[4]] * 4 + [[1]] * 3, 3, [4, 3], 2),
])
def test_forced_position_repeats_counts_what_no_seating_avoids(history, games, sizes, forced):
    from engines.seating.cost import forced_position_repeats

    assert forced_position_repeats([list(h) for h in history], games, sizes) == forced


def test_re_seats_with_three_player_tables_leave_only_the_forced_position_repeats():
    """After a played game, withdrawals bring 3-player tables: fewer 4th seats than players still
    missing position 4. The repeats left are exactly the ones the flow bound proves forced."""
    problem = cwc_stage(1024)
    played = seat(SeatingProblem(players=problem.players, games=1, seed=3)).schedule.games
    later = world(problem.players, 3, history=played, seed=3, countries=problem.countries,
                  relations=problem.relations)
    report = reseat(later, withdrawn=problem.players[:7]).report
    assert report.position_repeats > 0
    assert report.position_repeats == report.position_bound
    assert (len(report.friend_conflicts), report.repeat_pairings, report.same_country_tablemates) == (0, 0, 0)
