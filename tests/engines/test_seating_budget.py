"""The seating search works to a budget of work, not of seconds (issue 23 item 4): the same seed gives the
same schedule however slow the machine, the wall-clock guard is a last resort that is reported, and the
effort an organizer names scales the work."""

import pytest

from engines.seating import engine, search
from engines.seating.engine import EFFORTS, SeatingError, SeatingProblem, effort_factor, seat
from tests.clocks import SlowClock


def thirteen(**kwargs) -> SeatingProblem:
    """13 players × 4 games: no schedule reaches the engine's lower bound, so every restart runs."""
    return SeatingProblem(players=tuple(f"P{i:02d}" for i in range(1, 14)), games=4, seed=3, **kwargs)


@pytest.mark.parametrize("problem", [thirteen(), thirteen(distinct_positions=True, spread_countries=True)])
def test_a_slow_machine_gets_the_same_schedule_while_the_guard_holds(monkeypatch, problem):
    quiet = seat(problem)
    clock = SlowClock(step=1.0)  # every reading a second later: the search's dozens of readings stay under 60 s
    monkeypatch.setattr(search, "time", clock)
    busy = seat(problem)
    assert clock.readings > 3  # the search did look at the clock
    assert busy.schedule == quiet.schedule
    assert not busy.report.stopped_by_time_guard and not quiet.report.stopped_by_time_guard


def test_the_guard_firing_is_reported_with_a_complete_schedule(monkeypatch):
    problem = thirteen()
    monkeypatch.setattr(search, "time", SlowClock(step=1.0))
    stopped = seat(problem, time_limit=2.0)
    assert stopped.report.stopped_by_time_guard
    for game in stopped.schedule.games:
        assert sorted(p for table in game for p in table) == sorted(problem.players)


def test_the_guard_scales_with_effort_above_normal(monkeypatch):
    seen = []

    class Recorded(search.TimeGuard):
        def __init__(self, seconds: float) -> None:
            seen.append(seconds)
            super().__init__(seconds)

    monkeypatch.setattr(engine, "TimeGuard", Recorded)
    seat(thirteen(), effort=0.25)
    seat(thirteen(), effort=4)
    seat(thirteen(), time_limit=7)
    assert seen == [engine.DEFAULT_TIME_LIMIT, 4 * engine.DEFAULT_TIME_LIMIT, 7]


@pytest.mark.parametrize("text, factor", [("low", 0.25), ("normal", 1.0), ("High", 4.0), (" high ", 4.0),
                                          ("2.5", 2.5), ("0.1", 0.1), ("100", 100.0)])
def test_effort_names_and_multipliers(text, factor):
    assert effort_factor(text) == factor
    assert set(EFFORTS) == {"low", "normal", "high"}


@pytest.mark.parametrize("text", ["fast", "", "0", "-1", "0.05", "101", "nan", "inf", "1e9", "1,5"])
def test_bad_effort_is_refused_with_what_is_allowed(text):
    with pytest.raises(SeatingError) as caught:
        effort_factor(text)
    assert "effort must be low, normal, high or a multiplier from 0.1 to 100" in str(caught.value)
    assert repr(text) in str(caught.value)


def test_effort_multiplies_every_run_s_budget_and_patience(monkeypatch):
    runs = []
    tabu = search._tabu

    def recorded(state, rng, budget, stall, guard, **kwargs):
        runs.append((budget, stall))
        return tabu(state, rng, budget, stall, guard, **kwargs)

    monkeypatch.setattr(search, "_tabu", recorded)
    problem = thirteen(distinct_positions=True)  # both the table search and the position repair
    normal = seat(problem, budget=40_000)
    normal_runs = list(runs)
    assert seat(problem, budget=40_000).schedule == normal.schedule  # same seed and effort, same schedule
    runs.clear()
    seat(problem, budget=40_000, effort=4)
    assert runs[0] == (4 * normal_runs[0][0], 4 * normal_runs[0][1])  # the first phase of the first restart
    assert normal_runs[0] == (40_000 // search.RESTARTS // 2, search.STALL_WORK)
    assert {stall for _, stall in runs} == {4 * search.STALL_WORK}


def test_no_exhaustive_proof_when_the_counting_bound_already_beats_it(monkeypatch):
    """12 players × 4 games: counting proves 9 repeats, the exhaustive searches can prove 2 at most."""
    def refuse(*args, **kwargs):
        raise AssertionError("an exhaustive search that cannot change the bound ran")

    monkeypatch.setattr(engine, "repeat_free", refuse)
    monkeypatch.setattr(engine, "one_repeat_possible", refuse)
    report = seat(SeatingProblem(players=tuple(range(12)), games=4, seed=1)).report
    assert report.repeat_pairings >= report.repeat_bound == 9
