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

The public pages' and PDFs' rows (issue 23 items 1–3, issue 22 items 4 and 7) come from one run of
`heavy_pages.py` in a child process, with the app's production settings on a scratch PostgreSQL database and a
Redis of its own (`reliability.stack`): CPU seconds of single requests through Django's whole request stack,
medians, each divided by a `/healthz` request's measured in the same process:

* a public PDF asked again for the same results (the standings and a game's seating of 200 players): served
  from the cache. Target: at most 2× /healthz.
* the first reader after a sign-off at 3,000 players, once the background refresh has run (as the Celery
  worker runs it): the standings, the projector and the own page of a player of the table just signed off.
  Target: at most 25× /healthz. Another player's page, rendered when asked from the cached standings, is shown.
* the first reader of a player's page after a sign-off at 3,000 players (issue 32 item 9), once the refresh has
  stored each player's summary: the public page of a player of the table just signed off, another player's (rendered
  when asked), the private page `/me/<token>/` of a player of that table (never cached whole: it holds a form) and
  the projector. Target: at most 5× /healthz each; the row shows each page's own ratio.
* the live update after a sign-off at 3,000 players: the refresh job's wall seconds from the sign-off to the
  announcement of the new version (on a quiet worker; `make load` measures it under load), the ratio being
  its CPU in /healthz requests. Target: at most 5 s.
* the projector page at 3,000 players on the wire (brotli), the ratio to its uncompressed size. Target: ≤ 60 KB.
* HTML, JSON and CSV responses compressed when asked (`Accept-Encoding: br, gzip`); the ratio is all of them
  on the wire to all of them uncompressed. Target: every one compressed.

The PDF rows (issue 23 item 1) come from `heavy_pdfs.py` in child processes, on a scratch SQLite database it
builds once: the CPU seconds of laying out the record sheets of a 50-table game, the standings of 1,000 players
and the seating of a 3,000-player game (medians of three, in a process that has laid a page out before, as a
server has), each divided by a one-page PDF laid out as every PDF was before (its stylesheet and fonts parsed
for it), and the child's peak resident memory. Targets: ≤ 15× and ≤ 120 MB, ≤ 20× and ≤ 150 MB, ≤ 60× and
≤ 200 MB.

A row is a function returning `Row`; add one to `ROWS` to add a figure.
"""
import contextlib
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_ranking import write_results

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RANK_PLAYERS, RANK_GAMES, RANK_TARGET = 100_000, 4, 3.0
SEAT_PLAYERS, SEAT_GAMES, SEAT_TARGET, SEAT_RUNS = 13, 4, 0.3, 5
PDF_AGAIN_TARGET, FIRST_READER_TARGET, LIVE_UPDATE_TARGET, PROJECTOR_TARGET_KB = 2.0, 25.0, 5.0, 60
PLAYER_PAGE_TARGET = 5.0
HEAVY_PDFS = Path(__file__).with_name("heavy_pdfs.py")
PDF_DOCUMENTS = {"sheets": ("record sheets PDF, 50 tables (200 players, QR codes)", 15.0, 120.0),
                 "standings": ("standings PDF, 1,000 players", 20.0, 150.0),
                 "seating": ("seating PDF of a 3,000-player game (public)", 60.0, 200.0)}
"""heavy_pdfs.py's documents: the row's work, its target as a multiple of the baseline's CPU, its peak MB."""

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


def pages_figures() -> dict:
    """The figures of one run of heavy_pages.py (shared by the rows; a failed run fails each of them)."""
    figures = _pages_run()
    if isinstance(figures, Exception):
        raise figures
    return figures


@functools.cache
def _pages_run() -> dict | Exception:
    """heavy_pages.py on a scratch database and Redis of its own: its JSON figures, or why there are none."""
    from reliability.stack import PG_SERVER, PYTHON, Stack, psql

    stack = Stack("h_heavy_bench", port=8864, redis_port=8865, workers=1)
    try:
        psql("SELECT 1")
        if not shutil.which("redis-server"):
            raise RuntimeError("no redis-server")
        stack.prepare()
        stack.start_redis()
        child = subprocess.run([PYTHON, str(Path(__file__).with_name("heavy_pages.py"))], cwd=ROOT,
                               env={**stack.env, "BENCH_DATABASE_URL": f"{PG_SERVER}/{stack.database}"},
                               capture_output=True, text=True)
        if child.returncode:
            raise RuntimeError(f"heavy_pages.py exited {child.returncode}: {child.stderr}")
        return json.loads(child.stdout.strip().splitlines()[-1])
    except Exception as error:  # each row built on these figures reports it
        return RuntimeError(" ".join(str(error).split())[-300:])
    finally:
        stack.stop_all()
        with contextlib.suppress(Exception):
            stack.drop_database()


def _healthz(figures: dict) -> str:
    return f"/healthz {1000 * figures['healthz']:.2f} ms CPU"


def pdf_again(tmp: Path) -> Row:
    figures = pages_figures()
    again = {name: pdf["again"] / figures["healthz"] for name, pdf in figures["pdfs"].items()}
    return Row(
        "a public PDF asked again for the same results (200 players: standings, seating)",
        ", ".join(f"{name} {1000 * pdf['again']:.2f} ms CPU (first {pdf['first']:.2f} s)"
                  for name, pdf in figures["pdfs"].items()),
        max(again.values()), _healthz(figures), f"≤ {PDF_AGAIN_TARGET:g}× /healthz",
        max(again.values()) <= PDF_AGAIN_TARGET,
    )


def first_reader(tmp: Path) -> Row:
    figures = pages_figures()
    pages = figures["first_reader"]
    ratio = max(pages[name] for name in ("standings", "projector", "player")) / figures["healthz"]
    return Row(
        "first reader after a sign-off, 3,000 players (standings / projector / player of the table)",
        " / ".join(f"{1000 * pages[name]:.1f}" for name in ("standings", "projector", "player"))
        + f" ms CPU (another player's page, rendered when asked: {1000 * pages['other player']:.1f} ms"
        f" = {pages['other player'] / figures['healthz']:.0f}×)",
        ratio, _healthz(figures), f"≤ {FIRST_READER_TARGET:g}× /healthz", ratio <= FIRST_READER_TARGET,
    )


PLAYER_PAGES = ("player", "other player", "private page", "projector")


def player_pages(tmp: Path) -> Row:
    figures = pages_figures()
    pages = figures["first_reader"]
    ratio = max(pages[name] for name in PLAYER_PAGES) / figures["healthz"]
    return Row(
        "first reader of a player's page after a sign-off, 3,000 players (public page of a player of the table / "
        "another player's / the private page / projector)",
        " / ".join(f"{1000 * pages[name]:.1f}" for name in PLAYER_PAGES) + " ms CPU ("
        + " / ".join(f"{pages[name] / figures['healthz']:.0f}×" for name in PLAYER_PAGES) + ")",
        ratio, _healthz(figures), f"≤ {PLAYER_PAGE_TARGET:g}× /healthz", ratio <= PLAYER_PAGE_TARGET,
    )


def live_update(tmp: Path) -> Row:
    figures = pages_figures()
    wall = max(job["announced"] for job in figures["jobs"])
    cpu = statistics.median(job["cpu"] for job in figures["jobs"])
    return Row(
        "live update after a sign-off, 3,000 players (sign-off to the new version announced, quiet worker)",
        f"{wall:.2f} s wall at most of {len(figures['jobs'])} (whole job: CPU median {cpu:.2f} s, wall at most "
        f"{max(job['wall'] for job in figures['jobs']):.2f} s)",
        cpu / figures["healthz"], _healthz(figures) + " (ratio: the job's CPU)",
        f"≤ {LIVE_UPDATE_TARGET:g} s (under load: make load)", wall <= LIVE_UPDATE_TARGET,
    )


def projector_wire(tmp: Path) -> Row:
    page = pages_figures()["wire"]["projector"]
    return Row(
        "projector page, 3,000 players, on the wire",
        f"{page['wire'] / 1024:.1f} KB ({page['encoding'] or 'uncompressed'})", page["wire"] / page["raw"],
        f"its uncompressed size {page['raw'] / 1024:.0f} KB", f"≤ {PROJECTOR_TARGET_KB} KB",
        page["wire"] <= PROJECTOR_TARGET_KB * 1024,
    )


def compression(tmp: Path) -> Row:
    wire = pages_figures()["wire"]
    return Row(
        "HTML/JSON/CSV responses when the client accepts br and gzip",
        ", ".join(f"{name} ({page['type']}) {page['raw'] / 1024:.0f} → {page['wire'] / 1024:.0f} KB "
                  f"{page['encoding'] or 'UNCOMPRESSED'}" for name, page in wire.items()),
        sum(p["wire"] for p in wire.values()) / sum(p["raw"] for p in wire.values()),
        "the same responses uncompressed", "every one compressed",
        all(page["encoding"] for page in wire.values()),
    )


def _heavy_pdfs(*args: str | os.PathLike) -> str:
    """heavy_pdfs.py run in a child process: its output (a failure stops the row, with the child's last words)."""
    child = subprocess.run([sys.executable, str(HEAVY_PDFS), *map(str, args)], cwd=ROOT, capture_output=True,
                           text=True)
    if child.returncode:
        last_words = " ".join(child.stderr.split())[-300:]
        raise RuntimeError(f"heavy_pdfs.py {args[0]} exited {child.returncode}: {last_words}")
    return child.stdout


def pdf_row(document: str) -> Callable[[Path], Row]:
    """The row of one of heavy_pdfs.py's documents (the database built by the first row that needs it)."""
    work, most_ratio, most_mb = PDF_DOCUMENTS[document]

    def measure(tmp: Path) -> Row:
        database = tmp / "pdfs.sqlite3"
        if not database.exists():
            _heavy_pdfs("build", database)
        figures = json.loads(_heavy_pdfs("measure", database, document).strip().splitlines()[-1])
        ratio = figures["cpu"] / figures["baseline"]
        return Row(
            work, f"{figures['cpu']:.2f} s CPU, {figures['pages']} pages, peak {figures['peak_mb']:.0f} MB (before it:"
                  f" {figures['rest_mb']:.0f} MB with Django, WeasyPrint and the fonts loaded)", ratio,
            f"a one-page PDF as before (stylesheet and fonts parsed for it) {1000 * figures['baseline']:.0f} ms CPU"
            f" (as now: {1000 * figures['one_page']:.0f} ms)",
            f"≤ {most_ratio:g}× and ≤ {most_mb:g} MB", ratio <= most_ratio and figures["peak_mb"] <= most_mb,
        )

    measure.__name__ = f"pdf_{document}"
    return measure


ROWS: list[Callable[[Path], Row]] = [rank_memory, seat_cpu, *map(pdf_row, PDF_DOCUMENTS), pdf_again,
                                     first_reader, player_pages, live_update, projector_wire, compression]


def main() -> int:
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for measure in ROWS:
            try:
                row = measure(Path(tmp))
            except Exception as error:  # a row that cannot be measured is reported, the others still run
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
