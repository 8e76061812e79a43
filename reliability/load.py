"""`make load`: 200 spectators on the public pages while 20 referees play every table of a qualifier's games.

Starts its own stack (stack.py), seeds it, drives it for a bounded time, prints throughput and latency
by page, then checks every result, game, audit entry and the standings against the `rank` command.
Exit status 0 when nothing failed and nothing was lost (latency is reported against its target).
"""
import argparse
import asyncio
import json
import random
import sys
import time

from .clients import RequestFailed, Stats, Tablet, new_http_client, play_game, public_pages, spectator, table_result
from .stack import Stack, log, machine_note

P95_TARGET_MS = 300


class Crowd:
    """The spectators, running in the background until stopped."""

    def __init__(self, client, paths: dict[str, str], clients: int, dwell: float, seed: int = 1):
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.pages = public_pages(paths)
        self.tasks = [asyncio.create_task(spectator(client, self.pages, self.stats, self.stop, dwell,
                                                    random.Random(seed * 1000 + i))) for i in range(clients)]
        self.started = time.monotonic()

    async def finish(self) -> float:
        self.stop.set()
        await asyncio.gather(*self.tasks)
        return time.monotonic() - self.started

    @property
    def names(self) -> list[str]:
        return sorted(set(self.stats.latencies) | set(self.stats.errors))


def results_for(games: list[dict], seed: int = 7) -> dict[int, list[int]]:
    rng = random.Random(seed)
    return {table["id"]: table_result(rng, len(table["seats"])) for game in games for table in game["tables"]}


async def tablets_for(client, stack: Stack, referees, stats: Stats, retry_until: float | None = None) -> list[Tablet]:
    tablets = [Tablet(client, stack.base_url, username, password, stats, retry_until)
               for username, password in referees]
    arriving = asyncio.Semaphore(2)  # referees sign in as they arrive, not all in the same second

    async def sign_in(tablet: Tablet) -> None:
        async with arriving:
            for attempt in range(5):
                try:
                    return await tablet.login()
                except RequestFailed:
                    if attempt == 4:
                        raise
                    await asyncio.sleep(1)

    await asyncio.gather(*(sign_in(t) for t in tablets))
    return tablets


async def api_standings(client, slugs: list[str]) -> dict[str, list]:
    standings = {}
    for slug in slugs:
        response = await client.get(f"/api/tournaments/{slug}/standings/")
        standings[slug] = response.json() if response.status_code == 200 else []
    return standings


def verify(stack: Stack, seed: dict, entered: dict[int, list[int]], standings: dict[str, list]) -> dict:
    path = stack.dir / "run.json"
    path.write_text(json.dumps({"games": seed["games"], "entered": {str(k): v for k, v in entered.items()},
                                "tournaments": seed["tournaments"], "ruleset": seed["ruleset"],
                                "api_standings": standings}))
    return stack.django_script("verify", str(path))


CHECKS = ("every result stored", "exactly once", "every game finished", "audit trail once", "standings equal rank")


def print_checks(report: dict) -> bool:
    print(f"\nChecks ({report['tables']} tables):")
    for check in CHECKS:
        problems = report["problems"].get(check, [])
        print(f"  {'ok  ' if not problems else 'FAIL'} {check}" + (f": {len(problems)} problem(s)" if problems else ""))
        for problem in problems[:10]:
            print(f"         {problem}")
    return not any(report["problems"].values())


async def play_games(tablets, games: list[dict], entered: dict, think: float, rng: random.Random) -> None:
    for game in games:
        log(f"game {game['number']}: {len(game['tables'])} tables played at once, signed off together")
        await play_game(tablets, game, entered, think, rng)


async def drive(stack: Stack, seed: dict, options) -> tuple[Crowd, Stats, float, float, dict]:
    async with new_http_client(stack.base_url, options.clients + 40) as client:
        referee_stats = Stats()
        tablets = await tablets_for(client, stack, seed["referees"], referee_stats,
                                    retry_until=time.monotonic() + options.max_seconds)
        crowd = Crowd(client, seed["public"], options.clients, options.dwell)
        try:
            entered = results_for(seed["games"])
            rng = random.Random(3)
            await asyncio.sleep(options.warm_up)
            started = time.monotonic()
            try:
                await asyncio.wait_for(play_games(tablets, seed["games"], entered, options.referee_think, rng),
                                       options.max_seconds)
            except TimeoutError:
                log(f"referees stopped at the time bound ({options.max_seconds:.0f} s): the checks say what is missing")
            referee_seconds = time.monotonic() - started
            rest = options.min_seconds - (time.monotonic() - crowd.started)
            if rest > 0:
                await asyncio.sleep(rest)
        finally:
            seconds = await crowd.finish()
        standings = await api_standings(client, seed["tournaments"])
    return crowd, referee_stats, seconds, referee_seconds, {"entered": entered, "standings": standings}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=200, help="concurrent public readers")
    parser.add_argument("--dwell", type=float, default=30.0, help="mean seconds a reader stays on a page")
    parser.add_argument("--referee-think", type=float, default=0.6, help="most seconds between a referee's taps")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (the Dockerfile's 3)")
    parser.add_argument("--min-seconds", type=float, default=60, help="public load lasts at least this long")
    parser.add_argument("--max-seconds", type=float, default=150, help="referees stop (and stop retrying) after this")
    parser.add_argument("--warm-up", type=float, default=3)
    parser.add_argument("--port", type=int, default=8850)
    parser.add_argument("--redis-port", type=int, default=6390)
    parser.add_argument("--keep", action="store_true", help="keep the database catan_load afterwards")
    options = parser.parse_args()

    stack = Stack("load", options.port, options.redis_port, options.workers)
    before = machine_note()
    try:
        log(f"stack: PostgreSQL database {stack.database}, Redis on {options.redis_port}, gunicorn "
            f"({options.workers} workers) on {stack.base_url}")
        stack.prepare()
        stack.start_redis()
        seed = stack.django_script("seed", "--played", "1")
        tables = sum(len(g["tables"]) for g in seed["games"])
        log(f"seeded {seed['tournaments'][0]}: {len(seed['games'])} games, {tables} tables, "
            f"{len(seed['referees'])} referees; public pages: {', '.join(seed['public'].values())}")
        stack.start_gunicorn()
        server_cpu, client_cpu = stack.server_cpu_seconds(), time.process_time()
        crowd, referees, seconds, referee_seconds, outcome = asyncio.run(drive(stack, seed, options))
        server_cpu, client_cpu = stack.server_cpu_seconds() - server_cpu, time.process_time() - client_cpu
        report = verify(stack, seed, outcome["entered"], outcome["standings"])
    finally:
        stack.stop_all()
        if not options.keep:
            stack.drop_database()

    public = crowd.stats.summary(crowd.names)
    total = public["requests"] + sum(len(v) for v in referees.latencies.values())
    print(f"\n== make load, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {options.clients} readers "
          f"(each on a page for {options.dwell:.0f} s on average), {len(seed['referees'])} referees, "
          f"{options.workers} gunicorn workers ==")
    print(f"machine: before {before}; after {machine_note()}")
    print(f"{seconds:.0f} s of public load, {total} requests, {total / seconds:.0f} req/s overall; CPU used: "
          f"gunicorn {server_cpu / seconds:.2f} cores, these clients {client_cpu / seconds:.2f} cores "
          f"({1000 * server_cpu / total:.1f} ms of server CPU per request)\n")
    print("Public pages:")
    print("\n".join(crowd.stats.table(seconds, crowd.names)))
    print(f"\nReferees ({tables} tables in {referee_seconds:.0f} s; each game's tables signed off at the same moment):")
    print("\n".join(referees.table(referee_seconds)))
    referee_errors = sum(len(v) for v in referees.errors.values())
    met = "met" if public["p95"] < P95_TARGET_MS else "MISSED"
    print(f"\nPublic pages together: {public['requests']} requests, {public['errors']} errors, "
          f"p50 {public['p50']:.0f} ms, p95 {public['p95']:.0f} ms (target < {P95_TARGET_MS}: {met}), "
          f"p99 {public['p99']:.0f} ms; referee errors {referee_errors}")
    for kind, count in {**crowd.stats.error_kinds(), **referees.error_kinds()}.items():
        print(f"  error: {kind} × {count}")
    checks_ok = print_checks(report)
    ok = checks_ok and public["errors"] == 0 and referee_errors == 0
    print(f"\nmake load: {'PASSED' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
