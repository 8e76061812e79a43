"""Seating at scale: the growth curve from 64 to 4,096 players, and krcg where it finishes.

Run from anywhere: `python benchmarks/bench_seating_scale.py` (about a minute on 2 shared cores).
The instance family is the issue's: `--rules cwc-2025` goals, 4 games, 20 countries (players drawn
uniformly), one declared friend pair per four players. Each size runs in a fresh process so that
the peak resident memory (ru_maxrss) is that size's own; the engine's CPU time is measured in that
process around `seat` alone. The target at 4,096 players (all four counts 0, under 5 s CPU, under
300 MB) is checked after every figure is printed: the script then exits 1 when it is missed.
"""
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.seating.engine import SeatingProblem, assess, seat

SIZES = (64, 128, 256, 512, 1024, 2048, 4096)
COUNTRIES = 20
TARGET_PLAYERS, TARGET_SECONDS, TARGET_MB = 4096, 5.0, 300
PEER_SIZES = (64, 128)
PEER_ITERATIONS = 20_000


def problem(players: int, games: int = 4, seed: int = 1) -> SeatingProblem:
    """The issue's family: 20 countries, one declared pair per four players, cwc-2025 goals."""
    rng = random.Random(players)
    names = [f"W{i:05d}" for i in range(players)]
    countries = {name: f"C{rng.randrange(COUNTRIES):02d}" for name in names}
    shuffled = names[:]
    rng.shuffle(shuffled)
    relations = tuple((shuffled[2 * i], shuffled[2 * i + 1]) for i in range(players // 4))
    return SeatingProblem(players=tuple(names), games=games, relations=relations, countries=countries,
                          distinct_positions=True, spread_countries=True, seed=seed)


def counts(report) -> tuple[int, int, int, int]:
    return (len(report.friend_conflicts), report.repeat_pairings, report.position_repeats,
            report.same_country_tablemates)


def measure(players: int) -> dict:
    """One size, in this process: engine seconds, peak resident MB, the four counts."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    instance = problem(players)
    start = time.process_time()
    result = seat(instance)
    seconds = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"players": players, "seconds": seconds, "peak_mb": peak, "start_mb": before,
            "counts": counts(result.report)}


def peer(players: int) -> str:
    try:
        from krcg import seating as krcg_seating
    except ImportError:
        return "krcg not installed"
    instance = problem(players)
    names = list(instance.players)
    rounds = [krcg_seating.Round([names[i:i + 4] for i in range(0, players, 4)]) for _ in range(instance.games)]
    start = time.process_time()
    best, _ = krcg_seating.optimise(rounds, PEER_ITERATIONS, fixed=0)
    seconds = time.process_time() - start
    games = tuple(tuple(tuple(table) for table in round_) for round_ in best)
    found = counts(assess(instance, games))
    return f"{seconds:7.2f} s  {'/'.join(map(str, found))}"


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(measure(int(sys.argv[2]))))
        return 0
    started = time.perf_counter()
    print("cwc-2025, 4 games, 20 countries, one declared pair per 4 players; counts are "
          "friends/repeats/positions/compatriots; memory is the process's peak (interpreter included)")
    print(f"{'players':>8} {'CPU s':>8} {'×prev':>6} {'peak MB':>8} {'engine MB':>9}  counts")
    rows, previous = [], None
    for players in SIZES:
        out = subprocess.run([sys.executable, __file__, "--one", str(players)], capture_output=True, text=True,
                             check=True)
        row = json.loads(out.stdout)
        rows.append(row)
        ratio = f"{row['seconds'] / previous:6.1f}" if previous else "     -"
        previous = row["seconds"]
        print(f"{players:8d} {row['seconds']:8.3f} {ratio} {row['peak_mb']:8.0f} "
              f"{row['peak_mb'] - row['start_mb']:9.0f}  {'/'.join(map(str, row['counts']))}")
    small, large = rows[0], rows[-1]
    growth = (large["seconds"] / small["seconds"]) / (large["players"] / small["players"])
    print(f"time per player grows {growth:.1f}× from {small['players']} to {large['players']} players "
          "(1.0 would be exactly linear)")
    for players in PEER_SIZES:
        ours = next(r for r in rows if r["players"] == players)
        print(f"peer krcg.seating ({PEER_ITERATIONS} iterations) at {players} players: {peer(players)}"
              f"   this engine: {ours['seconds']:.3f} s  {'/'.join(map(str, ours['counts']))}")
    print(f"krcg.seating is not run above {PEER_SIZES[-1]} players: its time grows about 4× per doubling "
          "(minutes from 256 on)")
    target = large
    met = (target["players"] == TARGET_PLAYERS and tuple(target["counts"]) == (0, 0, 0, 0)
           and target["seconds"] < TARGET_SECONDS and target["peak_mb"] < TARGET_MB)
    print(f"target {TARGET_PLAYERS} players: 0/0/0/0 under {TARGET_SECONDS:.0f} s CPU and {TARGET_MB} MB: "
          f"{'met' if met else 'MISSED'}")
    print(f"benchmark total: {time.perf_counter() - started:.0f} s")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
