"""`make load`: 200 spectators on the public pages (PDFs included) while 20 referees play every table of a
qualifier's games.

Starts its own stack (stack.py, with a Celery worker as deployed), seeds it, drives it for a bounded time, prints
throughput and latency by page, the live-update delay after each sign-off (live_update.py), then checks every
result, game, audit entry and the standings against the `rank` command.

Whatever happens (timeouts, refused connections, a stack that does not start, referees stopped at the time
bound), the run ends with its report: the figures of what it did, the checks and a verdict. Exit status 0 when
nothing failed and nothing was lost; the latency targets are reported as met or missed.
"""
import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field

from .clients import (
    Stats,
    Tablet,
    client_address,
    is_pdf,
    play_game,
    public_pages,
    spectator,
    table_result,
)
from .connections import new_http_client
from .live_update import LiveLog, announced_delays, page_delays, probe, summary
from .replicas import replica_clients, side_by_side
from .stack import Stack, log, machine_note

P95_TARGET_MS = 300
"""Public pages (PDFs apart) together, p95."""
LIVE_TARGET_SECONDS = 5.0
"""Issue 23: a sign-off reaches readers within 5 s (p95 of the announcement, live_update.py)."""
ANNOUNCE_WAIT = 30.0
"""After the last sign-off, the most the probes wait for every sign-off to be announced."""
AFTER_LAST_SIGN_OFF = 10.0
"""The readers stay at least this long after the referees finished, so open pages can show the last game."""
RETRY_SECONDS = 1.0
"""Seconds between the harness's own attempts: a referee signing in at the start, the final read of the standings."""


class Crowd:
    """The spectators, running in the background until stopped; each reader has its own address."""

    def __init__(self, client, paths: dict[str, str], clients: int, dwell: float, seed: int = 1, seen=None):
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.pages = public_pages(paths)
        self.started = time.monotonic()
        self.seconds = 0.0
        self.tasks = [asyncio.create_task(spectator(client, self.pages, self.stats, self.stop, dwell,
                                                    random.Random(seed * 1000 + i), client_address(1, i), seen))
                      for i in range(clients)]

    async def finish(self) -> float:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)  # a reader never raises; a cancelled one may
        self.seconds = time.monotonic() - self.started
        return self.seconds

    @property
    def names(self) -> list[str]:
        return self.stats.names

    def pdf_names(self) -> set[str]:
        return {name for name, path, _weight in self.pages if is_pdf(path)}


@dataclass
class Run:
    """What a run has done so far, filled in as it goes, so the report is printed whatever stopped the run."""

    crowd: Crowd | None = None
    referees: Stats = field(default_factory=Stats)
    probes: Stats = field(default_factory=Stats)
    """The harness's own requests: the live-update probes and the final read of the standings."""
    live: LiveLog = field(default_factory=LiveLog)
    signed_off: dict[int, float] = field(default_factory=dict)
    referee_seconds: float = 0.0
    entered: dict[int, list[int]] = field(default_factory=dict)
    standings: dict[str, list] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    checks: dict | None = None
    failure: str | None = None
    cpu: tuple[float, float] | None = None
    """CPU seconds used by gunicorn and by these clients during the run."""
    throughput: list[str] = field(default_factory=list)
    """The replicas' throughput with one and with all of them, side by side (`side_by_side`)."""
    throughput_errors: int = 0
    metrics: str = ""


def results_for(games: list[dict], seed: int = 7) -> dict[int, list[int]]:
    rng = random.Random(seed)
    return {table["id"]: table_result(rng, len(table["seats"])) for game in games for table in game["tables"]}


async def tablets_for(client, stack: Stack, referees, stats: Stats, retry_until: float | None = None) -> list[Tablet]:
    """Signed-in tablets; one that could not sign in (counted) by `retry_until` is kept and signs in again at its
    first tap."""
    tablets = [Tablet(client, stack.site_url, username, password, stats, retry_until, client_address(2, i))
               for i, (username, password) in enumerate(referees)]
    arriving = asyncio.Semaphore(2)  # referees sign in as they arrive, not all in the same second

    async def sign_in(tablet: Tablet) -> None:
        async with arriving:
            for _attempt in range(5):
                if retry_until is not None and time.monotonic() > retry_until:
                    return None
                try:
                    return await tablet.login()
                except Exception:  # counted in the stats; the tablet tries again when used
                    await asyncio.sleep(RETRY_SECONDS)

    await asyncio.gather(*(sign_in(t) for t in tablets))
    return tablets


async def api_standings(client, slugs: list[str], stats: Stats) -> dict[str, list]:
    """Each tournament's standings as its API serves them at the end (an empty list when it cannot be read)."""
    standings: dict[str, list] = {}
    for slug in slugs:
        standings[slug] = []
        for _attempt in range(3):
            started = time.monotonic()
            try:
                response = await client.get(f"/api/tournaments/{slug}/standings/")
                if response.status_code == 200:
                    standings[slug] = response.json()
                    stats.ok("final read: API standings", started, time.monotonic() - started)
                    break
                stats.error("final read: API standings", started, f"HTTP {response.status_code}")
            except Exception as error:  # counted; the check then says what is missing
                stats.error("final read: API standings", started, type(error).__name__)
            await asyncio.sleep(RETRY_SECONDS)
    return standings


def verify(stack: Stack, seed: dict, entered: dict[int, list[int]], standings: dict[str, list]) -> dict:
    """The checks (verify.py, run with the app's settings); when they cannot run, that is the problem reported."""
    try:
        path = stack.dir / "run.json"
        path.write_text(json.dumps({"games": seed["games"], "entered": {str(k): v for k, v in entered.items()},
                                    "tournaments": seed["tournaments"], "ruleset": seed["ruleset"],
                                    "api_standings": standings}))
        return stack.django_script("verify", str(path))
    except Exception as error:  # reported as a failed check
        return {"problems": {NOT_CHECKED: [describe(error)]}, "lost_by_game": None,
                "tables": sum(len(g["tables"]) for g in seed["games"])}


CHECKS = ("every result stored", "exactly once", "every game finished", "audit trail once", "standings equal rank")
NOT_CHECKED = "the checks could run"
"""The problem reported when verify.py could not run: the checks of the database are then unknown, not ok."""


def check_lines(report: dict, extra: dict[str, list[str]] | None = None) -> tuple[list[str], bool]:
    """The checks, ok or FAIL with their first problems (or not checked); True when all passed."""
    problems = {**report["problems"], **(extra or {})}
    unknown = bool(problems.get(NOT_CHECKED))
    lines = [f"Checks ({report['tables']} tables):"]
    for check in [*CHECKS, *(name for name in problems if name not in CHECKS)]:
        found = problems.get(check, [])
        if unknown and check in CHECKS:
            lines.append(f"  ?    {check}: not checked")
            continue
        lines.append(f"  {'ok  ' if not found else 'FAIL'} {check}" + (f": {len(found)} problem(s)" if found else ""))
        lines += [f"         {problem}" for problem in found[:10]]
    return lines, not any(problems.values())


def describe(error: BaseException) -> str:
    """The error's kind and the end of its message (a subprocess's output ends with its own error)."""
    lines = [line for line in str(error).strip().splitlines() if line.strip()][-4:]
    return ": ".join([type(error).__name__, "\n    ".join(lines)]) if lines else type(error).__name__


def progress(games: list[dict], signed_off: dict[int, float]) -> str:
    """How many tables of each game were signed off: what a bounded phase did."""
    done = sum(table["id"] in signed_off for game in games for table in game["tables"])
    per_game = ", ".join(f"game {game['number']}: {sum(t['id'] in signed_off for t in game['tables'])}/"
                         f"{len(game['tables'])}" for game in games)
    return f"{done} of {sum(len(g['tables']) for g in games)} tables signed off ({per_game})"


async def play_games(tablets, games: list[dict], entered: dict, think: float, rng: random.Random,
                     signed_off: dict[int, float]) -> None:
    for game in games:
        log(f"game {game['number']}: {len(game['tables'])} tables played at once, signed off together")
        await play_game(tablets, game, entered, think, rng, signed_off)


async def wait_announced(run: Run, seconds: float) -> None:
    """Until every sign-off was announced to readers, or `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and None in announced_delays(run.live, run.signed_off).values():
        await asyncio.sleep(0.5)


async def drive(stack: Stack, seed: dict, options, run: Run) -> None:
    async with new_http_client(stack.base_url, stack.site_host, stack.https_context()) as client:
        if options.throughput_seconds and len(stack.replica_ports) > 1:
            run.throughput, run.throughput_errors = await side_by_side(
                stack, client, seed["public"]["public-standings"], options.throughput_seconds)
        until = time.monotonic() + options.warm_up + options.max_seconds
        tablets = await tablets_for(client, stack, seed["referees"], run.referees, retry_until=until)
        username, password = seed["organizer"]
        staff = Tablet(client, stack.site_url, username, password, run.probes, None, client_address(3, 1), "organizer")
        stop_probing = asyncio.Event()
        prober = asyncio.create_task(probe(client, staff, seed["public"]["public-version"], run.live, run.probes,
                                           stop_probing, replica_clients(stack)))
        run.crowd = crowd = Crowd(client, seed["public"], options.clients, options.dwell, seen=run.live.page)
        try:
            await asyncio.sleep(options.warm_up)
            started = time.monotonic()
            try:
                await asyncio.wait_for(play_games(tablets, seed["games"], run.entered, options.referee_think,
                                                  random.Random(3), run.signed_off), options.max_seconds)
            except TimeoutError:
                run.notes.append(f"referees stopped at the time bound ({options.max_seconds:.0f} s): "
                                 f"{progress(seed['games'], run.signed_off)}")
                log(run.notes[-1])
            run.referee_seconds = time.monotonic() - started
            rest = max(options.min_seconds - (time.monotonic() - crowd.started), AFTER_LAST_SIGN_OFF)
            await asyncio.sleep(rest)
            await wait_announced(run, ANNOUNCE_WAIT)
        finally:
            await crowd.finish()
            stop_probing.set()
            await asyncio.gather(prober, return_exceptions=True)
        run.standings = await api_standings(client, seed["tournaments"], run.probes)
        run.metrics = await metrics_read(client, stack.metrics_token)


async def metrics_read(client, token: str) -> str:
    """What /metrics (through nginx, with the token) counted: requests answered by the replicas' workers together
    and emails sent, from prometheus_client's multiprocess sums."""
    try:
        response = await client.get("/metrics", headers={"Authorization": f"Bearer {token}"})
        response.raise_for_status()
    except Exception as error:  # said in the report
        return f"/metrics could not be read: {type(error).__name__}"
    counted = {"requests": 0.0, "emails": 0.0}
    for line in response.text.splitlines():
        name, _, value = line.rpartition(" ")
        if name.startswith("django_http_requests_latency_seconds_by_view_method_count{"):
            counted["requests"] += float(value)
        elif name == 'catan_emails_total{outcome="sent"}':
            counted["emails"] += float(value)
    return (f"/metrics at the end: {counted['requests']:.0f} requests counted by the replicas' workers together, "
            f"{counted['emails']:.0f} emails sent")


def _ms(value: float) -> str:
    return "—" if value != value else f"{value:.0f}"  # NaN: nothing measured


def _seconds(value: float) -> str:
    return "—" if value != value else f"{value:.1f}"


def opening(title: str, run, before: str, after: str) -> tuple[list[str], list[str]]:
    """A report's first lines (what ran, the machine's load, what stopped the run early, notes) and the reasons
    for failing known so far."""
    lines = [f"== {title} ==", f"machine: before {before}; after {after}"]
    reasons = []
    if run.failure:
        lines.append(f"The run stopped early: {run.failure}")
        reasons.append("the run stopped early")
    return lines + [f"note: {note}" for note in run.notes], reasons


def checks_of(run, seed: dict) -> dict:
    return run.checks or {"problems": {NOT_CHECKED: ["not run"]}, "lost_by_game": None,
                          "tables": sum(len(g["tables"]) for g in seed["games"])}


def wind_up(stack: Stack, run, seed: dict | None, keep: bool) -> None:
    """Whatever stopped the run: every process stopped, the checks run on what the database holds, the database
    dropped (unless kept); what went wrong meanwhile is noted, never raised."""
    run.notes += stack.stop_all()
    if seed is not None:
        run.checks = verify(stack, seed, run.entered, run.standings)
    if not keep:
        try:
            stack.drop_database()
        except Exception as error:  # noted in the report
            run.notes.append(f"dropping {stack.database}: {describe(error)}")


def report(run: Run, seed: dict | None, options, before: str, after: str) -> tuple[list[str], bool]:
    """The report's lines and whether the run passed, from whatever the run got done."""
    lines, reasons = opening(f"make load, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {options.clients} "
                             f"readers (each on a page for {options.dwell:.0f} s on average), "
                             f"{len(seed['referees']) if seed else '?'} referees, {options.replicas} replicas of "
                             f"{options.workers} gunicorn workers behind nginx (TLS)",
                             run, before, after)
    if seed is None:
        lines.append(f"\nNo figures: the stack did not start.\n\nmake load: FAILED ({'; '.join(reasons)})")
        return lines, False
    failed, targets = 0, ""
    if run.crowd is None:
        lines.append("\nNo figures: the run stopped before the readers started.")
    else:
        figures, failed, targets = measured(run, run.crowd, seed)
        lines += ["", *figures]
    checks = checks_of(run, seed)
    never = [f"table {table}: not announced within {ANNOUNCE_WAIT:.0f} s of the end"
             for table, delay in announced_delays(run.live, run.signed_off).items() if delay is None]
    never_by = [f"table {table}: not announced by {name} within {ANNOUNCE_WAIT:.0f} s of the end"
                for name in sorted(run.live.replicas)
                for table, delay in announced_delays(run.live, run.signed_off, name).items() if delay is None]
    check, checks_ok = check_lines(checks, {"every sign-off announced to readers": never,
                                            "every sign-off announced by every replica": never_by})
    lines += ["", *check]
    if not checks_ok:
        reasons.append("a check failed")
    if failed:
        reasons.append(f"{failed} request(s) failed")
    verdict = f"FAILED ({'; '.join(reasons)})" if reasons else "PASSED"
    lines.append(f"\nmake load: {verdict}{'; ' + targets if targets else ''}")
    return lines, not reasons


def measured(run: Run, crowd: Crowd, seed: dict) -> tuple[list[str], int, str]:
    """Throughput and latency by page, the live-update delay and the failed requests by kind; how many failed;
    the latency targets met or missed."""
    seconds = crowd.seconds or time.monotonic() - crowd.started
    pdfs = crowd.pdf_names()
    pdf_names = [name for name in crowd.names if name.split(" (")[0] in pdfs]
    page_names = [name for name in crowd.names if name not in pdf_names]
    public, pdf = crowd.stats.summary(page_names), crowd.stats.summary(pdf_names)
    referee = run.referees.summary(run.referees.names)
    total = public["requests"] + pdf["requests"] + referee["requests"]
    cpu = ""
    if run.cpu:
        cpu = (f"; CPU used: gunicorn {run.cpu[0] / seconds:.2f} cores, these clients {run.cpu[1] / seconds:.2f} "
               f"cores ({1000 * run.cpu[0] / max(total, 1):.1f} ms of server CPU per request)")
    lines = [f"{seconds:.0f} s of public load, {total} requests, {total / max(seconds, 1e-9):.0f} req/s overall{cpu}",
             "", "Public pages:", *crowd.stats.table(seconds, page_names),
             "", "PDFs (a 429 is asked again after its Retry-After, as a reader reloads it: counted, not an error):",
             *crowd.stats.table(seconds, pdf_names),
             "", f"Referees: {progress(seed['games'], run.signed_off)} in {run.referee_seconds:.0f} s, each game's "
                 "tables signed off at the same moment:", *run.referees.table(max(run.referee_seconds, 1)),
             "", "The harness's own requests:", *run.probes.table(seconds)]

    announced = summary(list(announced_delays(run.live, run.signed_off).values()))
    pages = summary(list(page_delays(run.live, run.signed_off).values()))
    live = "met" if (announced["count"] and not announced["missing"]
                     and announced["p95"] <= LIVE_TARGET_SECONDS) else "MISSED"
    fast = "met" if public["p95"] < P95_TARGET_MS else "MISSED"
    lines += ["", f"Public pages together: {public['requests']} requests, {public['errors']} errors, "
                  f"p50 {_ms(public['p50'])} ms, p95 {_ms(public['p95'])} ms (target < {P95_TARGET_MS}: {fast}), "
                  f"p99 {_ms(public['p99'])} ms",
              f"PDFs together: {pdf['requests']} requests, {pdf['errors']} errors, {pdf['busy']} answered 429, "
              f"p50 {_ms(pdf['p50'])} ms, p95 {_ms(pdf['p95'])} ms, p99 {_ms(pdf['p99'])} ms",
              f"Referee actions together: {referee['requests']} requests, {referee['errors']} errors, "
              f"p50 {_ms(referee['p50'])} ms, p95 {_ms(referee['p95'])} ms, p99 {_ms(referee['p99'])} ms",
              f"Live update, {announced['count']} sign-offs: announced to readers after p50 "
              f"{_seconds(announced['p50'])} s, p95 {_seconds(announced['p95'])} s, max {_seconds(announced['max'])} s "
              f"(target <= {LIVE_TARGET_SECONDS:.0f} s: {live}); every open live page knew (by its own poll) after "
              f"p50 {_seconds(pages['p50'])} s, p95 {_seconds(pages['p95'])} s, max {_seconds(pages['max'])} s"]
    for name in sorted(run.live.replicas):
        by = summary(list(announced_delays(run.live, run.signed_off, name).values()))
        lines.append(f"  announced by {name} (its readers connected to it, whichever replica took the sign-off): p50 "
                     f"{_seconds(by['p50'])} s, p95 {_seconds(by['p95'])} s, max {_seconds(by['max'])} s")
    if run.metrics:
        lines.append(run.metrics)
    if run.throughput:
        lines += ["", "Throughput side by side (30 readers one request after another, past nginx's cache):",
                  *run.throughput]
    errors: dict[str, int] = {}
    for stats in (crowd.stats, run.referees, run.probes):
        for kind, count in stats.error_kinds().items():
            errors[kind] = errors.get(kind, 0) + count
    lines += [f"  error: {kind} × {count}" for kind, count in sorted(errors.items())]
    if run.throughput_errors:
        lines.append(f"  error: throughput measure × {run.throughput_errors}")
    return (lines, sum(errors.values()) + run.throughput_errors,
            f"targets: public p95 {fast}, live update p95 {live}")


def parse(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=200, help="concurrent public readers")
    parser.add_argument("--dwell", type=float, default=30.0, help="mean seconds a reader stays on a page")
    parser.add_argument("--referee-think", type=float, default=0.6, help="most seconds between a referee's taps")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per replica")
    parser.add_argument("--replicas", type=int, default=2, help="gunicorn replicas behind nginx")
    parser.add_argument("--throughput-seconds", type=float, default=8,
                        help="seconds of each throughput measure, one replica then all (0: none)")
    parser.add_argument("--min-seconds", type=float, default=60, help="public load lasts at least this long")
    parser.add_argument("--max-seconds", type=float, default=150, help="referees stop (and stop retrying) after this")
    parser.add_argument("--warm-up", type=float, default=3)
    parser.add_argument("--port", type=int, default=8850, help="nginx's; the replicas' are port + 10, port + 20")
    parser.add_argument("--redis-port", type=int, default=6390, help="the broker's; the cache's is --cache-redis-port")
    parser.add_argument("--cache-redis-port", type=int, default=6392)
    parser.add_argument("--name", default="load", help="the database catan_<name> and the folder /tmp/catan_<name>")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    return parser.parse_args(argv)


def seeded(stack: Stack, options) -> dict:
    """A fresh database seeded and Redis started: what the clients need (seed.py's answer)."""
    log(f"stack: PostgreSQL database {stack.database}, Redis on {stack.redis_port} and {stack.cache_redis_port}, "
        f"{len(stack.replica_ports)} replicas × {options.workers} gunicorn workers behind nginx on {stack.site_url}, "
        "a Celery worker")
    stack.prepare()
    stack.start_redis()
    seed = stack.django_script("seed", "--played", "1")
    log(f"seeded {seed['tournaments'][0]}: {len(seed['games'])} games, "
        f"{sum(len(g['tables']) for g in seed['games'])} tables, {len(seed['referees'])} referees; "
        f"public pages: {', '.join(seed['public'].values())}")
    return seed


def main(argv: list[str] | None = None) -> int:
    options = parse(argv)
    stack = Stack(options.name, options.port, options.redis_port, options.workers, options.replicas,
                  options.cache_redis_port)
    run, seed, before = Run(), None, machine_note()
    try:
        seed = seeded(stack, options)
        run.entered = results_for(seed["games"])
        stack.start_all(os.cpu_count() or 1, beat=False)  # Celery as docker-compose's worker: one process per core
        server_cpu, client_cpu = stack.server_cpu_seconds(), time.process_time()
        asyncio.run(drive(stack, seed, options, run))
        run.cpu = (stack.server_cpu_seconds() - server_cpu, time.process_time() - client_cpu)
    except (Exception, KeyboardInterrupt) as error:  # the report says it, then the verdict
        run.failure = describe(error)
    wind_up(stack, run, seed, options.keep)
    lines, ok = report(run, seed, options, before, machine_note())
    print("\n" + "\n".join(lines), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
