"""Seating engine figures: the tournament-sized targets, social golfer instances, and the peer.

Run from anywhere: `python benchmarks/bench_seating.py` (about three minutes on 2 shared cores,
half of it krcg). Prints one line per figure: quality counts (friend conflicts, repeat pairings,
position repeats, same-country tablemates), CPU seconds (best of a few runs for the fast ones; CPU,
not wall time, so that a busy machine hardly moves them) and
the target. 32 × 10 (the social golfer problem's 8-4-10) and 128 × 42 start from the translation
design (engines/seating/translation.py). "Search only" patches out the algebraic starts (affine and
translation): what is left is the tabu search and, when it stays above its bound, the rotational
search of designs.py. For 20 players × 6 games it prints the repeats found, the bound the
engine proves (engines/seating/exact.py: no schedule with none or a single one) and the gap. The
peer is krcg.seating (simulated annealing, VEKN rules), run on the same 128-player instance and
on three social golfer instances; without krcg installed those lines say so. The growth curve
64 → 4,096 players is bench_seating_scale.py.
"""
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.seating import search as seating_search
from engines.seating.engine import SeatingProblem, SeatingResult, assess, seat

# 30 countries, uneven, the largest 32: every table of every game needs exactly one of its players.
COUNTRY_SIZES = [32, 15, 9, 7, 6, 5, 5, 4, 4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]
PEER_ITERATIONS = 20_000
MOONSHOT_BUDGET = 20_000_000
SEARCH_ONLY_BUDGET = 10_000_000


def random_pairs(players: list[str], count: int, rng: random.Random) -> tuple[tuple[str, str], ...]:
    pairs: set[tuple[str, str]] = set()
    while len(pairs) < count:
        a, b = sorted(rng.sample(players, 2))
        pairs.add((a, b))
    return tuple(sorted(pairs))


def world_128() -> SeatingProblem:
    rng = random.Random(2025)
    players = [f"W{i:03d}" for i in range(128)]
    codes = [f"C{i:02d}" for i in range(len(COUNTRY_SIZES))]
    pool = [code for code, size in zip(codes, COUNTRY_SIZES) for _ in range(size)]
    rng.shuffle(pool)
    return SeatingProblem(
        players=tuple(players), games=4, relations=random_pairs(players, 30, rng),
        countries=dict(zip(players, pool)), distinct_positions=True, spread_countries=True, seed=1,
    )


def open_200() -> SeatingProblem:
    """Under cwc-2025 goals, so that "all zero" includes distinct positions."""
    rng = random.Random(200)
    players = [f"O{i:03d}" for i in range(200)]
    return SeatingProblem(players=tuple(players), games=3, relations=random_pairs(players, 70, rng),
                          distinct_positions=True, spread_countries=True, seed=1)


def numbered(count: int, games: int, **kwargs) -> SeatingProblem:
    return SeatingProblem(players=tuple(f"P{i:02d}" for i in range(1, count + 1)), games=games, **kwargs)


def counts(report) -> str:
    return (f"friends {len(report.friend_conflicts)}, repeats {report.repeat_pairings}, "
            f"position repeats {report.position_repeats}, compatriots {report.same_country_tablemates}")


def timed(runs: int, fn: Callable[[], SeatingResult]) -> tuple[SeatingResult, float]:
    """Result and best CPU time over `runs` runs (the engine is deterministic and single-threaded)."""
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return result, best


def line(label: str, result: SeatingResult, seconds: float, target: str, ok: bool) -> None:
    verdict = "met" if ok else "MISSED"
    print(f"{label}: {counts(result.report)} in {seconds:.3f} s CPU  [target {target}: {verdict}]")


def all_zero(report) -> bool:
    return not (report.friend_conflicts or report.repeat_pairings or report.position_repeats
                or report.same_country_tablemates)


def peer(problem: SeatingProblem, ours: float) -> None:
    try:
        from krcg import seating as krcg_seating
    except ImportError:
        print("peer krcg.seating: not installed (pip install krcg) — comparison skipped")
        return
    players = list(problem.players)
    tables = [players[i:i + 4] for i in range(0, len(players), 4)]
    rounds = [krcg_seating.Round([list(t) for t in tables]) for _ in range(problem.games)]
    start = time.process_time()
    best, _ = krcg_seating.optimise(rounds, PEER_ITERATIONS, fixed=0)
    seconds = time.process_time() - start
    games = tuple(tuple(tuple(table) for table in round_) for round_ in best)
    report = assess(problem, games)
    print(f"peer krcg.seating ({PEER_ITERATIONS} iterations, same 128-player instance): {counts(report)} "
          f"in {seconds:.2f} s CPU (friends and countries are not among its goals)")
    print(f"speed ratio: krcg.seating takes {seconds / ours:.0f}× as long as this engine for a worse schedule"
          if not all_zero(report) else f"speed ratio: krcg.seating takes {seconds / ours:.0f}× as long")


def peer_social(problem: SeatingProblem, ours: int) -> None:
    """krcg on a social golfer instance (tables of 4, no friends or countries): repeats only."""
    try:
        from krcg import seating as krcg_seating
    except ImportError:
        print("  peer krcg.seating: not installed (pip install krcg) — comparison skipped")
        return
    players = list(problem.players)
    rounds = [krcg_seating.Round([players[i:i + 4] for i in range(0, len(players), 4)])
              for _ in range(problem.games)]
    start = time.process_time()
    best, _ = krcg_seating.optimise(rounds, PEER_ITERATIONS, fixed=0)
    seconds = time.process_time() - start
    report = assess(problem, tuple(tuple(tuple(table) for table in round_) for round_ in best))
    print(f"  peer krcg.seating on {len(players)} players × {problem.games} games ({PEER_ITERATIONS} "
          f"iterations): {report.repeat_pairings} repeats in {seconds:.1f} s CPU (this engine: {ours})")


def main() -> int:
    started = time.perf_counter()
    world = world_128()
    result, ours = timed(3, lambda: seat(world))
    line("cwc-2025, 128 players from 30 countries, 30 declared pairs, 4 games", result, ours,
         "all zero under 1 s", all_zero(result.report) and ours < 1)

    result, seconds = timed(3, lambda: seat(open_200()))
    line("cwc-2025, 200 players, 70 declared pairs, 3 games", result, seconds, "all zero under 1 s",
         all_zero(result.report) and seconds < 1)

    result, seconds = timed(3, lambda: seat(numbered(16, 4, distinct_positions=True, spread_countries=True)))
    line("16 players, 4 games, cwc-2025", result, seconds, "0 repeats, distinct positions",
         result.report.repeat_pairings == 0 and result.report.position_repeats == 0)

    for games in (7, 8, 9, 10):
        result, seconds = timed(1, lambda games=games: seat(numbered(32, games)))
        line(f"social golfer 8-4-{games} (32 players, {games} games)", result, seconds,
             "0 repeats" + (" under 5 s" if games == 7 else ""),
             result.report.repeat_pairings == 0 and (games != 7 or seconds < 5))
    result, seconds = timed(1, lambda: seat(numbered(128, 42)))
    line("social golfer 32-4-42 (128 players, 42 games, the most possible)", result, seconds, "0 repeats",
         result.report.repeat_pairings == 0)
    # The same instances without the algebraic starts: the general search on its own.
    with (mock.patch.object(seating_search, "affine_design", return_value=None),
          mock.patch.object(seating_search, "translation_design", return_value=None)):
        for games in (7, 8, 9):
            result, seconds = timed(1, lambda games=games: seat(numbered(32, games), budget=SEARCH_ONLY_BUDGET))
            line(f"social golfer 8-4-{games}, search only (no algebraic start)", result, seconds,
                 "0 repeats", result.report.repeat_pairings == 0)
        result, seconds = timed(1, lambda: seat(numbered(32, 10), budget=MOONSHOT_BUDGET))
        print(f"social golfer 8-4-10, search only (budget {MOONSHOT_BUDGET:,} swaps): "
              f"{result.report.repeat_pairings} repeats in {seconds:.1f} s CPU (for comparison; not a target)")

    result, seconds = timed(1, lambda: seat(numbered(20, 6), budget=MOONSHOT_BUDGET // 4))
    report = result.report
    print(f"20 players (5 tables), 6 games: {report.repeat_pairings} repeats found, at least "
          f"{report.repeat_bound} proven unavoidable (gap {report.repeat_pairings - report.repeat_bound}) "
          f"in {seconds:.1f} s CPU; fewest possible proven: {'yes' if report.fewest_repeats_proven else 'no'}")
    peer_social(numbered(20, 6), report.repeat_pairings)
    peer_social(numbered(32, 9), 0)
    peer_social(numbered(32, 10), 0)

    result, seconds = timed(3, lambda: seat(numbered(13, 4)))
    line("13 players (1×4 + 3×3 tables), 4 games", result, seconds, "0 repeats",
         result.report.repeat_pairings == 0)
    friendly = numbered(17, 4, relations=tuple(("P01", f"P{i:02d}") for i in range(2, 7)))
    result, seconds = timed(3, lambda: seat(friendly))
    line("17 players (2×4 + 3×3), one with 5 declared friends, 4 games", result, seconds,
         "0 repeats, 0 friends",
         result.report.repeat_pairings == 0 and not result.report.friend_conflicts)

    peer(world, ours)
    print(f"benchmark total: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
