"""Board generation: plain random boards and boards keeping every fairness limit, boards a second.

Run from anywhere: `python benchmarks/bench_boards.py`. Prints the best of three runs per figure and the ratio
of the limited generator to the plain one timed in the same run; fails (exit 1) below 1,000 boards a second
with every limit switched on, the floor issue 14 sets.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.boards.fairness import LIMITS, generate_fair_board
from engines.boards.generator import generate_board

BOARDS, RUNS, FLOOR = 2_000, 3, 1_000


def rate(make) -> float:
    best = float("inf")
    for run in range(RUNS):
        start = time.perf_counter()
        for seed in range(run * BOARDS, (run + 1) * BOARDS):
            make(seed)
        best = min(best, time.perf_counter() - start)
    return BOARDS / best


def main() -> int:
    plain = rate(generate_board)
    fair = rate(lambda seed: generate_fair_board(seed, LIMITS))
    print(f"boards: {plain:,.0f} plain boards/s, {fair:,.0f} boards/s keeping every fairness limit "
          f"(ratio {fair / plain:.2f}; floor {FLOOR:,})")
    return 0 if fair >= FLOOR else 1


if __name__ == "__main__":
    sys.exit(main())
