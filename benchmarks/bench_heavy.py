"""Heavy work at championship scale (issue 23): one row per figure, each beside a baseline measured in the
same run, its target and a verdict; the script exits 1 only after printing every row, if one was missed.

Run from anywhere: `python benchmarks/bench_heavy.py` (a minute or two on 2 shared cores). Every figure is
taken from a separate process, so a busy machine slows the wall clock but hardly the figures: `os.wait4`
gives the child's own CPU seconds, and the child reports its own peak resident memory (`VmHWM`, on Linux;
a child's `ru_maxrss` would count the memory of the process that started it). The rows:

* `rank` 100,000 players × 4 games, peak memory: the peak resident memory of `manage.py rank FILE --rules
  cnc-2022 --json` beyond its start-up (the same command on a one-table file), as a multiple of the same
  figure for a sum-and-sort baseline (a plain Python process that streams the same file, sums each player's
  VP, sorts the players and writes them as JSON, beyond its own start-up on the one-table file).
  Target: at most 3× the baseline.
* `seat` 13 players × 4 games, CPU beyond start-up: the CPU seconds of `manage.py seat PLAYERS.csv --games 4`
  minus those of the same command seating 4 players for 1 game (start-up: the interpreter, Django and the
  command, with nothing to search); medians of five runs. Target: at most 0.3 s. The ratio shown is to the
  start-up itself.

A row is a function returning `Row`; add one to `ROWS` to add a figure.
"""
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_ranking import write_results

ROOT = Path(__file__).resolve().parents[1]
RANK_PLAYERS, RANK_GAMES, RANK_TARGET = 100_000, 4, 3.0
SEAT_PLAYERS, SEAT_GAMES, SEAT_TARGET, SEAT_RUNS = 13, 4, 0.3, 5

# Runs a script in this interpreter and, at exit, writes its peak resident memory to $BENCH_PEAK_FILE.
WRAPPER = """
import atexit, os, runpy, sys
def report():
    with open("/proc/self/status") as status, open(os.environ["BENCH_PEAK_FILE"], "w") as out:
        out.write(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
atexit.register(report)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
BASELINE = """
import csv, json, sys
totals = {}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    next(rows)
    for row in rows:
        totals[row[2]] = totals.get(row[2], 0) + int(row[3])
for player, vp in sorted(totals.items(), key=lambda item: item[1], reverse=True):
    sys.stdout.write(json.dumps({"player": player, "total_vp": vp}) + "\\n")
"""


@dataclass(frozen=True)
class Row:
    work: str
    figure: str
    """Now, in its unit."""
    ratio: float
    baseline: str
    """What the ratio is taken against, with its own figure."""
    target: str
    met: bool


@dataclass(frozen=True)
class Usage:
    cpu: float
    """User + system CPU seconds of the child."""
    peak_mb: float
    """Its peak resident memory."""


def run(script: str | os.PathLike, *args: str | os.PathLike) -> Usage:
    """A Python script run in a child process: its own CPU seconds and peak memory; its output is discarded,
    a failure stops the row."""
    with tempfile.TemporaryFile() as errors, tempfile.NamedTemporaryFile("r") as peak:
        env = {**os.environ, "BENCH_PEAK_FILE": peak.name}
        process = subprocess.Popen([sys.executable, "-c", WRAPPER, str(script), *map(str, args)], cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=errors, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()[-500:]
            raise RuntimeError(f"{script} {' '.join(map(str, args))} exited {process.returncode}: {message}")
        return Usage(usage.ru_utime + usage.ru_stime, int(peak.read()) / 1024)


def manage(*args: str | os.PathLike) -> Usage:
    return run("manage.py", *args)


def rank_memory(tmp: Path) -> Row:
    big, small = tmp / "results.csv", tmp / "one-table.csv"
    write_results(big, count=RANK_PLAYERS, games=RANK_GAMES)
    write_results(small, count=4, games=1)
    baseline = tmp / "sum_and_sort.py"
    baseline.write_text(BASELINE, encoding="utf-8")
    ranked = [manage("rank", path, "--rules", "cnc-2022", "--json").peak_mb for path in (big, small)]
    summed = [run(baseline, path).peak_mb for path in (big, small)]
    rank_mb, baseline_mb = ranked[0] - ranked[1], summed[0] - summed[1]
    return Row(
        f"rank {RANK_PLAYERS:,} players × {RANK_GAMES} games, peak memory beyond start-up",
        f"{rank_mb:.1f} MB (process {ranked[0]:.0f} MB, start-up {ranked[1]:.0f} MB)",
        rank_mb / baseline_mb,
        f"sum-and-sort {baseline_mb:.1f} MB beyond start-up (process {summed[0]:.0f} MB)",
        f"≤ {RANK_TARGET:g}× the baseline", rank_mb <= RANK_TARGET * baseline_mb,
    )


def seat_cpu(tmp: Path) -> Row:
    def players(count: int) -> Path:
        path = tmp / f"players-{count}.csv"
        path.write_text("player\n" + "".join(f"P{i:02d}\n" for i in range(1, count + 1)), encoding="utf-8")
        return path

    stage, trivial = players(SEAT_PLAYERS), players(4)
    seated = statistics.median(manage("seat", stage, "--games", str(SEAT_GAMES)).cpu for _ in range(SEAT_RUNS))
    start_up = statistics.median(manage("seat", trivial, "--games", "1").cpu for _ in range(SEAT_RUNS))
    beyond = seated - start_up
    return Row(
        f"seat {SEAT_PLAYERS} players × {SEAT_GAMES} games, CPU beyond start-up",
        f"{beyond:.2f} s CPU (process {seated:.2f} s)", beyond / start_up,
        f"start-up (seat 4 players × 1 game) {start_up:.2f} s CPU",
        f"≤ {SEAT_TARGET:g} s CPU", beyond <= SEAT_TARGET,
    )


ROWS: list[Callable[[Path], Row]] = [rank_memory, seat_cpu]


def main() -> int:
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for measure in ROWS:
            try:
                row = measure(Path(tmp))
            except Exception as error:  # noqa: BLE001 - a row that cannot be measured is reported, the others still run
                print(f"{measure.__name__}: could not be measured ({error}): MISSED")
                missed += 1
                continue
            missed += not row.met
            print(f"{row.work}: {row.figure} = {row.ratio:.2f}× {row.baseline}  "
                  f"[now vs target {row.target}: {'met' if row.met else 'MISSED'}]")
    print("every target met" if not missed else f"{missed} target(s) missed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
