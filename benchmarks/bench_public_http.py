"""The public pages over HTTP as deployed: gunicorn (2 workers, production settings) on PostgreSQL and Redis,
50 concurrent clients, requests per second and p95 next to /healthz in the same run, as ratios.

Run from anywhere: `python benchmarks/bench_public_http.py` (about two minutes). It creates a scratch database
(`catan_h_perf_bench`), a Redis (port 8861) and gunicorn (port 8860) of its own (`reliability.stack`), seeds a
200- and a 3,000-player tournament (3 games: two signed off, one published), times each page for a few seconds
in slices interleaved with /healthz's (a busy moment of the machine falls on all rows alike), then drops the
database and stops what it started. "304" rows are a live poll that finds nothing new (the client sends the
ETag back); "standings, new" asks each time for an address no cache holds (the page rendered, as for the
first reader after a sign-off; no target). Targets (issue 12): every page >= 50 % of /healthz at 200 players
and >= 25 % at 3,000; a poll that finds nothing new >= 80 %.
Last, the app's database connections are terminated and the next requests must still succeed (health checks).
The client speaks HTTP/1.1 over raw sockets (one connection per request, as gunicorn's sync workers close
them): a heavier client would share the two cores with the server and flatter the slow pages' ratios.
"""
import argparse
import asyncio
import itertools
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reliability.stack import HOST, PG_SERVER, PYTHON, Stack, log, psql  # noqa: E402

SIZES = (200, 3000)
CLIENTS = 50
SECONDS = 4.0
ROUNDS = 4
TARGETS = {200: 0.50, 3000: 0.25}
POLL_TARGET = 0.80


def seed() -> None:
    """In the child process (app settings, scratch database): build both tournaments, print their pages."""
    import bench_public_pages as bench  # sets up Django on BENCH_DATABASE_URL

    admin = bench.make_admin()
    print(json.dumps({players: bench.build(players, admin) for players in SIZES}))


_fresh = itertools.count()


async def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], int]:
    """One GET on a new connection: status, headers, body size. `{n}` in the path becomes a new number each time
    (an address no cache holds: the page rendered, as for the first reader after a sign-off)."""
    path = path.replace("{n}", str(next(_fresh)))
    reader, writer = await asyncio.open_connection(HOST, port)
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", "X-Forwarded-Proto: https", "Connection: close",
             "Accept: text/html", *[f"{k}: {v}" for k, v in headers.items()]]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in header_lines if ": " in line)
    return int(status_line.split()[1]), fields, len(body)


async def burst(port: int, path: str, expect: int, headers: dict[str, str], seconds: float) -> tuple[list, int]:
    """CLIENTS clients one request after another for `seconds`: the latencies and the number of errors."""
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal errors
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            try:
                status, _, _ = await get(port, path, headers)
            except OSError:
                status = 0
            latencies.append(time.perf_counter() - start)
            errors += status != expect

    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return latencies, errors


async def measure(port: int, rows: dict[str, tuple[str, int, dict]]) -> dict[str, dict]:
    """Every row for SECONDS in all, interleaved in ROUNDS slices so that a busy moment of the machine falls on
    all rows alike: requests/s, p95 in ms, errors."""
    for path, _, headers in rows.values():
        for _ in range(4):  # warm: each worker renders and caches the page once
            await get(port, path, headers)
    totals = {name: {"latencies": [], "errors": 0, "seconds": 0.0} for name in rows}
    for _ in range(ROUNDS):
        for name, (path, expect, headers) in rows.items():
            start = time.perf_counter()
            latencies, errors = await burst(port, path, expect, headers, SECONDS / ROUNDS)
            totals[name]["seconds"] += time.perf_counter() - start
            totals[name]["latencies"] += latencies
            totals[name]["errors"] += errors
    return {name: {"rate": len(t["latencies"]) / t["seconds"], "errors": t["errors"],
                   "p95": statistics.quantiles(t["latencies"], n=20)[-1] * 1000} for name, t in totals.items()}


async def run(stack: Stack, pages: dict[str, dict[str, str]]) -> tuple[bool, bool]:
    """Print each size's table; (every target met, every request answered as expected)."""
    port, met, answered = stack.http_port, True, True
    print(f"\npublic pages over HTTP: gunicorn {stack.workers} workers, PostgreSQL, Redis, {CLIENTS} clients, "
          f"{SECONDS:.0f} s per row in {ROUNDS} interleaved slices; share of /healthz's requests/s")
    for players in SIZES:
        paths = dict(pages[str(players)])
        version = paths.pop("version")
        rows = {"/healthz": ("/healthz", 200, {}), **{name: (path, 200, {}) for name, path in paths.items()}}
        sizes = {name: (await get(port, path, {}))[2] / 1024 for name, (path, _, _) in rows.items()}
        rows["standings, new"] = (paths["standings"] + "?fresh={n}", 200, {})
        sizes["standings, new"] = sizes["standings"]
        for name, path in (("standings 304", paths["standings"]), ("version 304", version)):
            rows[name] = (path, 304, {"If-None-Match": (await get(port, path, {}))[1]["ETag"]})
            sizes[name] = 0
        results = await measure(port, rows)
        healthz = results.pop("/healthz")
        print(f"\n{players:,} players: /healthz {healthz['rate']:,.0f} requests/s, p95 {healthz['p95']:.0f} ms, "
              f"{healthz['errors']} errors")
        print(f"{'page':>14} {'req/s':>7} {'share':>6} {'target':>6} {'p95 ms':>7} {'KB':>5} {'errors':>6}")
        for name, row in results.items():
            target = None if name.endswith("new") else POLL_TARGET if name.endswith("304") else TARGETS[players]
            share = row["rate"] / healthz["rate"]
            met &= target is None or share >= target
            answered &= not row["errors"]
            missed = target is not None and share < target
            print(f"{name:>14} {row['rate']:>7,.0f} {share:>6.0%} {f'{target:.0%}' if target else '-':>6} "
                  f"{row['p95']:>7.0f} {sizes[name]:>5.0f} {row['errors']:>6}{'  below target' if missed else ''}")
        answered &= not healthz["errors"]
    stack.terminate_app_connections()
    after = [(await get(port, path, {}))[0] for path in ("/healthz", *pages[str(SIZES[0])].values()) for _ in range(2)]
    print(f"\nafter pg_terminate_backend on every app connection: {after.count(200)} of {len(after)} requests 200")
    return met, answered and set(after) == {200}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", action="store_true", help=argparse.SUPPRESS)  # the child's part
    if parser.parse_args().seed:
        seed()
        return 0
    stack = Stack("h_perf_bench", http_port=8860, redis_port=8861, workers=2)
    try:
        psql("SELECT 1")
    except (OSError, subprocess.CalledProcessError):
        print("bench_public_http: skipped, no PostgreSQL on 127.0.0.1:5432")
        return 0
    if not shutil.which("redis-server"):
        print("bench_public_http: skipped, no redis-server")
        return 0
    try:
        log("preparing the scratch database and Redis")
        stack.prepare()
        stack.start_redis()
        env = {**stack.env, "BENCH_DATABASE_URL": f"{PG_SERVER}/{stack.database}"}
        log(f"seeding {' and '.join(f'{n:,}' for n in SIZES)} players")
        child = subprocess.run([PYTHON, str(Path(__file__).resolve()), "--seed"], cwd=ROOT, env=env,
                               capture_output=True, text=True, check=True)
        pages = json.loads(child.stdout.strip().splitlines()[-1])
        stack.start_gunicorn()
        met, answered = asyncio.run(run(stack, pages))
    finally:
        stack.stop_all()
        stack.drop_database()
    print("\nevery target met" if met else "\nsome target missed (see above; timings on a busy machine vary)")
    return 0 if answered else 1  # a refused or failed request fails the run; a missed target only shows


if __name__ == "__main__":
    sys.exit(main())
