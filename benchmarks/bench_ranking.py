"""Ranking at scale: 10,000 players × 4 games, from CSV and from engine input.

Run from anywhere: `python benchmarks/bench_ranking.py`. Prints the best of a few runs per figure in CPU seconds,
each beside a trivial baseline timed in the same run on the same tables (sum each player's VP and
sort by it), so the ratio means something on a busy machine. The engine used to take under 1 s
here on a quiet machine; the ratio is the figure to compare between runs.
"""
import csv
import random
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.ranking.csv_files import read_results
from engines.ranking.engine import rank
from engines.rulesets import RULESETS

PLAYERS, GAMES, RUNS = 10_000, 4, 3


def write_results(path: Path, seed: int = 2022, count: int = PLAYERS, games: int = GAMES) -> None:
    """A random stage: every game reshuffles all players onto 4-player tables; minutes for lord-of-catan."""
    rng = random.Random(seed)
    players = [f"Player {i:06d}" for i in range(1, count + 1)]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["game", "table", "player", "vp", "winner", "minutes"])
        for game in range(1, games + 1):
            rng.shuffle(players)
            for table in range(count // 4):
                winner, minutes = rng.randrange(4), rng.randint(45, 150)
                for i, player in enumerate(players[4 * table:4 * table + 4]):
                    vp = rng.randint(10, 11) if i == winner else rng.randint(2, 10)
                    out.writerow([game, table + 1, player, vp, int(i == winner), minutes])


def parse_and_rank(path: Path, ruleset) -> list:
    return rank(read_results(path, ruleset), ruleset)


def baseline(tables) -> list:
    """The least a ranking must do: one pass over every seat, then one sort."""
    totals: dict = {}
    for table in tables:
        for seat in table.seats:
            totals[seat.player] = totals.get(seat.player, 0) + seat.vp
    return sorted(totals.items(), key=lambda item: item[1], reverse=True)


def best_of(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def main() -> int:
    size = f"{PLAYERS} players x {GAMES} games"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.csv"
        write_results(path)
        for key, ruleset in RULESETS.items():
            tables = list(read_results(path, ruleset))  # plain TableResults: the engine checks them, as on the web
            assert len(rank(tables, ruleset)) == PLAYERS
            trivial = best_of(RUNS, partial(baseline, tables))
            engine = best_of(RUNS, partial(rank, tables, ruleset))
            both = best_of(RUNS, partial(parse_and_rank, path, ruleset))
            print(f"ranking engine, {size}, {key}: {engine:.2f} s = {engine / trivial:.0f}x the baseline "
                  f"({trivial:.3f} s: sum VP and sort)")
            print(f"CSV parsing + ranking, {size}, {key}: {both:.2f} s = {both / trivial:.0f}x the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
